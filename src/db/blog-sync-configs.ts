// Blog sync configs of a workspace (docs/blog-sync.md). Every function takes the workspace accessor first, but the
// daily cron's listing over all workspaces.
import { and, asc, count, eq, notExists, sql } from "drizzle-orm";
import { invalidState } from "../lib/domain-errors";
import type { SyncedPostState } from "./blog-sync-posts";
import { type Database, isUniqueViolation, nowIso, type WorkspaceDb } from "./client";
import { syncConfigs, syncedPosts } from "./schema";

export type SyncConfigRow = typeof syncConfigs.$inferSelect;
export type ItemCounts = Record<SyncedPostState, number>;

const zeroCounts = (): ItemCounts => ({ draft: 0, queued: 0, published: 0, failed: 0 });

export function serializeConfig(row: SyncConfigRow, items: ItemCounts = zeroCounts()) {
  return {
    id: row.id,
    blog_url: row.blogUrl,
    subreddit: row.subreddit,
    persona_id: row.personaId,
    include_media: row.includeMedia,
    active: row.active,
    publish_immediately: row.publishImmediately,
    max_posts: row.maxPosts,
    flair_id: row.flairId,
    source_link: row.sourceLink,
    fingerprint: row.fingerprint,
    last_run_at: row.lastRunAt,
    last_error: row.lastError,
    item_counts: items,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

export type SyncConfigView = ReturnType<typeof serializeConfig>;

/** The stored settings of a config (everything a caller may set). */
export interface ConfigSettings {
  blogUrl: string;
  subreddit: string;
  personaId: number | null;
  includeMedia: boolean;
  active: boolean;
  publishImmediately: boolean;
  maxPosts: number;
  /** Not fingerprinted; absent keeps the stored value (null on insert). */
  flairId?: string | null;
  /** Not fingerprinted; absent keeps the stored value (true on insert). */
  sourceLink?: boolean;
  fingerprint: string;
}

const duplicateConfig = () =>
  invalidState("another sync config of this workspace already syncs this blog to this subreddit");

/** Post counts by state, per config of the workspace (or of one config). */
const itemCountsQuery = (w: WorkspaceDb, configId?: number) =>
  w.db
    .select({ configId: syncedPosts.configId, state: syncedPosts.state, n: count() })
    .from(syncedPosts)
    .where(
      and(
        eq(syncedPosts.workspaceId, w.workspaceId),
        configId === undefined ? undefined : eq(syncedPosts.configId, configId),
      ),
    )
    .groupBy(syncedPosts.configId, syncedPosts.state);

function toItemCounts(rows: { configId: number; state: SyncedPostState; n: number }[]): Map<number, ItemCounts> {
  const counts = new Map<number, ItemCounts>();
  for (const row of rows) {
    const entry = counts.get(row.configId) ?? zeroCounts();
    entry[row.state] = row.n;
    counts.set(row.configId, entry);
  }
  return counts;
}

export async function getConfigRow(w: WorkspaceDb, id: number): Promise<SyncConfigRow | undefined> {
  return w.db
    .select()
    .from(syncConfigs)
    .where(and(eq(syncConfigs.workspaceId, w.workspaceId), eq(syncConfigs.id, id)))
    .get();
}

export async function findConfigByTarget(
  w: WorkspaceDb,
  blogUrl: string,
  subreddit: string,
): Promise<SyncConfigRow | undefined> {
  return w.db
    .select()
    .from(syncConfigs)
    .where(
      and(
        eq(syncConfigs.workspaceId, w.workspaceId),
        eq(syncConfigs.blogUrl, blogUrl),
        sql`lower(${syncConfigs.subreddit}) = lower(${subreddit})`,
      ),
    )
    .get();
}

/** The API's view of a row already read (or just written): only its item counts are queried. */
export async function configView(w: WorkspaceDb, row: SyncConfigRow): Promise<SyncConfigView> {
  return serializeConfig(row, toItemCounts(await itemCountsQuery(w, row.id).all()).get(row.id));
}

export async function getConfig(w: WorkspaceDb, id: number): Promise<SyncConfigView | undefined> {
  const row = await getConfigRow(w, id);
  return row ? configView(w, row) : undefined;
}

/** The configs and their item counts in one batch (one round trip). */
export async function listConfigs(w: WorkspaceDb): Promise<SyncConfigView[]> {
  const [rows, countRows] = await w.db.batch([
    w.db.select().from(syncConfigs).where(eq(syncConfigs.workspaceId, w.workspaceId)).orderBy(asc(syncConfigs.id)),
    itemCountsQuery(w),
  ]);
  const counts = toItemCounts(countRows);
  return rows.map((row) => serializeConfig(row, counts.get(row.id)));
}

/**
 * The active configs of every workspace, in workspace then config order: what the daily cron fans out.
 * One query over the directory database, where every workspace's configs live today; a config cascades
 * with its workspace, so each row belongs to an existing workspace. A workspace moved to a database of
 * its own (src/db/client.ts) would need its own query here.
 */
export async function listActiveConfigsOfAllWorkspaces(db: Database): Promise<{ workspaceId: number; id: number }[]> {
  return db
    .select({ workspaceId: syncConfigs.workspaceId, id: syncConfigs.id })
    .from(syncConfigs)
    .where(eq(syncConfigs.active, true))
    .orderBy(asc(syncConfigs.workspaceId), asc(syncConfigs.id))
    .all();
}

/** Inserts a config; a concurrent insert of the same blog + subreddit surfaces as `undefined`. */
export async function insertConfig(w: WorkspaceDb, settings: ConfigSettings): Promise<SyncConfigRow | undefined> {
  try {
    return await w.db
      .insert(syncConfigs)
      .values({ workspaceId: w.workspaceId, ...settings })
      .returning()
      .get();
  } catch (err) {
    if (isUniqueViolation(err)) return undefined;
    throw err;
  }
}

/**
 * Replaces the settings of a config still at `revision` (the one they were worked out from) and bumps its
 * revision; `undefined` when the id is not in the workspace or another update came first.
 */
export async function updateConfig(
  w: WorkspaceDb,
  id: number,
  revision: number,
  settings: ConfigSettings,
): Promise<SyncConfigRow | undefined> {
  try {
    return await w.db
      .update(syncConfigs)
      .set({ ...settings, revision: sql`${syncConfigs.revision} + 1`, updatedAt: nowIso() })
      .where(
        and(eq(syncConfigs.workspaceId, w.workspaceId), eq(syncConfigs.id, id), eq(syncConfigs.revision, revision)),
      )
      .returning()
      .get();
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicateConfig();
    throw err;
  }
}

/** Records a failure outside a run (a daily run that was given up) as the config's `last_error`. */
export async function recordConfigError(w: WorkspaceDb, id: number, message: string): Promise<boolean> {
  const row = await w.db
    .update(syncConfigs)
    .set({ lastError: message, updatedAt: nowIso() })
    .where(and(eq(syncConfigs.workspaceId, w.workspaceId), eq(syncConfigs.id, id)))
    .returning({ id: syncConfigs.id })
    .get();
  return row !== undefined;
}

/**
 * Deletes a config unless one of its posts is queued for publishing (then `queued`). Its synced posts and
 * run records go with it (ON DELETE CASCADE).
 */
export async function deleteConfigUnlessQueued(
  w: WorkspaceDb,
  id: number,
): Promise<"deleted" | "queued" | "not_found"> {
  const queued = w.db
    .select({ id: syncedPosts.id })
    .from(syncedPosts)
    .where(
      and(eq(syncedPosts.workspaceId, w.workspaceId), eq(syncedPosts.configId, id), eq(syncedPosts.state, "queued")),
    );
  const row = await w.db
    .delete(syncConfigs)
    .where(and(eq(syncConfigs.workspaceId, w.workspaceId), eq(syncConfigs.id, id), notExists(queued)))
    .returning({ id: syncConfigs.id })
    .get();
  if (row) return "deleted";
  return (await getConfigRow(w, id)) ? "queued" : "not_found";
}
