// What happens to a message its queue gave up on (after max_retries it lands in the queue's dead-letter
// queue): the failure becomes visible where a person looks, instead of vanishing.

import type { PublishPostMessage, SyncRunMessage } from "../contracts/queue-messages";
import { getConfigRow, recordConfigError } from "../db/blog-sync-configs";
import { transitionSyncedPost } from "../db/blog-sync-posts";
import { workspaceDb } from "../db/client";
import type { Env } from "../env";
import type { Verdict } from "./blog-sync-consumers";

export async function consumeDeadLetter(
  message: SyncRunMessage | PublishPostMessage,
  attempts: number,
  env: Env,
): Promise<Verdict> {
  const w = workspaceDb(env, message.workspace_id);
  if (message.type === "publish.post") {
    // Only a post still waiting is failed; one that moved on meanwhile (draft, published) is left alone.
    const failed = await transitionSyncedPost(
      w,
      message.synced_post_id,
      "queued",
      "failed",
      "publishing was given up after every retry",
    );
    return {
      outcome: "ack",
      note: failed
        ? "publish task dead-lettered: post marked failed"
        : "publish task dead-lettered: post no longer queued",
    };
  }
  const config = await getConfigRow(w, message.config_id);
  if (!config) return { outcome: "ack", note: "sync run dead-lettered: config no longer exists" };
  const last = config.lastError ? `; last failure: ${config.lastError}` : "";
  await recordConfigError(
    w,
    config.id,
    `the daily run of ${message.schedule_key} was given up after every retry${last}`,
  );
  return { outcome: "ack", note: `sync run dead-lettered after ${attempts} deliveries: recorded as last_error` };
}
