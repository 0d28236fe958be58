// One attempt of one delivery (docs/alerts.md): the body in the webhook's format, signed afresh, POSTed with
// a 10 s timeout to a URL checked again now (docs/security.md, "Fetching the open web"; redirects not
// followed), the attempt logged, and the delivery moved on: delivered, failed (410 also stops the webhook),
// or left pending for a retry.
import type { WorkspaceDb } from "../db/client";
import { nowIso } from "../db/client";
import {
  type AttemptRecord,
  type DeliveryRow,
  type DeliveryView,
  disableWebhook,
  failDelivery,
  getDeliveryRow,
  getWebhookRow,
  insertDeliveries,
  recordAttempt,
  serializeDelivery,
  unsentToDisabled,
  type WebhookRow,
} from "../db/webhooks";
import type { Env } from "../env";
import { invalidState, notFound } from "../lib/domain-errors";
import { messageOf } from "../lib/log";
import { openSession, SessionKeyError } from "../lib/sealing";
import { assertPublicHost } from "../outbound/address-policy";
import { FetchError } from "../outbound/fetch-error";
import { type AlertEvent, ANSWER_LIMIT_BYTES, escapeText, excerptOfAnswer, newEventId } from "./events";
import { allowPrivateWebhooks, secretOwner, webhookUrlProblem } from "./rules";
import { SIGNATURE_HEADER, signatureHeader } from "./signing";
import { slackBody } from "./slack";

export const DELIVERY_TIMEOUT_MS = 10_000;
export const DELIVERY_USER_AGENT = "threadwatch-webhooks/1.0 (+https://github.com/threadwatch/threadwatch)";

const timeoutOf = (env: Env) => {
  const configured = Number.parseInt(env.ALERT_TIMEOUT_MS ?? "", 10);
  return Number.isFinite(configured) && configured > 0 ? configured : DELIVERY_TIMEOUT_MS;
};

/** What became of an attempt: done (delivered or failed for good), or to be tried again. */
export type AttemptResult = { kind: "done"; note: string } | { kind: "retry"; note: string; attempts: number };

interface Answer {
  status: number;
  excerpt: string;
}

/** A problem before or instead of an answer; `retry` says whether trying again may help. */
class DeliveryFailure extends Error {
  constructor(
    message: string,
    readonly retry: boolean,
  ) {
    super(message);
  }
}

/** Reads at most the first KB of the answer (then stops reading), as escaped text. */
async function answerExcerpt(res: Response): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    while (total <= ANSWER_LIMIT_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      total += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return excerptOfAnswer(bytes);
}

async function post(env: Env, url: string, body: string, headers: Record<string, string>): Promise<Answer> {
  const allowPrivate = allowPrivateWebhooks(env);
  const problem = webhookUrlProblem(url, allowPrivate);
  if (problem) throw new DeliveryFailure(`the webhook URL is refused now: it ${problem}`, false);
  const timeoutMs = timeoutOf(env);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    await assertPublicHost(new URL(url), { allowPrivate }, controller.signal);
    const res = await fetch(url, { method: "POST", body, headers, redirect: "manual", signal: controller.signal });
    return { status: res.status, excerpt: await answerExcerpt(res) };
  } catch (err) {
    if (err instanceof FetchError && err.code === "blocked_address")
      throw new DeliveryFailure(`the webhook URL is refused now: ${err.message}`, false);
    if (controller.signal.aborted) throw new DeliveryFailure(`no answer within ${timeoutMs} ms`, true);
    throw new DeliveryFailure(`could not connect: ${escapeText(messageOf(err))}`, true);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Logs the attempt and moves the delivery on; false when the delivery is gone (its webhook was deleted while
 * the attempt was under way, so the log row has no delivery to belong to).
 */
async function logAttempt(w: WorkspaceDb, deliveryId: number, record: AttemptRecord): Promise<boolean> {
  try {
    await recordAttempt(w, deliveryId, record);
    return true;
  } catch (err) {
    if (await getDeliveryRow(w, deliveryId)) throw err;
    return false;
  }
}

const GONE: AttemptResult = { kind: "done", note: "delivery no longer exists (its webhook was deleted)" };

/** The request body of an event in the webhook's format. */
export function bodyFor(format: WebhookRow["format"], event: AlertEvent): string {
  return format === "slack" ? JSON.stringify(slackBody(event)) : JSON.stringify(event);
}

/**
 * Attempts the delivery once. `retryable` false (the test delivery) turns what would be retried into a
 * failure. Safe under repeated messages: only a pending delivery is attempted.
 */
export async function attemptDelivery(
  env: Env,
  w: WorkspaceDb,
  delivery: DeliveryRow,
  hook: WebhookRow,
  retryable: boolean,
): Promise<AttemptResult> {
  const attempt = delivery.attempts + 1;
  let secret: string;
  try {
    secret = await openSession(env.SESSION_KEY, secretOwner(w.workspaceId), hook.secretSealed);
  } catch (err) {
    if (!(err instanceof SessionKeyError)) throw err;
    const error = `the signing secret cannot be opened (${err.message.replace(/; upload the cookies again$/, "")}); delete the webhook and create it again`;
    const record = { attempt, outcome: "failed" as const, statusCode: null, durationMs: 0, error, at: nowIso() };
    return (await logAttempt(w, delivery.id, record)) ? { kind: "done", note: error } : GONE;
  }
  const event = JSON.parse(delivery.payload) as AlertEvent;
  const body = bodyFor(hook.format, event);
  const started = Date.now();
  const at = new Date(started).toISOString();
  const headers = {
    "content-type": "application/json",
    "user-agent": DELIVERY_USER_AGENT,
    "threadwatch-event-id": event.id,
    "threadwatch-event-type": event.type,
    [SIGNATURE_HEADER]: await signatureHeader(secret, body, Math.floor(started / 1000)),
  };
  let outcome: "delivered" | "retry" | "failed";
  let statusCode: number | null = null;
  let error: string | null = null;
  let gone = false;
  try {
    const answer = await post(env, hook.url, body, headers);
    statusCode = answer.status;
    if (answer.status >= 200 && answer.status < 300) outcome = "delivered";
    else {
      error = answer.excerpt || `HTTP ${answer.status}`;
      if (answer.status >= 500 || answer.status === 429) outcome = "retry";
      else {
        outcome = "failed";
        gone = answer.status === 410;
        if (answer.status >= 300 && answer.status < 400)
          error = `the receiver answered a redirect (${answer.status}); redirects are not followed. ${error}`;
      }
    }
  } catch (err) {
    if (!(err instanceof DeliveryFailure)) throw err;
    error = err.message;
    outcome = err.retry ? "retry" : "failed";
  }
  if (outcome === "retry" && !retryable) outcome = "failed";
  const durationMs = Date.now() - started;
  if (!(await logAttempt(w, delivery.id, { attempt, outcome, statusCode, durationMs, error, at }))) return GONE;
  if (gone)
    await disableWebhook(w, hook.id, `the receiver answered 410 Gone at ${at}; create the webhook again to resume`);
  const what = statusCode === null ? error : `HTTP ${statusCode}`;
  if (outcome === "retry") return { kind: "retry", note: `attempt ${attempt}: ${what}`, attempts: attempt };
  return { kind: "done", note: `attempt ${attempt} ${outcome}: ${what}${gone ? "; webhook disabled" : ""}` };
}

/** The queue consumer's step: the delivery and its webhook as they are now, then one attempt. */
export async function deliverQueued(env: Env, w: WorkspaceDb, deliveryId: number): Promise<AttemptResult> {
  const delivery = await getDeliveryRow(w, deliveryId);
  if (!delivery) return GONE;
  if (delivery.status !== "pending") return { kind: "done", note: `delivery is ${delivery.status} already` };
  const hook = await getWebhookRow(w, delivery.webhookId);
  if (!hook) return { kind: "done", note: "webhook no longer exists" };
  if (!hook.active) {
    await failDelivery(w, delivery.id, unsentToDisabled(hook.disabledReason));
    return { kind: "done", note: "webhook is disabled: delivery failed" };
  }
  return attemptDelivery(env, w, delivery, hook, true);
}

/** The webhook a test delivery goes to: it must exist (404) and be active (409 `invalid_state`). */
export async function testableWebhook(w: WorkspaceDb, id: number): Promise<WebhookRow> {
  const hook = await getWebhookRow(w, id);
  if (!hook) throw notFound("webhook");
  if (!hook.active) throw invalidState(`the webhook is disabled: ${hook.disabledReason ?? "no reason recorded"}`);
  return hook;
}

/** POST /actions/webhooks/:id/test: one `webhook.test` delivery now, logged, not retried. */
export async function deliverTestEvent(env: Env, w: WorkspaceDb, hook: WebhookRow): Promise<DeliveryView> {
  const event: AlertEvent = {
    id: newEventId(),
    type: "webhook.test",
    created_at: nowIso(),
    data: { webhook_id: hook.id },
  };
  const [id] = await insertDeliveries(w, [
    { webhookId: hook.id, eventId: event.id, type: event.type, postId: null, payload: JSON.stringify(event) },
  ]);
  const delivery = id === undefined ? undefined : await getDeliveryRow(w, id);
  if (!delivery) {
    // Not stored, or gone already: since `hook` was read, the webhook was disabled (a 410 to another delivery)
    // or deleted, which testableWebhook answers as a request made a moment later would find it (409, 404).
    await testableWebhook(w, hook.id);
    throw new Error("the test delivery was not stored");
  }
  await attemptDelivery(env, w, delivery, hook, false);
  const after = await getDeliveryRow(w, delivery.id);
  // Deleted while the receiver was being asked: the webhook is gone, as a request made a moment later finds.
  if (!after) throw notFound("webhook");
  return serializeDelivery(after);
}
