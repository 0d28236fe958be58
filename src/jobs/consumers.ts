// What each queue message does. Every consumer is safe under repeated delivery: it re-reads the current
// state and does nothing when the work is already done.

import { runSync } from "../blog-sync/run-sync";
import { getConfigRow } from "../db/blog-sync-configs";
import { getSyncedPost, transitionSyncedPost } from "../db/blog-sync-posts";
import { scheduledRunDone } from "../db/blog-sync-runs";
import { workspaceDb } from "../db/client";
import type { Env } from "../env";
import { isDomainError } from "../lib/domain-errors";
import type { PublishPostMessage, SyncRunMessage } from "./messages";

export type Verdict =
  | { outcome: "ack"; note: string }
  /** `delaySeconds` undefined: the caller's exponential backoff. */
  | { outcome: "retry"; note: string; delaySeconds?: number };

const ack = (note: string): Verdict => ({ outcome: "ack", note });
const retry = (note: string, delaySeconds?: number): Verdict => ({ outcome: "retry", note, delaySeconds });

/** How long a daily run waits when a run of the same config (usually a manual one) is active. */
const BUSY_RETRY_SECONDS = 300;

/** The daily run of one config. A failed or aborted run is retried with backoff, then dead-lettered. */
export async function consumeSyncRun(message: SyncRunMessage, env: Env): Promise<Verdict> {
  const w = workspaceDb(env, message.workspace_id);
  const config = await getConfigRow(w, message.config_id);
  if (!config) return ack("config no longer exists");
  if (!config.active) return ack("config is not active");
  if (await scheduledRunDone(w, config.id, message.schedule_key)) return ack("this day's run already finished");
  try {
    const { run } = await runSync(env, w, config.id, {
      dryRun: false,
      publish: true,
      trigger: "schedule",
      scheduleKey: message.schedule_key,
    });
    if (run.status === "failed" || run.status === "aborted") return retry(`run ${run.id} ${run.status}: ${run.error}`);
    return ack(`run ${run.id} ${run.status}`);
  } catch (err) {
    if (isDomainError(err, "run_in_progress")) return retry("another run of the config is active", BUSY_RETRY_SECONDS);
    throw err;
  }
}

/**
 * A publish task (docs/blog-sync.md, "Background work"): when the config's fingerprint is no longer the one the task carries,
 * the post goes back to `draft` and the task is skipped. A post that is not approved stays `queued`.
 * Submission itself (approved posts) arrives with the publishing issue; until then an approved post also
 * stays `queued` and the task is acknowledged.
 */
export async function consumePublishPost(message: PublishPostMessage, env: Env): Promise<Verdict> {
  const w = workspaceDb(env, message.workspace_id);
  const post = await getSyncedPost(w, message.synced_post_id);
  if (!post || post.configId !== message.config_id) return ack("synced post no longer exists");
  if (post.state !== "queued") return ack(`post is ${post.state}, not queued: nothing to do`);
  const config = await getConfigRow(w, message.config_id);
  if (!config || config.fingerprint !== message.fingerprint) {
    const moved = await transitionSyncedPost(w, post.id, "queued", "draft");
    return ack(
      moved ? "config changed since the post was queued: back to draft, task skipped" : "post left the queue meanwhile",
    );
  }
  if (!post.approvedAt) return ack("post is not approved: stays queued, nothing submitted");
  return ack("post is approved, but submission is not available yet: stays queued");
}
