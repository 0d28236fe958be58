// Console sessions of people (docs/console.md, "People, sessions and roles"): the cookie carries a random token, the row its
// SHA-256; revoking a row ends the session at its next request.
import { and, desc, eq, gt, isNull, ne, sql } from "drizzle-orm";
import { type Database, nowIso } from "./client";
import { type PasswordRecord, setPassword } from "./people";
import { apiKeys } from "./schema";
import { personSessions } from "./schema-people";

export type PersonSessionRow = typeof personSessions.$inferSelect;

export const insertPersonSession = (
  db: Database,
  input: {
    tokenHash: string;
    personId: number;
    workspaceId: number;
    method: PersonSessionRow["method"];
    userAgent: string | null;
    expiresAt: string;
  },
) =>
  db
    .insert(personSessions)
    .values({ ...input, lastSeenAt: nowIso() })
    .returning()
    .get();

/** A live session by its token's digest: not revoked, not expired. */
export const findLiveSession = (db: Database, tokenHash: string, at = nowIso()) =>
  db
    .select()
    .from(personSessions)
    .where(
      and(eq(personSessions.tokenHash, tokenHash), isNull(personSessions.revokedAt), gt(personSessions.expiresAt, at)),
    )
    .get();

export const liveSessionsOf = (db: Database, personId: number, at = nowIso()) =>
  db
    .select()
    .from(personSessions)
    .where(
      and(eq(personSessions.personId, personId), isNull(personSessions.revokedAt), gt(personSessions.expiresAt, at)),
    )
    .orderBy(desc(personSessions.id))
    .all();

export const touchSession = (db: Database, id: number, at: string) =>
  db.update(personSessions).set({ lastSeenAt: at }).where(eq(personSessions.id, id)).run();

export const switchSessionWorkspace = (db: Database, id: number, workspaceId: number) =>
  db.update(personSessions).set({ workspaceId }).where(eq(personSessions.id, id)).run();

/** Revokes one session of the person; false when it is not theirs or already ended. */
export async function revokePersonSession(db: Database, personId: number, id: number): Promise<boolean> {
  const row = await db
    .update(personSessions)
    .set({ revokedAt: nowIso() })
    .where(and(eq(personSessions.id, id), eq(personSessions.personId, personId), isNull(personSessions.revokedAt)))
    .returning({ id: personSessions.id })
    .get();
  return row !== undefined;
}

/** The statement ending every session of the person but `keep` (a password change keeps the one that changed it). */
export const revokeOtherSessions = (db: Database, personId: number, keep: number | null) =>
  db
    .update(personSessions)
    .set({ revokedAt: nowIso() })
    .where(
      and(
        eq(personSessions.personId, personId),
        isNull(personSessions.revokedAt),
        keep === null ? undefined : ne(personSessions.id, keep),
      ),
    );

/** True once the person is no longer a member of the workspace (in the same batch as the removal). */
const notMember = (personId: number, workspaceId: number) =>
  sql`NOT EXISTS (SELECT 1 FROM memberships AS m WHERE m.workspace_id = ${workspaceId} AND m.person_id = ${personId})`;

/** The statement ending the person's sessions that look at a workspace they are no longer a member of. */
export const revokeSessionsIn = (db: Database, personId: number, workspaceId: number) =>
  db
    .update(personSessions)
    .set({ revokedAt: nowIso() })
    .where(
      and(
        eq(personSessions.personId, personId),
        eq(personSessions.workspaceId, workspaceId),
        isNull(personSessions.revokedAt),
        notMember(personId, workspaceId),
      ),
    );

/** The statement revoking the keys a person made in a workspace they are no longer a member of. */
export const revokeKeysMadeBy = (db: Database, personId: number, workspaceId: number) =>
  db
    .update(apiKeys)
    .set({ revokedAt: nowIso() })
    .where(
      and(
        eq(apiKeys.personId, personId),
        eq(apiKeys.workspaceId, workspaceId),
        isNull(apiKeys.revokedAt),
        notMember(personId, workspaceId),
      ),
    );

/** The new password, and every other session of the person ended, in one batch. */
export async function setPasswordEndingOtherSessions(
  db: Database,
  personId: number,
  password: PasswordRecord,
  keep: number,
): Promise<void> {
  await db.batch([setPassword(db, personId, password), revokeOtherSessions(db, personId, keep)]);
}
