// A published synced post that a logged-out visitor no longer sees becomes one `synced_post.removed` event
// (docs/alerts.md, "Events"), whatever the webhooks' min_priority, for every active webhook that lists the
// event. A post is announced at most once per webhook: the delivery names the synced post and a unique index
// keeps a second one out, also when two visibility checks of the post run at once.

import type { SyncedPostView } from "../db/blog-sync-posts";
import type { WorkspaceDb } from "../db/client";
import { nowIso } from "../db/client";
import { activeWebhookRows, insertDeliveries } from "../db/webhooks";
import type { Env } from "../env";
import { type AlertEvent, newEventId } from "./events";
import { queueDeliveries } from "./post-alerts";

/**
 * Announces a removed (spam-filtered, deleted) synced post, with its subreddit and its absolute address on the
 * forum's public site; returns how many deliveries were queued.
 */
export async function alertRemovedPost(
  env: Env,
  w: WorkspaceDb,
  post: SyncedPostView,
  where: { subreddit: string; url: string | null },
): Promise<number> {
  const hooks = (await activeWebhookRows(w)).filter((h) => h.events.includes("synced_post.removed"));
  if (hooks.length === 0) return 0;
  const event: AlertEvent = {
    id: newEventId(),
    type: "synced_post.removed",
    created_at: nowIso(),
    data: { synced_post: post, subreddit: where.subreddit, url: where.url },
  };
  const payload = JSON.stringify(event);
  const ids = await insertDeliveries(
    w,
    hooks.map((hook) => ({
      webhookId: hook.id,
      eventId: event.id,
      type: event.type,
      postId: null,
      syncedPostId: post.id,
      payload,
    })),
  );
  return queueDeliveries(env, w, ids);
}
