// The alerts queue (docs/alerts.md): one attempt per message; a retryable failure sends the message again after the
// growing delay of src/alerts/events.ts, and after the queue's last retry the dead-letter queue marks the
// delivery failed. Safe under repeated delivery: only a pending delivery is attempted.
import { deliverQueued } from "../alerts/deliver";
import { BASE_RETRY_SECONDS, retryDelaySeconds } from "../alerts/events";
import type { AlertDeliverMessage, QueueMessage } from "../contracts/queue-messages";
import { workspaceDb } from "../db/client";
import { failDelivery } from "../db/webhooks";
import type { Env } from "../env";
import type { Verdict } from "./blog-sync-consumers";

export const isAlertMessage = (m: QueueMessage): m is AlertDeliverMessage => m.type === "alert.deliver";

/** The first retry's delay: 30 s, or ALERT_RETRY_BASE_SECONDS (tests shorten it). */
export function retryBaseSeconds(env: Env): number {
  const configured = Number.parseInt(env.ALERT_RETRY_BASE_SECONDS ?? "", 10);
  return Number.isFinite(configured) && configured >= 0 ? configured : BASE_RETRY_SECONDS;
}

export async function consumeAlertDelivery(message: AlertDeliverMessage, env: Env): Promise<Verdict> {
  const result = await deliverQueued(env, workspaceDb(env, message.workspace_id), message.delivery_id);
  if (result.kind === "done") return { outcome: "ack", note: result.note };
  return {
    outcome: "retry",
    note: result.note,
    delaySeconds: retryDelaySeconds(result.attempts, retryBaseSeconds(env)),
  };
}

/** Every retry failed (about 24 h): the delivery is marked failed, its last error kept. */
export async function consumeAlertDeadLetter(
  message: AlertDeliverMessage,
  attempts: number,
  env: Env,
): Promise<Verdict> {
  const failed = await failDelivery(workspaceDb(env, message.workspace_id), message.delivery_id);
  return {
    outcome: "ack",
    note: failed
      ? `alert delivery dead-lettered (every retry failed; ${attempts} dead-letter deliveries): marked failed`
      : "alert delivery dead-lettered: it was no longer pending",
  };
}
