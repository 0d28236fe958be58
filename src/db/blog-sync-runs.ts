// Records of real sync runs (dry runs leave none).
import { and, asc, count, desc, eq, inArray } from "drizzle-orm";
import { nowIso, type WorkspaceDb } from "./client";
import { syncConfigs, syncRunItems, syncRuns } from "./schema";

export type SyncRunRow = typeof syncRuns.$inferSelect;
export type RunStatus = SyncRunRow["status"];
export type FinalRunStatus = Exclude<RunStatus, "running">;
export type SyncRunItemRow = typeof syncRunItems.$inferSelect;

/** What a run keeps of one handled post (the body is the synced post's, not copied). */
export interface StoredRunItem {
  synced_post_id: number | null;
  source_url: string;
  title: string | null;
  action: SyncRunItemRow["action"];
  state: SyncRunItemRow["state"];
  warnings: string[];
  error: string | null;
}

export interface RunStart {
  configId: number;
  trigger: SyncRunRow["trigger"];
  scheduleKey: string | null;
  publish: boolean;
  maxPosts: number;
  fingerprint: string;
}

export async function insertRun(w: WorkspaceDb, start: RunStart): Promise<SyncRunRow> {
  return w.db
    .insert(syncRuns)
    .values({ workspaceId: w.workspaceId, ...start, status: "running", startedAt: nowIso() })
    .returning()
    .get();
}

/** What a run counted; the API's run object carries the same names. */
export interface RunCounts {
  discovered: number;
  created: number;
  updated: number;
  unchanged: number;
  queued: number;
  failed: number;
}

export const NO_COUNTS: RunCounts = { discovered: 0, created: 0, updated: 0, unchanged: 0, queued: 0, failed: 0 };

export interface RunOutcome extends RunCounts {
  status: FinalRunStatus;
  sourceKind: SyncRunRow["sourceKind"];
  sourceUrl: string | null;
  error: string | null;
  finishedAt: string;
}

/** D1 binds at most 100 parameters per statement; an item row binds 10. */
const ITEM_ROWS_PER_STATEMENT = 9;

/**
 * Closes a run and records it on its config in one batch: `last_run_at` always, `last_error` cleared by a
 * clean run, set by a failed or partial one, left as it was by an aborted one. The run's items are written
 * in the same batch.
 */
export async function finishRun(
  w: WorkspaceDb,
  runId: number,
  configId: number,
  outcome: RunOutcome,
  items: StoredRunItem[] = [],
): Promise<void> {
  const lastError =
    outcome.status === "aborted" ? {} : { lastError: outcome.status === "completed" ? null : outcome.error };
  const rows = items.map((item, position) => ({
    workspaceId: w.workspaceId,
    runId,
    position,
    syncedPostId: item.synced_post_id,
    sourceUrl: item.source_url,
    title: item.title,
    action: item.action,
    state: item.state,
    warnings: item.warnings,
    error: item.error,
  }));
  const itemInserts = [];
  for (let i = 0; i < rows.length; i += ITEM_ROWS_PER_STATEMENT)
    itemInserts.push(w.db.insert(syncRunItems).values(rows.slice(i, i + ITEM_ROWS_PER_STATEMENT)));
  await w.db.batch([
    w.db
      .update(syncRuns)
      .set(outcome)
      .where(and(eq(syncRuns.workspaceId, w.workspaceId), eq(syncRuns.id, runId))),
    w.db
      .update(syncConfigs)
      .set({ lastRunAt: outcome.finishedAt, ...lastError })
      .where(and(eq(syncConfigs.workspaceId, w.workspaceId), eq(syncConfigs.id, configId))),
    ...itemInserts,
  ]);
}

/**
 * A run whose worker died: its slot expired in the workspace Durable Object, so it will never finish. One
 * batch (one transaction): the config is updated first, while the run still reads `running`, so both
 * writes happen only for a run that was still running.
 */
export async function failAbandonedRun(w: WorkspaceDb, runId: number, message: string): Promise<boolean> {
  const at = nowIso();
  const stillRunning = and(
    eq(syncRuns.workspaceId, w.workspaceId),
    eq(syncRuns.id, runId),
    eq(syncRuns.status, "running"),
  );
  const [, failed] = await w.db.batch([
    w.db
      .update(syncConfigs)
      .set({ lastRunAt: at, lastError: message })
      .where(
        and(
          eq(syncConfigs.workspaceId, w.workspaceId),
          inArray(syncConfigs.id, w.db.select({ configId: syncRuns.configId }).from(syncRuns).where(stillRunning)),
        ),
      ),
    w.db
      .update(syncRuns)
      .set({ status: "failed", error: message, finishedAt: at })
      .where(stillRunning)
      .returning({ id: syncRuns.id }),
  ]);
  return failed.length > 0;
}

/** True when the daily run for `scheduleKey` already finished (a redelivered message must not run again). */
export async function scheduledRunDone(w: WorkspaceDb, configId: number, scheduleKey: string): Promise<boolean> {
  const row = await w.db
    .select({ id: syncRuns.id })
    .from(syncRuns)
    .where(
      and(
        eq(syncRuns.workspaceId, w.workspaceId),
        eq(syncRuns.configId, configId),
        eq(syncRuns.scheduleKey, scheduleKey),
        inArray(syncRuns.status, ["completed", "partial"]),
      ),
    )
    .get();
  return row !== undefined;
}

export async function getRun(w: WorkspaceDb, runId: number): Promise<SyncRunRow | undefined> {
  return w.db
    .select()
    .from(syncRuns)
    .where(and(eq(syncRuns.workspaceId, w.workspaceId), eq(syncRuns.id, runId)))
    .get();
}

export function serializeRun(row: SyncRunRow) {
  return {
    id: row.id,
    config_id: row.configId,
    trigger: row.trigger,
    status: row.status,
    dry_run: false,
    publish: row.publish,
    max_posts: row.maxPosts,
    source_kind: row.sourceKind,
    source_url: row.sourceUrl,
    discovered: row.discovered,
    created: row.created,
    updated: row.updated,
    unchanged: row.unchanged,
    queued: row.queued,
    failed: row.failed,
    started_at: row.startedAt,
    finished_at: row.finishedAt,
    error: row.error,
  };
}

export type RunRecordView = ReturnType<typeof serializeRun>;

/** The config's recorded runs, newest first, one page at a time. */
export async function listRuns(
  w: WorkspaceDb,
  configId: number,
  page: { limit: number; offset: number },
): Promise<{ data: RunRecordView[]; count: number }> {
  const where = and(eq(syncRuns.workspaceId, w.workspaceId), eq(syncRuns.configId, configId));
  const [rows, total] = await w.db.batch([
    w.db.select().from(syncRuns).where(where).orderBy(desc(syncRuns.id)).limit(page.limit).offset(page.offset),
    w.db.select({ n: count() }).from(syncRuns).where(where),
  ]);
  return { data: rows.map(serializeRun), count: total[0]?.n ?? 0 };
}

/** One recorded run of the config with the items it handled, in the order it handled them. */
export async function getRunWithItems(
  w: WorkspaceDb,
  configId: number,
  runId: number,
): Promise<{ run: RunRecordView; items: StoredRunItem[] } | undefined> {
  const [runs, items] = await w.db.batch([
    w.db
      .select()
      .from(syncRuns)
      .where(and(eq(syncRuns.workspaceId, w.workspaceId), eq(syncRuns.configId, configId), eq(syncRuns.id, runId))),
    w.db
      .select()
      .from(syncRunItems)
      .where(and(eq(syncRunItems.workspaceId, w.workspaceId), eq(syncRunItems.runId, runId)))
      .orderBy(asc(syncRunItems.position)),
  ]);
  const run = runs[0];
  if (!run) return undefined;
  return {
    run: serializeRun(run),
    items: items.map((item) => ({
      synced_post_id: item.syncedPostId,
      source_url: item.sourceUrl,
      title: item.title,
      action: item.action,
      state: item.state,
      warnings: item.warnings,
      error: item.error,
    })),
  };
}
