// Visibility checks of published posts (docs/publishing.md, "Visibility"): at each VISIBILITY_CHECKS_S delay
// after publishing, the post's state is read through /api/info as its persona and its permalink is opened in
// the workspace's browser as a logged-out visitor; the synced post keeps what was found, and anything but
// `live` sends one `synced_post.removed` event.
//
// Scheduling is a chain of publish-queue messages, each carrying the moment it is due: a check schedules the
// next one when it is done. Queues delay a message by at most 12 hours, so a message that arrives before its
// moment is sent on again with the time left (a 24-hour check travels as 12 h + 12 h). A chain needs no state
// of its own and no alarm (the workspace coordinator's one alarm already serves the browser slot), survives
// a redeployment, and a check that fails is retried by the queue like any other task.

import { alertRemovedPost } from "../alerts/synced-post-alerts";
import type { VisibilityCheckMessage } from "../contracts/queue-messages";
import { getConfigRow } from "../db/blog-sync-configs";
import { getSyncedPost, type SyncedPostRow, serializeSyncedPost } from "../db/blog-sync-posts";
import type { WorkspaceDb } from "../db/client";
import { recordVisibility } from "../db/publishing";
import type { Env } from "../env";
import { log } from "../lib/log";
import { SYSTEM_ACTOR } from "../lib/role";
import { forumBase } from "../personas/browser-operation";
import type { VisibilityFinding } from "./visibility-state";

/** Queues accept delays of at most 12 hours. */
export const MAX_QUEUE_DELAY_S = 12 * 3600;

export const DEFAULT_VISIBILITY_CHECKS_S = [600, 86_400];

/**
 * The delays of VISIBILITY_CHECKS_S (seconds after publishing, comma-separated), ascending, each once; the
 * default when the setting is empty or holds anything but positive whole numbers (which is logged).
 */
export function visibilityDelays(env: Pick<Env, "VISIBILITY_CHECKS_S">): number[] {
  const raw = (env.VISIBILITY_CHECKS_S ?? "").trim();
  if (raw === "") return DEFAULT_VISIBILITY_CHECKS_S;
  const parts = raw.split(",").map((p) => p.trim());
  if (parts.some((p) => !/^[1-9]\d{0,7}$/.test(p))) {
    log("warn", "VISIBILITY_CHECKS_S is not a list of positive whole seconds; the default is used", { value: raw });
    return DEFAULT_VISIBILITY_CHECKS_S;
  }
  return [...new Set(parts.map(Number))].sort((a, b) => a - b);
}

/** The message of check `check` of a post published at `publishedAt`, or null past the last delay. */
export function checkMessage(
  env: Pick<Env, "VISIBILITY_CHECKS_S">,
  workspaceId: number,
  syncedPostId: number,
  publishedAt: string,
  check: number,
): VisibilityCheckMessage | null {
  const delay = visibilityDelays(env)[check];
  if (delay === undefined) return null;
  const dueAt = new Date(Date.parse(publishedAt) + delay * 1000).toISOString();
  return { type: "publish.visibility", workspace_id: workspaceId, synced_post_id: syncedPostId, check, due_at: dueAt };
}

/** Sends `message` to arrive at its due moment, or as close as the queue's 12-hour limit allows. */
export async function sendCheck(env: Pick<Env, "PUBLISH_QUEUE">, message: VisibilityCheckMessage): Promise<void> {
  const wait = Math.ceil((Date.parse(message.due_at) - Date.now()) / 1000);
  const delaySeconds = Math.min(MAX_QUEUE_DELAY_S, Math.max(0, wait));
  await env.PUBLISH_QUEUE.send(message, delaySeconds > 0 ? { delaySeconds } : undefined);
}

/** Schedules the first visibility check of a post just published. */
export async function scheduleVisibilityChecks(
  env: Pick<Env, "PUBLISH_QUEUE" | "VISIBILITY_CHECKS_S">,
  w: WorkspaceDb,
  syncedPostId: number,
  publishedAt = new Date().toISOString(),
): Promise<void> {
  const first = checkMessage(env, w.workspaceId, syncedPostId, publishedAt, 0);
  if (first) await sendCheck(env, first);
}

/** Schedules the check after `message`'s, if there is one. */
export async function scheduleNextCheck(
  env: Pick<Env, "PUBLISH_QUEUE" | "VISIBILITY_CHECKS_S">,
  message: VisibilityCheckMessage,
  publishedAt: string,
): Promise<boolean> {
  const next = checkMessage(env, message.workspace_id, message.synced_post_id, publishedAt, message.check + 1);
  if (next) await sendCheck(env, next);
  return next !== null;
}

/**
 * Stores the finding of check `check` on the post and, when it is no longer live (and was live or unchecked
 * before), records `synced_post.removed` in the audit trail (by the service, with the reason) in the same
 * write and announces it to the workspace's webhooks. Returns the number of deliveries queued, or null when
 * the check was done already (a repeated delivery) or the post is no longer published.
 */
export async function storeFinding(
  env: Env,
  w: WorkspaceDb,
  syncedPostId: number,
  found: VisibilityFinding,
  check: number,
): Promise<number | null> {
  const stored = await recordVisibility(w, syncedPostId, found, check, {
    actor: SYSTEM_ACTOR,
    action: "synced_post.removed",
    target: { type: "synced_post", id: syncedPostId },
    details: { visibility: found.visibility, reason: found.reason, check },
  });
  if (!stored) return null;
  if (found.visibility === "live") return 0;
  if (stored.before !== null && stored.before !== "live") return 0;
  const config = await getConfigRow(w, stored.row.configId);
  const { permalink } = stored.row;
  return alertRemovedPost(env, w, serializeSyncedPost(stored.row), {
    subreddit: config?.subreddit ?? "",
    url: permalink ? `${forumBase(env)}${permalink}` : null,
  });
}

/** The published post a check is about, or why there is nothing to check. */
export async function publishedPost(
  w: WorkspaceDb,
  syncedPostId: number,
): Promise<{ skip: string } | { post: SyncedPostRow; publishedAt: string }> {
  const post = await getSyncedPost(w, syncedPostId);
  if (!post) return { skip: "synced post no longer exists" };
  if (post.state !== "published" || !post.forumPostId || !post.permalink || !post.publishedAt)
    return { skip: `post is ${post.state}, not published: nothing to check` };
  return { post, publishedAt: post.publishedAt };
}
