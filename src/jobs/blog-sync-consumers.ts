// What each queue message does. Every consumer is safe under repeated delivery: it re-reads the current
// state and does nothing when the work is already done.

import { runSync } from "../blog-sync/run-sync";
import type { PublishPostMessage, SyncRunMessage } from "../contracts/queue-messages";
import { getConfigRow } from "../db/blog-sync-configs";
import { getSyncedPost } from "../db/blog-sync-posts";
import { scheduledRunDone } from "../db/blog-sync-runs";
import { workspaceDb } from "../db/client";
import type { Env } from "../env";
import { isDomainError } from "../lib/domain-errors";
import { publishQueuedPost } from "../publishing/publish-post";

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
 * A publish task (docs/blog-sync.md, "Background work"): publishQueuedPost sends the post back to `draft` and
 * skips the task when the config's fingerprint is no longer the one the task carries (before the wait for the
 * browser and again in its turn); otherwise it checks every gate (docs/publishing.md, "Gates") and submits at most
 * once. A RATELIMIT or a busy browser sends the task again later.
 */
export async function consumePublishPost(message: PublishPostMessage, env: Env): Promise<Verdict> {
  const w = workspaceDb(env, message.workspace_id);
  const post = await getSyncedPost(w, message.synced_post_id);
  if (!post || post.configId !== message.config_id) return ack("synced post no longer exists");
  const outcome = await publishQueuedPost(env, w, post.id, message.fingerprint);
  if (outcome.kind === "done") return ack(outcome.note);
  if (outcome.kind === "retry") return retry(outcome.note);
  // Sent again as a new task: a rate limit is not a failed attempt counting towards the dead-letter queue.
  await env.PUBLISH_QUEUE.send(message, { delaySeconds: Math.min(MAX_QUEUE_DELAY_SECONDS, outcome.delaySeconds) });
  return ack(`${outcome.note}; task sent again with a ${outcome.delaySeconds} s delay`);
}

/** Queues accept delays of at most 12 hours. */
const MAX_QUEUE_DELAY_SECONDS = 12 * 3600;
