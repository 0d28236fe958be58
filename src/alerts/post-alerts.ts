// Newly stored posts and comments become `post.created` and `comment.created` events (docs/alerts.md, "Events"):
// one per item at or above a webhook's min_priority, stored as pending deliveries and handed to the alerts queue. Ingestion only waits for
// these writes, never for a receiver.

import type { AlertDeliverMessage } from "../contracts/queue-messages";
import type { WorkspaceDb } from "../db/client";
import { nowIso } from "../db/client";
import { commentViewsByForumIds } from "../db/comments";
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
  const hooks = await activeWebhookRows(w);
  if (hooks.length === 0) return 0;
  const posts = await postViewsByForumIds(w, forumIds);
  return announce(
    env,
    w,
    hooks,
    posts.map((post) => ({
      priority: post.priority,
      event: { id: newEventId(), type: "post.created", created_at: nowIso(), data: { post } },
      link: { postId: post.id, commentId: null },
    })),
  );
}

/** As alertNewPosts, for comments just stored for the first time: one `comment.created` event each. */
export async function alertNewComments(env: Env, w: WorkspaceDb, forumIds: string[]): Promise<number> {
  if (forumIds.length === 0) return 0;
  const hooks = await activeWebhookRows(w);
  if (hooks.length === 0) return 0;
  const comments = await commentViewsByForumIds(w, forumIds);
  return announce(
    env,
    w,
    hooks,
    comments.map((comment) => ({
      priority: comment.priority,
      event: { id: newEventId(), type: "comment.created", created_at: nowIso(), data: { comment } },
      link: { postId: null, commentId: comment.id },
    })),
  );
}

interface Announcement {
  priority: string | null;
  event: AlertEvent;
  /** What the delivery names (unique per webhook, so nothing is announced twice). */
  link: { postId: number | null; commentId: number | null };
}

/** Stores a pending delivery per event and webhook it reaches, and queues them. */
async function announce(
  env: Env,
  w: WorkspaceDb,
  hooks: Awaited<ReturnType<typeof activeWebhookRows>>,
  items: Announcement[],
): Promise<number> {
  const rows: NewDelivery[] = [];
  for (const { priority, event, link } of items) {
    const targets = hooks.filter((h) => reaches(priority as Priority | null, h.minPriority));
    // One event per item: every webhook of the workspace gets the same event id.
    const payload = JSON.stringify(event);
    for (const hook of targets)
      rows.push({ webhookId: hook.id, eventId: event.id, type: event.type, ...link, payload });
  }
  const ids = await insertDeliveries(w, rows);
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
