// Records of real sync runs (dry runs leave none).
import { and, desc, eq, inArray } from "drizzle-orm";
import { nowIso, type WorkspaceDb } from "./client";
import { syncConfigs, syncRuns } from "./schema";

export type SyncRunRow = typeof syncRuns.$inferSelect;
export type RunStatus = SyncRunRow["status"];
export type FinalRunStatus = Exclude<RunStatus, "running">;

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

/**
 * Closes a run and records it on its config in one batch: `last_run_at` always, `last_error` cleared by a
 * clean run, set by a failed or partial one, left as it was by an aborted one.
 */
export async function finishRun(w: WorkspaceDb, runId: number, configId: number, outcome: RunOutcome): Promise<void> {
  const lastError =
    outcome.status === "aborted" ? {} : { lastError: outcome.status === "completed" ? null : outcome.error };
  await w.db.batch([
    w.db
      .update(syncRuns)
      .set(outcome)
      .where(and(eq(syncRuns.workspaceId, w.workspaceId), eq(syncRuns.id, runId))),
    w.db
      .update(syncConfigs)
      .set({ lastRunAt: outcome.finishedAt, ...lastError })
      .where(and(eq(syncConfigs.workspaceId, w.workspaceId), eq(syncConfigs.id, configId))),
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

/** The config's most recent runs, newest first (the console's sync page). */
export async function listRecentRuns(w: WorkspaceDb, configId: number, limit = 10): Promise<SyncRunRow[]> {
  return w.db
    .select()
    .from(syncRuns)
    .where(and(eq(syncRuns.workspaceId, w.workspaceId), eq(syncRuns.configId, configId)))
    .orderBy(desc(syncRuns.startedAt), desc(syncRuns.id))
    .limit(limit)
    .all();
}
