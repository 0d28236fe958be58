// Accepting an invitation (docs/security.md, "Invitations"): the link's token is claimed once, in the same
// D1 batch (one transaction) that makes the person, when new, and the membership. A new person sets a name
// and a password; a person who already has an account proves it with their password instead (an invitation
// never resets anyone's password). That password is checked as sign-in checks it, within the same failure
// limits: whoever holds the link (the admin who made it, too) gets no unlimited guesses at an account.
import { recordAudit } from "../audit/events";
import { type Database, type ShardedEnv, workspaceDb } from "../db/client";
import { claimInvitation } from "../db/memberships";
import { findPersonByEmail, type PersonRow } from "../db/people";
import { DomainError, invalidInput, invalidState } from "../lib/domain-errors";
import { openInvitation } from "./members";
import { hashPassword, passwordProblem } from "./passwords";
import { signInWithPassword } from "./sign-in";

export type Invitation = NonNullable<Awaited<ReturnType<typeof openInvitation>>>;

const gone = () => invalidState("this invitation has been used or has expired; ask for a new one");

/** Who accepts: a new person's name and password, or an existing person's password (and from where). */
export interface Acceptance {
  name?: string;
  password: string;
  addressBucket?: string;
}

/** An existing person's password, checked and counted as a sign-in attempt; throws when refused. */
async function provePassword(env: ShardedEnv, dir: Database, person: PersonRow, input: Acceptance) {
  const result = await signInWithPassword(env, dir, {
    email: person.email,
    password: input.password,
    addressBucket: input.addressBucket,
  });
  if (result.ok) return;
  const path = "body.password";
  if (!result.limited) throw invalidInput([{ path, message: "that is not this account's password" }]);
  const minutes = Math.ceil(result.retryAfterSeconds / 60);
  throw new DomainError("invalid_input", "too many failed sign-ins", {
    problems: [
      { path, message: `too many failed sign-ins; try again in ${minutes} minute${minutes === 1 ? "" : "s"}` },
    ],
    retryAfterSeconds: result.retryAfterSeconds,
  });
}

/** A new person's name and password hash, or the problems with them. */
async function newPerson(input: Acceptance) {
  const name = input.name?.trim() ?? "";
  const problems = [];
  if (!name || name.length > 200) problems.push({ path: "body.name", message: "a name of 1 to 200 characters" });
  const weak = passwordProblem(input.password);
  if (weak) problems.push({ path: "body.password", message: weak });
  if (problems.length) throw invalidInput(problems);
  return { name, ...(await hashPassword(input.password)) };
}

/** Claims the invitation and makes the membership; the person (new or existing) it made a member. */
export async function acceptInvitation(
  env: ShardedEnv,
  dir: Database,
  token: string,
  input: Acceptance,
): Promise<{ person: PersonRow; workspaceId: number }> {
  const invitation = await openInvitation(dir, token);
  if (!invitation) throw gone();
  const existing = await findPersonByEmail(dir, invitation.email);
  if (existing) await provePassword(env, dir, existing, input);
  // One D1 batch: the person (when new), the claim and the membership, or none of them.
  if (!(await claimInvitation(env.DB, invitation, existing ? undefined : await newPerson(input)))) throw gone();
  const person = existing ?? (await findPersonByEmail(dir, invitation.email))!;
  await recordAudit(workspaceDb(env, invitation.workspaceId), {
    actor: { type: "person", id: String(person.id), name: person.name },
    action: "member.joined",
    target: { type: "person", id: person.id },
    details: { email: person.email, role: invitation.role, invitation_id: invitation.id },
  });
  return { person, workspaceId: invitation.workspaceId };
}
