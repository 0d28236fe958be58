// One sync run of a config: discovery → full-content extraction → rendering → write (docs/blog-sync.md). A
// dry run walks the same pipeline (walk-posts.ts) with a sink that writes nothing; a real run's sink asks
// the workspace coordinator before every write and queue message and stops at the first "the config
// changed". This file claims the config, walks, and records the run.
import { getConfigRow, type SyncConfigRow } from "../db/blog-sync-configs";
import { finishRun, insertRun, NO_COUNTS } from "../db/blog-sync-runs";
import { nowIso, type WorkspaceDb } from "../db/client";
import { coordinatorFor, type WorkspaceCoordinator } from "../durable/workspace-coordinator";
import type { Env } from "../env";
import { DomainError, notFound } from "../lib/domain-errors";
import { budgetedPolicy } from "./run-budget";
import { type RunFlags, type RunResult, respond } from "./run-summary";
import { PreviewSink, RealSink } from "./sinks";
import { type Tally, walk } from "./walk-posts";

export type { RunResult } from "./run-summary";

export interface RunOptions extends RunFlags {
  /** Defaults to the config's own max_posts. */
  maxPosts?: number;
  trigger: "api" | "schedule";
  scheduleKey?: string | null;
  /** The first claim's length (tests use short ones); the coordinator's answers renew it to RUN_LEASE_MS. */
  leaseMs?: number;
}

type Coordinator = DurableObjectStub<WorkspaceCoordinator>;

/** Runs a sync of config `configId` (404 when it is not in the workspace; 409 when a real run is active). */
export async function runSync(env: Env, w: WorkspaceDb, configId: number, options: RunOptions): Promise<RunResult> {
  const config = await getConfigRow(w, configId);
  if (!config) throw notFound("sync config");
  const startedAt = nowIso();
  const coordinator = coordinatorFor(env, w.workspaceId);
  if (options.dryRun) return preview(env, w, config, coordinator, options, startedAt);
  return realRun(env, w, config, coordinator, options);
}

/** A dry run: the whole pipeline, nothing written, no stored rows named. */
async function preview(
  env: Env,
  w: WorkspaceDb,
  config: SyncConfigRow,
  coordinator: Coordinator,
  options: RunOptions,
  startedAt: string,
): Promise<RunResult> {
  const configId = config.id;
  // One preview per config at a time (it writes nothing, but it fetches as much as a run).
  const claim = await coordinator.beginPreview({ configId, leaseMs: options.leaseMs });
  if (!claim.ok)
    throw new DomainError(
      "run_in_progress",
      `a dry run of sync config ${configId} is already active; retry when it ends`,
    );
  try {
    const maxPosts = options.maxPosts ?? config.maxPosts;
    const sink = new PreviewSink(coordinator, configId, claim.token);
    const policy = budgetedPolicy(env, coordinator, configId, claim.token, true);
    const tally = await walk({ policy, w, config, publish: options.publish, maxPosts, sink });
    // A dry run names no stored rows: no run id and no synced post ids (docs/blog-sync.md, "Runs"), also for
    // the posts it reports unchanged or skipped from what is stored.
    tally.items = tally.items.map((item) => ({ ...item, synced_post_id: null }));
    return respond(null, config, options, maxPosts, tally, sink.queued, startedAt, nowIso());
  } finally {
    await coordinator.endPreview(configId, claim.token);
  }
}

/**
 * Claims the config for a real run, at the revision the claim was granted for. `stale`: the config changed
 * between our read and the claim; it is read again (bounded: updates are rare).
 */
async function claimRun(
  w: WorkspaceDb,
  first: SyncConfigRow,
  coordinator: Coordinator,
  leaseMs: number | undefined,
): Promise<{ config: SyncConfigRow; token: string }> {
  const configId = first.id;
  let config = first;
  for (let attempt = 0; attempt < 3; attempt++) {
    const claim = await coordinator.beginRun({
      workspaceId: w.workspaceId,
      configId,
      revision: config.revision,
      fingerprint: config.fingerprint,
      leaseMs,
    });
    if (claim.ok) return { config, token: claim.token };
    if (claim.reason === "busy")
      throw new DomainError("run_in_progress", `a run of sync config ${configId} is already active`);
    const again = await getConfigRow(w, configId);
    if (!again) throw notFound("sync config");
    config = again;
  }
  throw new DomainError("run_in_progress", `sync config ${configId} is being changed; retry the run`);
}

/** A real run: claimed, recorded as started, walked with the real sink, and recorded as finished. */
async function realRun(
  env: Env,
  w: WorkspaceDb,
  first: SyncConfigRow,
  coordinator: Coordinator,
  options: RunOptions,
): Promise<RunResult> {
  const configId = first.id;
  const { config, token } = await claimRun(w, first, coordinator, options.leaseMs);
  const maxPosts = options.maxPosts ?? config.maxPosts;
  try {
    const run = await insertRun(w, {
      configId,
      trigger: options.trigger,
      scheduleKey: options.scheduleKey ?? null,
      publish: options.publish,
      maxPosts,
      fingerprint: config.fingerprint,
    });
    await coordinator.attachRun(configId, token, run.id);
    const sink = new RealSink(env, w, config, coordinator, token);
    let tally: Tally;
    try {
      const policy = budgetedPolicy(env, coordinator, configId, token, false);
      tally = await walk({ policy, w, config, publish: options.publish, maxPosts, sink });
    } catch (err) {
      // Our own failure (database, queue): record it without internals, then let the request answer 500.
      await finishRun(w, run.id, configId, {
        status: "failed",
        sourceKind: null,
        sourceUrl: null,
        ...NO_COUNTS,
        error: "the run stopped on an unexpected internal error",
        finishedAt: nowIso(),
      }).catch(() => undefined);
      throw err;
    }
    const result = respond(run.id, config, options, maxPosts, tally, sink.queued, run.startedAt, nowIso());
    await recordFinished(w, run.id, configId, result);
    return result;
  } finally {
    await coordinator.endRun(configId, token);
  }
}

/** Writes the finished run, its counts and its items, to the run history. */
async function recordFinished(w: WorkspaceDb, runId: number, configId: number, result: RunResult): Promise<void> {
  const { run } = result;
  const counts = {
    discovered: run.discovered,
    created: run.created,
    updated: run.updated,
    unchanged: run.unchanged,
    queued: run.queued,
    failed: run.failed,
  };
  const outcome = { status: run.status, sourceKind: run.source_kind, sourceUrl: run.source_url, error: run.error };
  await finishRun(w, runId, configId, { ...outcome, finishedAt: run.finished_at, ...counts }, result.items);
}
