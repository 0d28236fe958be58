import { and, desc, eq, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import { type Database, nowIso } from "./client";
import { apiKeys, workspaces } from "./schema";

/** A key's scope as the table stores it (src/auth/keys.ts names the same two). */
type KeyScope = (typeof apiKeys.$inferSelect)["scope"];
type KeyRole = (typeof apiKeys.$inferSelect)["role"];

export interface ResolvedKey {
  keyId: number;
  workspaceId: number;
  scope: KeyScope;
  name: string;
  /** The role ceiling (src/auth/roles.ts). */
  role: KeyRole;
  personId: number | null;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

/** Finds a key by its digest (at most one row, by the unique index). */
export async function findKeyByHash(db: Database, keyHash: string): Promise<ResolvedKey | undefined> {
  return db
    .select({
      keyId: apiKeys.id,
      workspaceId: apiKeys.workspaceId,
      scope: apiKeys.scope,
      name: apiKeys.name,
      role: apiKeys.role,
      personId: apiKeys.personId,
      expiresAt: apiKeys.expiresAt,
      revokedAt: apiKeys.revokedAt,
      lastUsedAt: apiKeys.lastUsedAt,
    })
    .from(apiKeys)
    .where(eq(apiKeys.keyHash, keyHash))
    .get();
}

/** The digests of every key not revoked (expiry is judged per request by the caller). */
export async function listLiveKeyHashes(db: Database): Promise<string[]> {
  const rows = await db.select({ keyHash: apiKeys.keyHash }).from(apiKeys).where(isNull(apiKeys.revokedAt)).all();
  return rows.map((row) => row.keyHash);
}

export async function touchKey(db: Database, keyId: number, at: string): Promise<void> {
  await db.update(apiKeys).set({ lastUsedAt: at }).where(eq(apiKeys.id, keyId)).run();
}

export function serializeKey(row: typeof apiKeys.$inferSelect) {
  return {
    id: row.id,
    workspace_id: row.workspaceId,
    name: row.name,
    prefix: row.prefix,
    scope: row.scope,
    role: row.role,
    person_id: row.personId,
    expires_at: row.expiresAt,
    revoked_at: row.revokedAt,
    last_used_at: row.lastUsedAt,
    created_at: row.createdAt,
  };
}

export type ApiKeyView = ReturnType<typeof serializeKey>;

/** Stores a new key by its digest and display prefix (the plain key is never stored; src/auth/issue-key.ts makes it). */
export async function insertKey(
  db: Database,
  workspaceId: number,
  input: {
    keyHash: string;
    prefix: string;
    name: string;
    scope: KeyScope;
    role?: KeyRole;
    personId?: number | null;
    expiresAt?: string | null;
  },
): Promise<ApiKeyView> {
  const row = await db
    .insert(apiKeys)
    .values({
      workspaceId,
      name: input.name,
      scope: input.scope,
      keyHash: input.keyHash,
      prefix: input.prefix,
      role: input.role ?? "owner",
      personId: input.personId ?? null,
      expiresAt: input.expiresAt ?? null,
    })
    .returning()
    .get();
  return serializeKey(row);
}

export async function listKeys(db: Database, workspaceId: number): Promise<ApiKeyView[]> {
  const rows = await db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.workspaceId, workspaceId))
    .orderBy(desc(apiKeys.id))
    .all();
  return rows.map(serializeKey);
}

/** Revokes a key of the workspace in one statement; revoking it again keeps the first revocation time. */
export async function revokeKey(db: Database, workspaceId: number, keyId: number): Promise<ApiKeyView | undefined> {
  const row = await db
    .update(apiKeys)
    .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, ${nowIso()})` })
    .where(and(eq(apiKeys.workspaceId, workspaceId), eq(apiKeys.id, keyId)))
    .returning()
    .get();
  return row ? serializeKey(row) : undefined;
}

/**
 * Deletes temporary keys that can no longer work: expired, or revoked before their expiry (hourly cron), so
 * a verification that revokes its temporary keys leaves none behind (docs/api.md, "Authentication and scopes"). Revoked
 * permanent keys stay listed. Returns how many went.
 */
export async function deleteExpiredKeys(db: Database, at = nowIso()): Promise<number> {
  const deleted = await db
    .delete(apiKeys)
    .where(and(isNotNull(apiKeys.expiresAt), or(lt(apiKeys.expiresAt, at), isNotNull(apiKeys.revokedAt))))
    .returning({ id: apiKeys.id })
    .all();
  return deleted.length;
}

export async function createWorkspace(db: Database, name: string) {
  return db.insert(workspaces).values({ name }).returning().get();
}

export async function getWorkspace(db: Database, id: number) {
  return db.select().from(workspaces).where(eq(workspaces.id, id)).get();
}

export async function listWorkspaces(db: Database) {
  return db.select().from(workspaces).orderBy(workspaces.id).all();
}
