// Webhooks of a workspace (docs/alerts.md): creating one (its URL checked as docs/security.md says, its signing secret
// sealed under SESSION_KEY and shown once), listing, deleting, and the test delivery.
import type { WorkspaceDb } from "../db/client";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "../db/schema";
import {
  type DeliveryView,
  deleteWebhook,
  getWebhookRow,
  insertWebhook,
  listWebhookRows,
  serializeWebhook,
  type WebhookView,
} from "../db/webhooks";
import type { Env } from "../env";
import { invalidState, notFound } from "../lib/domain-errors";
import { SessionKeyError, sealSession } from "../lib/sealing";
import { deliverTestEvent, testableWebhook } from "./deliver";
import type { Priority, WebhookFormat } from "./events";
import { checkWebhookUrl, secretOwner } from "./rules";
import { newSigningSecret } from "./signing";

export interface WebhookInput {
  url: string;
  format?: WebhookFormat;
  min_priority?: Priority;
  events?: WebhookEventType[];
}

/** Creates a webhook; the answer carries the signing secret, the only time it is shown. */
export async function createWebhook(
  env: Env,
  w: WorkspaceDb,
  input: WebhookInput,
): Promise<WebhookView & { secret: string }> {
  await checkWebhookUrl(env, input.url);
  const secret = newSigningSecret();
  let secretSealed: string;
  try {
    secretSealed = await sealSession(env.SESSION_KEY, secretOwner(w.workspaceId), secret);
  } catch (err) {
    if (err instanceof SessionKeyError) throw invalidState(`the signing secret cannot be stored: ${err.message}`);
    throw err;
  }
  const row = await insertWebhook(w, {
    url: input.url,
    format: input.format ?? "json",
    minPriority: input.min_priority ?? "high",
    // In the documented order, each once.
    events: WEBHOOK_EVENT_TYPES.filter((t) => !input.events || input.events.includes(t)),
    secretSealed,
  });
  return { ...serializeWebhook(row), secret };
}

export async function listWebhooks(w: WorkspaceDb): Promise<WebhookView[]> {
  return (await listWebhookRows(w)).map(serializeWebhook);
}

export async function removeWebhook(w: WorkspaceDb, id: number): Promise<void> {
  if (!(await deleteWebhook(w, id))) throw notFound("webhook");
}

/** Sends one signed `webhook.test` delivery now (logged, never retried) and returns it. */
export async function testWebhook(env: Env, w: WorkspaceDb, id: number): Promise<DeliveryView> {
  return deliverTestEvent(env, w, await testableWebhook(w, id));
}

/** The webhook must exist in the workspace (the deliveries listing). */
export async function requireWebhook(w: WorkspaceDb, id: number): Promise<void> {
  if (!(await getWebhookRow(w, id))) throw notFound("webhook");
}
