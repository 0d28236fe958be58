// Newly stored posts become `post.created` events (docs/alerts.md, "Events"): one per post at or above a webhook's
// min_priority, stored as pending deliveries and handed to the alerts queue. Ingestion only waits for
// these writes, never for a receiver.

import type { AlertDeliverMessage } from "../contracts/queue-messages";
import type { WorkspaceDb } from "../db/client";
import { nowIso } from "../db/client";
import {
  activeWebhookRows,
  failDeliveries,
  insertDeliveries,
  type NewDelivery,
  postViewsByForumIds,
} from "../db/webhooks";
import type { Env } from "../env";
import { messageOf } from "../lib/log";
import { type AlertEvent, escapeText, newEventId, type Priority, reaches } from "./events";

/** Queues.sendBatch takes at most 100 messages. */
const SEND_BATCH = 100;

/**
 * Announces the posts just stored for the first time (never call it for a re-seen or re-matched post).
 * Returns how many deliveries were queued.
 */
export async function alertNewPosts(env: Env, w: WorkspaceDb, forumIds: string[]): Promise<number> {
  if (forumIds.length === 0) return 0;
  const hooks = (await activeWebhookRows(w)).filter((h) => h.events.includes("post.created"));
  if (hooks.length === 0) return 0;
  const posts = await postViewsByForumIds(w, forumIds);
  const rows: NewDelivery[] = [];
  for (const post of posts) {
    const targets = hooks.filter((h) => reaches(post.priority as Priority | null, h.minPriority));
    if (targets.length === 0) continue;
    // One event per post: every webhook of the workspace gets the same event id.
    const event: AlertEvent = { id: newEventId(), type: "post.created", created_at: nowIso(), data: { post } };
    const payload = JSON.stringify(event);
    for (const hook of targets)
      rows.push({ webhookId: hook.id, eventId: event.id, type: event.type, postId: post.id, payload });
  }
  return queueDeliveries(env, w, await insertDeliveries(w, rows));
}

/** Hands stored deliveries to the alerts queue; returns how many were queued. */
export async function queueDeliveries(env: Env, w: WorkspaceDb, ids: number[]): Promise<number> {
  const messages: AlertDeliverMessage[] = ids.map((id) => ({
    type: "alert.deliver",
    workspace_id: w.workspaceId,
    delivery_id: id,
  }));
  let sent = 0;
  try {
    for (; sent < messages.length; sent += SEND_BATCH)
      await env.ALERT_QUEUE.sendBatch(messages.slice(sent, sent + SEND_BATCH).map((body) => ({ body })));
  } catch (err) {
    // Only a queue message makes an attempt: deliveries left without one fail now instead of staying pending.
    await failDeliveries(w, ids.slice(sent), `not sent: it could not be queued (${escapeText(messageOf(err))})`);
    throw err;
  }
  return messages.length;
}
