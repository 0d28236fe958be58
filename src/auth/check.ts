// The API key check itself: read the header, look the key up, judge it, count the request against the
// key's rate limit. The middleware (middleware.ts) and the reads that check the key in their own D1 batch
// (key-in-query.ts) both use it, so there is one set of rules and messages.
import type { AppEnv } from "../app-env";
import { findKeyByHash, type ResolvedKey, touchKey } from "../db/api-keys";
import { directoryDb } from "../db/client";
import { ApiError } from "../errors";
import { log, messageOf } from "../lib/log";
import { KEY_PATTERN, type KeyScope, sha256Hex } from "./keys";

/** How stale `last_used_at` may get before a request refreshes it (keeps writes off most requests). */
const LAST_USED_RESOLUTION_MS = 60_000;

export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header ?? "");
  return match?.[1];
}

export interface AuthContext {
  keyId: number;
  workspaceId: number;
  scope: KeyScope;
}

/** A well-formed key from the Authorization header, not yet looked up. `at` is the time it is judged at. */
export interface PresentedKey {
  digest: string;
  at: Date;
  /** Set once the key has been looked up and judged (whatever the verdict). */
  checked?: boolean;
}

type WaitUntil = { waitUntil(promise: Promise<unknown>): void };

/** Why no key could be read from the header, in words that say what to send instead. */
function missingKeyMessage(header: string | undefined): string {
  const given = header?.trim() ?? "";
  if (!given) return "missing API key: send Authorization: Bearer <key>";
  const scheme = /^(\S+)/.exec(given)![1]!;
  if (scheme.toLowerCase() !== "bearer")
    return `the Authorization header uses the ${scheme} scheme; send the API key as Authorization: Bearer <key>`;
  return "the Authorization header has no key after Bearer; send Authorization: Bearer <key>";
}

/** Reads `Authorization: Bearer <key>`; throws 401 when it is missing or not a key's shape. */
export async function presentedKey(header: string | undefined): Promise<PresentedKey> {
  const token = bearerToken(header);
  if (!token) throw new ApiError("unauthorized", missingKeyMessage(header));
  if (!KEY_PATTERN.test(token)) throw new ApiError("unauthorized", "malformed API key");
  return { digest: await sha256Hex(token), at: new Date() };
}

/**
 * Judges a looked-up key: throws 401 for an unknown, revoked or expired one, else returns the caller and
 * refreshes `last_used_at` off the hot path (the response does not wait for that write).
 */
export async function acceptKey(
  env: AppEnv["Bindings"],
  key: ResolvedKey | undefined,
  at: Date,
  ctx?: WaitUntil,
): Promise<AuthContext> {
  if (!key) throw new ApiError("unauthorized", "unknown API key");
  if (key.revokedAt) throw new ApiError("unauthorized", "API key has been revoked");
  if (key.expiresAt && new Date(key.expiresAt) <= at) throw new ApiError("unauthorized", "API key has expired");
  if (!key.lastUsedAt || at.getTime() - new Date(key.lastUsedAt).getTime() > LAST_USED_RESOLUTION_MS) {
    const write = touchKey(directoryDb(env), key.keyId, at.toISOString()).catch((err: unknown) =>
      log("warn", "last_used_at update failed", { error: messageOf(err) }),
    );
    if (ctx) ctx.waitUntil(write);
    else await write;
  }
  return { keyId: key.keyId, workspaceId: key.workspaceId, scope: key.scope };
}

/** The per-key rate limit's verdict: throws 429 when the key has used up its minute. */
export function assertWithinRateLimit(outcome: { success: boolean }): void {
  if (!outcome.success) {
    throw new ApiError("rate_limited", "rate limit reached for this API key; retry later", {
      headers: { "retry-after": "60" },
    });
  }
}

/** Counts one request against the key's rate limit (per key: the bucket is named by the key's digest). */
export const countRequest = (env: AppEnv["Bindings"], key: PresentedKey) =>
  env.RATE_LIMITER.limit({ key: `key:${key.digest}` });

/**
 * Looks the key up and counts the request against its rate limit, both at once; 401 before 429.
 * Marks the key checked whatever the verdict.
 */
export async function checkKey(env: AppEnv["Bindings"], key: PresentedKey, ctx?: WaitUntil): Promise<AuthContext> {
  const [found, limit] = await Promise.all([findKeyByHash(env.DB, key.digest), countRequest(env, key)]);
  key.checked = true;
  const auth = await acceptKey(env, found, key.at, ctx);
  assertWithinRateLimit(limit);
  return auth;
}

/**
 * Resolves `Authorization: Bearer <key>` to a workspace, or throws 401, without counting the request against
 * the rate limit: `/mcp` checks the key before any protocol work, and a tool call counts once, through the
 * REST request it dispatches (docs/mcp.md).
 */
export async function authenticate(
  env: AppEnv["Bindings"],
  header: string | undefined,
  ctx?: WaitUntil,
): Promise<AuthContext> {
  const key = await presentedKey(header);
  return acceptKey(env, await findKeyByHash(env.DB, key.digest), key.at, ctx);
}
