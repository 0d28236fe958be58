// The Worker's queue handler: every message is validated against the message union, handled on its own,
// and acknowledged or retried on its own with exponential backoff. After the consumer's max_retries
// (wrangler.toml) a retried message goes to that queue's dead-letter queue.

import { QueueMessage } from "../contracts/queue-messages";
import type { Env } from "../env";
import { log, messageOf } from "../lib/log";
import { consumeAlertDeadLetter, consumeAlertDelivery, isAlertMessage } from "./alert-consumers";
import { consumePublishPost, consumeSyncRun, type Verdict } from "./blog-sync-consumers";
import { consumeDeadLetter } from "./dead-letters";
import { consumeMonitorDeadLetter, consumeMonitorMessage, isMonitorMessage } from "./monitor-consumers";
import { consumeVisibilityCheck, consumeVisibilityDeadLetter } from "./visibility-consumers";

const BASE_DELAY_SECONDS = 30;
const MAX_DELAY_SECONDS = 3600;

/** 30 s, 2 min, 8 min, 32 min, then an hour: attempt n waits 30·4^(n-1) seconds. */
export const backoffSeconds = (attempts: number) =>
  Math.min(MAX_DELAY_SECONDS, BASE_DELAY_SECONDS * 4 ** Math.max(0, attempts - 1));

/** The alerts queue (its dead-letter queue is the same name with `-dlq`: wrangler.toml). */
const ALERT_QUEUE_NAME = "threadwatch-alerts";

/** Dead-letter queues are named after their queue with a `-dlq` suffix (wrangler.toml). */
export const isDeadLetterQueue = (queue: string) => queue.endsWith("-dlq");

/** What became of one message: acknowledged, or retried after `delaySeconds` (returned so tests assert it). */
export type QueueDecision =
  | { id: string; outcome: "ack"; note: string }
  | { id: string; outcome: "retry"; note: string; delaySeconds: number };

/** The consumer of each message type, and of its dead letter. */
async function consume(body: QueueMessage, attempts: number, env: Env, deadLetter: boolean): Promise<Verdict> {
  if (isAlertMessage(body))
    return deadLetter ? consumeAlertDeadLetter(body, attempts, env) : consumeAlertDelivery(body, env);
  if (isMonitorMessage(body))
    return deadLetter ? consumeMonitorDeadLetter(body, attempts) : consumeMonitorMessage(body, env);
  if (body.type === "publish.visibility")
    return deadLetter ? consumeVisibilityDeadLetter(body, env) : consumeVisibilityCheck(body, env);
  if (deadLetter) return consumeDeadLetter(body, attempts, env);
  return body.type === "sync.run" ? consumeSyncRun(body, env) : consumePublishPost(body, env);
}

async function handle(message: Message<unknown>, env: Env, deadLetter: boolean): Promise<QueueDecision> {
  const parsed = QueueMessage.safeParse(message.body);
  if (!parsed.success) {
    // Retrying cannot make a malformed message valid; it is logged (with its body) and dropped.
    log("error", "invalid queue message dropped", { id: message.id, body: message.body, issues: parsed.error.issues });
    message.ack();
    return { id: message.id, outcome: "ack", note: "invalid queue message dropped" };
  }
  const body = parsed.data;
  let verdict: Verdict;
  try {
    verdict = await consume(body, message.attempts, env, deadLetter);
  } catch (err) {
    verdict = { outcome: "retry", note: `unexpected error: ${messageOf(err)}` };
    log("error", "queue message failed", {
      id: message.id,
      type: body.type,
      attempts: message.attempts,
      error: verdict.note,
    });
  }
  if (verdict.outcome === "ack") {
    log("info", "queue message handled", { id: message.id, type: body.type, note: verdict.note });
    message.ack();
    return { id: message.id, outcome: "ack", note: verdict.note };
  }
  const delaySeconds = verdict.delaySeconds ?? backoffSeconds(message.attempts);
  log("warn", "queue message retried", {
    id: message.id,
    type: body.type,
    attempts: message.attempts,
    delaySeconds,
    note: verdict.note,
  });
  message.retry({ delaySeconds });
  return { id: message.id, outcome: "retry", note: verdict.note, delaySeconds };
}

/** Handles every message of the batch and returns what became of each, in order. */
export async function handleQueueBatch(batch: MessageBatch<unknown>, env: Env): Promise<QueueDecision[]> {
  // One at a time: sync runs are heavy, and a batch is at most max_batch_size (5) messages.
  const deadLetter = isDeadLetterQueue(batch.queue);
  // Alert deliveries are independent HTTP requests to receivers: all of the batch at once, so one slow
  // receiver does not hold up the others.
  if (batch.queue.startsWith(ALERT_QUEUE_NAME))
    return Promise.all(batch.messages.map((message) => handle(message, env, deadLetter)));
  const decisions: QueueDecision[] = [];
  for (const message of batch.messages) decisions.push(await handle(message, env, deadLetter));
  return decisions;
}
