// Personas of a workspace (docs/publishing.md, "Personas") and the OAuth states of connections in progress. The
// sealed tokens are read only by the grant service (src/personas/grants.ts); serializePersona never includes them.
import { and, asc, desc, eq, isNull, lt, or, sql } from "drizzle-orm";
import { type AuditEventInput, auditStatementWhen } from "./audit-events";
import { isUniqueViolation, nowIso, type WorkspaceDb } from "./client";
import { personas, syncConfigs, syncedPosts } from "./schema";

export type PersonaRow = typeof personas.$inferSelect;

export function serializePersona(row: PersonaRow) {
  return {
    id: row.id,
    username: row.username,
    active: row.active,
    auth_completed: row.authCompleted,
    browser_ready: row.browserReady,
    approved: row.approved,
    scopes: row.scopes,
    last_checked_at: row.lastCheckedAt,
    last_error: row.lastError,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

export type PersonaView = ReturnType<typeof serializePersona>;

const inWorkspace = (w: WorkspaceDb, id: number) => and(eq(personas.workspaceId, w.workspaceId), eq(personas.id, id))!;

/** A grant as stored: both tokens sealed. */
export interface SealedGrant {
  refreshTokenSealed: string;
  accessTokenSealed: string;
  accessTokenExpiresAt: string;
  scopes: string[];
}

export async function getPersonaRow(w: WorkspaceDb, id: number): Promise<PersonaRow | undefined> {
  return w.db.select().from(personas).where(inWorkspace(w, id)).get();
}

export async function getPersonaByUsername(w: WorkspaceDb, username: string): Promise<PersonaRow | undefined> {
  return w.db
    .select()
    .from(personas)
    .where(and(eq(personas.workspaceId, w.workspaceId), sql`lower(${personas.username}) = lower(${username})`))
    .get();
}

export async function listPersonaRows(w: WorkspaceDb): Promise<PersonaRow[]> {
  return w.db.select().from(personas).where(eq(personas.workspaceId, w.workspaceId)).orderBy(asc(personas.id)).all();
}

/**
 * The persona of `username` with `grant`: created, or the grant of the workspace's persona of that name
 * replaced (docs/publishing.md, "Connecting"). `created` says which.
 */
export async function saveGrant(
  w: WorkspaceDb,
  username: string,
  grant: SealedGrant & { authCompleted: boolean; lastError: string | null },
): Promise<{ row: PersonaRow; created: boolean }> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const existing = await getPersonaByUsername(w, username);
    if (existing) {
      const row = await w.db
        .update(personas)
        .set({
          ...grant,
          grantVersion: sql`${personas.grantVersion} + 1`,
          refreshClaimedUntil: null,
          updatedAt: nowIso(),
        })
        .where(inWorkspace(w, existing.id))
        .returning()
        .get();
      if (row) return { row, created: false };
      continue;
    }
    try {
      const row = await w.db
        .insert(personas)
        .values({ workspaceId: w.workspaceId, username, ...grant })
        .returning()
        .get();
      return { row, created: true };
    } catch (err) {
      // Another callback of the same account created it meanwhile: replace its grant instead.
      if (!isUniqueViolation(err)) throw err;
    }
  }
  throw new Error(`the persona ${username} could be neither created nor updated`);
}

type PersonaFields = Partial<
  Pick<
    PersonaRow,
    | "active"
    | "authCompleted"
    | "browserReady"
    | "approved"
    | "lastCheckedAt"
    | "lastError"
    | "refreshTokenSealed"
    | "accessTokenSealed"
    | "accessTokenExpiresAt"
  >
>;

/** `undefined`: no such persona in the workspace, or (with `grantVersion`) its grant is no longer that one. */
export async function updatePersona(
  w: WorkspaceDb,
  id: number,
  fields: PersonaFields,
  only: { grantVersion?: number } = {},
): Promise<PersonaRow | undefined> {
  return w.db
    .update(personas)
    .set({ ...fields, updatedAt: nowIso() })
    .where(
      and(
        inWorkspace(w, id),
        only.grantVersion === undefined ? undefined : eq(personas.grantVersion, only.grantVersion),
      ),
    )
    .returning()
    .get();
}

/**
 * Claims the refresh of a persona's grant until `until`: undefined while another caller holds an unexpired
 * claim (it is refreshing the same refresh token; the forum rotates it, so a second use would be refused).
 */
export async function claimRefresh(
  w: WorkspaceDb,
  id: number,
  now: string,
  until: string,
): Promise<PersonaRow | undefined> {
  return w.db
    .update(personas)
    .set({ refreshClaimedUntil: until })
    .where(and(inWorkspace(w, id), or(isNull(personas.refreshClaimedUntil), lt(personas.refreshClaimedUntil, now))))
    .returning()
    .get();
}

/**
 * Writes the answer of a refresh (the rotated refresh token first of all) over the grant `grantVersion` it
 * refreshed, and frees the claim; undefined when the grant was replaced meanwhile (a new connection).
 */
export async function storeRefreshed(
  w: WorkspaceDb,
  id: number,
  grantVersion: number,
  fields: PersonaFields & { scopes?: string[] },
): Promise<PersonaRow | undefined> {
  return w.db
    .update(personas)
    .set({ ...fields, grantVersion: grantVersion + 1, refreshClaimedUntil: null, updatedAt: nowIso() })
    .where(and(inWorkspace(w, id), eq(personas.grantVersion, grantVersion)))
    .returning()
    .get();
}

export async function releaseRefreshClaim(w: WorkspaceDb, id: number): Promise<void> {
  await w.db.update(personas).set({ refreshClaimedUntil: null }).where(inWorkspace(w, id)).run();
}

/** Deletes the persona's row and appends its `persona.deleted` event in the same write; false when there was none. */
export async function deletePersonaRow(w: WorkspaceDb, id: number, event: AuditEventInput): Promise<boolean> {
  const [, rows] = await w.db.batch([
    auditStatementWhen(w, event, personas, inWorkspace(w, id)),
    w.db.delete(personas).where(inWorkspace(w, id)).returning({ id: personas.id }),
  ]);
  return rows.length > 0;
}

/** How many posts of configs that name this persona are queued for publishing. */
export async function queuedPostsOfPersona(w: WorkspaceDb, id: number): Promise<number> {
  const row = await w.db
    .select({ n: sql<number>`count(*)` })
    .from(syncedPosts)
    .innerJoin(syncConfigs, eq(syncConfigs.id, syncedPosts.configId))
    .where(
      and(eq(syncedPosts.workspaceId, w.workspaceId), eq(syncedPosts.state, "queued"), eq(syncConfigs.personaId, id)),
    )
    .get();
  return row?.n ?? 0;
}

/**
 * The persona chosen when a config names none (docs/publishing.md, "Personas"): an active, auth-completed,
 * browser-ready one, approved ones first, then the most recently checked.
 */
export async function findReadyPersona(w: WorkspaceDb): Promise<PersonaRow | undefined> {
  return w.db
    .select()
    .from(personas)
    .where(
      and(
        eq(personas.workspaceId, w.workspaceId),
        eq(personas.active, true),
        eq(personas.authCompleted, true),
        eq(personas.browserReady, true),
      ),
    )
    .orderBy(desc(personas.approved), desc(personas.lastCheckedAt), asc(personas.id))
    .get();
}
