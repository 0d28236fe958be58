// What an alert says and when it is sent again: the event bodies of docs/alerts.md ("Events"), which priorities reach
// which webhook, the retry schedule and how a receiver's answer is kept. Pure: no bindings.
import type { CommentView } from "../db/comments";
import type { PostView } from "../db/posts";
import { toHex } from "../lib/crypto";

export type Priority = "high" | "medium" | "low";
export type WebhookFormat = "json" | "slack";

export type AlertEvent =
  | { id: string; type: "post.created"; created_at: string; data: { post: PostView } }
  | { id: string; type: "comment.created"; created_at: string; data: { comment: CommentView } }
  | { id: string; type: "webhook.test"; created_at: string; data: { webhook_id: number } };

export const newEventId = () => `evt_${toHex(crypto.getRandomValues(new Uint8Array(12)))}`;

const RANK: Record<Priority, number> = { high: 3, medium: 2, low: 1 };

/** A post reaches a webhook when its priority is at or above the webhook's `min_priority`; no priority never does. */
export const reaches = (priority: Priority | null, minPriority: Priority) =>
  priority !== null && RANK[priority] >= RANK[minPriority];

/** Seconds before attempt `n + 1` after `n` failed attempts, before jitter: 30 s doubling, at most 4 h. */
export const BASE_RETRY_SECONDS = 30;
export const MAX_RETRY_SECONDS = 4 * 3600;
/**
 * Retries after the first attempt; wrangler.toml's `max_retries` of the alerts queue is the same number,
 * so the queue itself dead-letters the message after the last one. The delays add up to about 24 h:
 * 30 s, 1, 2, 4, 8, 16, 32 min, 1 h 4 min, 2 h 8 min, then 4 h five times (≈ 24.3 h in all).
 */
export const MAX_RETRIES = 14;

/**
 * The delay before the next attempt after `attempts` failed ones: `base`·2^(attempts−1), at most 4 h, with
 * up to ±10 % jitter so a receiver that comes back is not hit by every delivery at the same second.
 * Queues take whole seconds.
 */
export function retryDelaySeconds(attempts: number, base = BASE_RETRY_SECONDS, random = Math.random): number {
  const plain = Math.min(MAX_RETRY_SECONDS, base * 2 ** Math.max(0, attempts - 1));
  return Math.max(0, Math.round(plain * (0.9 + 0.2 * random())));
}

/** A receiver's answer is kept as its first 1 KB, escaped: it is shown in the API, never run or rendered. */
export const ANSWER_LIMIT_BYTES = 1024;

export function excerptOfAnswer(bytes: Uint8Array): string {
  const text = new TextDecoder().decode(bytes.subarray(0, ANSWER_LIMIT_BYTES)).replace(/\uFFFD+$/, "");
  return escapeText(text) + (bytes.byteLength > ANSWER_LIMIT_BYTES ? "…" : "");
}

/** HTML-escapes and turns control characters (but tab and newline) into `\u` escapes. */
export function escapeText(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;")
    .replace(/[^\t\n\P{Cc}]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
