// Accepting an invitation (docs/security.md, "Invitations"): the link's token is claimed once, in the same
// D1 batch (one transaction) that makes the person, when new, and the membership. A new person sets a name
// and a password; a person who already has an account proves it with their password instead (an invitation
// never resets anyone's password).
import { recordAudit } from "../audit/events";
import { type Database, nowIso, type ShardedEnv, workspaceDb } from "../db/client";
import { findPersonByEmail, type PersonRow } from "../db/people";
import { invalidInput, invalidState } from "../lib/domain-errors";
import { openInvitation } from "./members";
import { checkPassword, hashPassword, passwordProblem } from "./passwords";

export type Invitation = NonNullable<Awaited<ReturnType<typeof openInvitation>>>;

const gone = () => invalidState("this invitation has been used or has expired; ask for a new one");

/** Who accepts: a new person's name and password, or an existing person's password. */
export interface Acceptance {
  name?: string;
  password: string;
}

const NEW_PERSON_SQL =
  "INSERT INTO people (email, name, password_hash, password_salt, password_iterations) SELECT ?, ?, ?, ?, ? " +
  "WHERE EXISTS (SELECT 1 FROM invitations WHERE id = ? AND used_at IS NULL AND expires_at > ?)";
const CLAIM_SQL =
  "UPDATE invitations SET used_at = ?, used_by = (SELECT id FROM people WHERE email = ?) " +
  "WHERE id = ? AND used_at IS NULL AND expires_at > ?";
const JOIN_SQL =
  "INSERT INTO memberships (workspace_id, person_id, role) SELECT workspace_id, used_by, role FROM invitations " +
  "WHERE id = ? AND used_at = ? AND used_by IS NOT NULL ON CONFLICT DO NOTHING";

/** The new person's row, made only while the invitation is still open (in the batch that claims it). */
async function newPersonStatement(d1: D1Database, invitation: Invitation, input: Acceptance, at: string) {
  const name = input.name?.trim() ?? "";
  const problems = [];
  if (!name || name.length > 200) problems.push({ path: "body.name", message: "a name of 1 to 200 characters" });
  const weak = passwordProblem(input.password);
  if (weak) problems.push({ path: "body.password", message: weak });
  if (problems.length) throw invalidInput(problems);
  const hash = await hashPassword(input.password);
  return d1
    .prepare(NEW_PERSON_SQL)
    .bind(invitation.email, name, hash.passwordHash, hash.passwordSalt, hash.passwordIterations, invitation.id, at);
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
  if (existing && !(await checkPassword(input.password, existing)))
    throw invalidInput([{ path: "body.password", message: "that is not this account's password" }]);
  const at = nowIso();
  const d1 = env.DB;
  const claim = d1.prepare(CLAIM_SQL).bind(at, invitation.email, invitation.id, at);
  const join = d1.prepare(JOIN_SQL).bind(invitation.id, at);
  // One D1 batch is one transaction: the person, the claim and the membership, or none of them.
  const statements = existing ? [claim, join] : [await newPersonStatement(d1, invitation, input, at), claim, join];
  const results = await d1.batch(statements);
  if ((results[existing ? 0 : 1]?.meta.changes ?? 0) === 0) throw gone();
  const person = existing ?? (await findPersonByEmail(dir, invitation.email))!;
  await recordAudit(workspaceDb(env, invitation.workspaceId), {
    actor: { type: "person", id: String(person.id), name: person.name },
    action: "member.joined",
    target: { type: "person", id: person.id },
    details: { email: person.email, role: invitation.role, invitation_id: invitation.id },
  });
  return { person, workspaceId: invitation.workspaceId };
}
