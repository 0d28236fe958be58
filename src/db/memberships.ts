// Writes of memberships that must hold a rule in the same statement (the last owner), and invitations.
import { and, eq, gt, inArray, isNull, ne, or, sql } from "drizzle-orm";
import { ROLES, type Role, roleRank } from "../lib/role";
import { type Database, nowIso } from "./client";
import { revokeKeysMadeBy, revokeSessionsIn } from "./person-sessions";
import { apiKeys } from "./schema";
import { invitations, memberships } from "./schema-people";

/**
 * The member's row, unless it is an owner's and no other owner is left: checked in the same statement as the
 * write, so two owners demoting each other at once cannot leave the workspace without one.
 */
const memberUnlessLastOwner = (workspaceId: number, personId: number) =>
  and(
    eq(memberships.workspaceId, workspaceId),
    eq(memberships.personId, personId),
    or(
      ne(memberships.role, "owner"),
      sql`(SELECT count(*) FROM memberships AS m WHERE m.workspace_id = ${workspaceId} AND m.role = 'owner') > 1`,
    ),
  );

/** The member's keys in this workspace keep at most the member's new role as their ceiling. */
const lowerKeyCeilings = (dir: Database, workspaceId: number, personId: number, role: Role) =>
  dir
    .update(apiKeys)
    .set({ role })
    .where(
      and(
        eq(apiKeys.workspaceId, workspaceId),
        eq(apiKeys.personId, personId),
        inArray(
          apiKeys.role,
          ROLES.filter((r) => roleRank(r) > roleRank(role)),
        ),
      ),
    );

/** Sets the role (and lowers the ceilings of the member's keys); false when it would demote the last owner. */
export async function setRoleUnlessLastOwner(dir: Database, workspaceId: number, personId: number, role: Role) {
  const [changed] = await dir.batch([
    dir
      .update(memberships)
      .set({ role })
      .where(memberUnlessLastOwner(workspaceId, personId))
      .returning({ id: memberships.personId }),
    lowerKeyCeilings(dir, workspaceId, personId, role),
  ]);
  return changed.length > 0;
}

/**
 * Removes the membership, ends the person's sessions looking at the workspace and revokes the keys they made
 * there, in one batch; false when it is the last owner (then nothing changes: the other statements ask that
 * the membership be gone).
 */
export async function removeUnlessLastOwner(dir: Database, workspaceId: number, personId: number) {
  const [removed] = await dir.batch([
    dir.delete(memberships).where(memberUnlessLastOwner(workspaceId, personId)).returning({ id: memberships.personId }),
    revokeSessionsIn(dir, personId, workspaceId),
    revokeKeysMadeBy(dir, personId, workspaceId),
  ]);
  return removed.length > 0;
}

export const insertInvitation = (dir: Database, row: typeof invitations.$inferInsert) =>
  dir.insert(invitations).values(row).returning().get();

/** The invitation whose token has this digest, when unused and unexpired. */
export const findOpenInvitation = (dir: Database, tokenHash: string) =>
  dir
    .select()
    .from(invitations)
    .where(and(eq(invitations.tokenHash, tokenHash), isNull(invitations.usedAt), gt(invitations.expiresAt, nowIso())))
    .get();

const NEW_PERSON_SQL =
  "INSERT INTO people (email, name, password_hash, password_salt, password_iterations) SELECT ?, ?, ?, ?, ? " +
  "WHERE EXISTS (SELECT 1 FROM invitations WHERE id = ? AND used_at IS NULL AND expires_at > ?)";
const CLAIM_SQL =
  "UPDATE invitations SET used_at = ?, used_by = (SELECT id FROM people WHERE email = ?) " +
  "WHERE id = ? AND used_at IS NULL AND expires_at > ?";
const JOIN_SQL =
  "INSERT INTO memberships (workspace_id, person_id, role) SELECT workspace_id, used_by, role FROM invitations " +
  "WHERE id = ? AND used_at = ? AND used_by IS NOT NULL ON CONFLICT DO NOTHING";

/**
 * Claims the invitation and makes the membership, and the person when `newPerson` is given, in one D1 batch
 * (one transaction): all of it, or (the invitation used or expired meanwhile) nothing. True when claimed.
 */
export async function claimInvitation(
  d1: D1Database,
  invitation: { id: number; email: string },
  newPerson?: { name: string; passwordHash: string; passwordSalt: string; passwordIterations: number },
): Promise<boolean> {
  const at = nowIso();
  const statements = [
    d1.prepare(CLAIM_SQL).bind(at, invitation.email, invitation.id, at),
    d1.prepare(JOIN_SQL).bind(invitation.id, at),
  ];
  if (newPerson)
    statements.unshift(
      d1
        .prepare(NEW_PERSON_SQL)
        .bind(
          invitation.email,
          newPerson.name,
          newPerson.passwordHash,
          newPerson.passwordSalt,
          newPerson.passwordIterations,
          invitation.id,
          at,
        ),
    );
  const results = await d1.batch(statements);
  return (results[newPerson ? 1 : 0]?.meta.changes ?? 0) > 0;
}
