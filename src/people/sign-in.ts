// Password sign-in (docs/security.md, "Signing in as a person"): at most 5 failures per email and 20 per client address
// in 15 minutes, then refused with when to retry; an unknown email costs the same hashing as a known one and
// gets the same answer as a wrong password, so neither the message nor the time says whether it exists.
import { recordAudit } from "../audit/events";
import { type Database, type ShardedEnv, workspaceDb } from "../db/client";
import { findPersonByEmail, normalEmail, type PersonRow, workspacesOf } from "../db/people";
import { addFailure, failuresSince } from "../db/sign-in-failures";
import { sha256Hex } from "../lib/crypto";
import { SYSTEM_ACTOR } from "../lib/role";
import { checkPassword } from "./passwords";

export const FAILURE_WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_EMAIL = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;

/** The one message of every refused password sign-in, whatever was wrong. */
export const SIGN_IN_REFUSED = "That email and password do not match an account.";

export type SignInResult =
  | { ok: true; person: PersonRow }
  | { ok: false; limited: false }
  | { ok: false; limited: true; retryAfterSeconds: number };

const retryAfter = (oldest: string | null, now: number) =>
  Math.max(1, Math.ceil(((oldest ? Date.parse(oldest) : now) + FAILURE_WINDOW_MS - now) / 1000));

/** The workspaces of the email's person hear that its sign-in was limited (never the caller). */
async function auditLimited(env: ShardedEnv, dir: Database, person: PersonRow | undefined, by: string) {
  if (!person) return;
  for (const { workspaceId } of await workspacesOf(dir, person.id))
    await recordAudit(workspaceDb(env, workspaceId), {
      actor: SYSTEM_ACTOR,
      action: "sign_in.limited",
      target: { type: "person", id: person.id },
      details: { email: person.email, limited_by: by },
    });
}

export async function signInWithPassword(
  env: ShardedEnv,
  dir: Database,
  input: { email: string; password: string; addressBucket: string | undefined },
): Promise<SignInResult> {
  const now = Date.now();
  const since = new Date(now - FAILURE_WINDOW_MS).toISOString();
  const email = normalEmail(input.email);
  const buckets = [`email:${await sha256Hex(email)}`];
  if (input.addressBucket) buckets.push(`addr:${input.addressBucket}`);
  const [byEmail, byAddress] = await Promise.all(buckets.map((b) => failuresSince(dir, b, since)));
  const person = await findPersonByEmail(dir, email);
  const over =
    byEmail!.n >= MAX_FAILURES_PER_EMAIL
      ? { by: "email", oldest: byEmail!.oldest }
      : byAddress && byAddress.n >= MAX_FAILURES_PER_ADDRESS
        ? { by: "address", oldest: byAddress.oldest }
        : undefined;
  if (over) return { ok: false, limited: true, retryAfterSeconds: retryAfter(over.oldest, now) };
  if (await checkPassword(input.password, person ?? undefined)) return { ok: true, person: person! };
  await addFailure(dir, buckets, new Date(now).toISOString(), since);
  // The failure that reaches a limit is recorded once, not every attempt refused after it.
  if (byEmail!.n + 1 === MAX_FAILURES_PER_EMAIL) await auditLimited(env, dir, person, "email");
  else if (byAddress && byAddress.n + 1 === MAX_FAILURES_PER_ADDRESS) await auditLimited(env, dir, person, "address");
  return { ok: false, limited: false };
}
