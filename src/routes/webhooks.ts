import { z } from "@hono/zod-openapi";
import { createWebhook, listWebhooks, removeWebhook, requireWebhook, testWebhook } from "../alerts/webhooks";
import { recordAudit } from "../audit/events";
import { idParam, integerParam, listEnvelope, pageEnvelope } from "../contracts/params";
import { WEBHOOK_EVENT_TYPES } from "../db/schema";
import { listDeliveries } from "../db/webhooks";
import { callerDb } from "../http/context";
import { apiRoute, createRouter, jsonBody, jsonResponse, nextOffset, noFieldsBody } from "../http/openapi";

const TAG = "Alerts";
const priority = z.enum(["high", "medium", "low"]);
const format = z.enum(["json", "slack"]);
const eventTypes = z.array(z.enum(WEBHOOK_EVENT_TYPES)).openapi({
  description:
    "The events it receives: `post.created` (at or above min_priority), `comment.created` (at or above min_priority), `synced_post.removed` (whatever the priority)",
});

export const WebhookSchema = z
  .object({
    id: z.number().int(),
    url: z.string(),
    format: format.openapi({ description: "`json`: the signed event; `slack`: Slack's incoming-webhook body" }),
    min_priority: priority.openapi({ description: "Posts at or above this priority are announced" }),
    active: z.boolean().openapi({ description: "false once a receiver answered 410 Gone" }),
    disabled_reason: z.string().nullable(),
    events: eventTypes,
    created_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("Webhook");

const CreatedWebhook = WebhookSchema.extend({
  secret: z.string().openapi({
    description:
      "Signing secret (`whsec_...`): shown only in this answer. Verify `threadwatch-signature` with it (docs/alerts.md)",
  }),
}).openapi("CreatedWebhook");

const WebhookCreate = z
  .strictObject({
    url: z
      .url({ protocol: /^https?$/ })
      .max(2000)
      .openapi({
        description:
          "Receiver URL: https, a public address (no private, loopback, link-local or metadata hosts); redirects are not followed",
      }),
    format: format.optional().openapi({ default: "json" }),
    min_priority: priority.optional().openapi({ default: "high" }),
    events: z
      .array(z.enum(WEBHOOK_EVENT_TYPES))
      .min(1)
      .optional()
      .openapi({
        description: "The events it receives, at least one (a repeated one counts once); default all three",
        default: [...WEBHOOK_EVENT_TYPES],
      }),
  })
  .openapi("WebhookCreate");

export const DeliverySchema = z
  .object({
    id: z.number().int(),
    event_id: z.string().openapi({ description: "`evt_...`, the same on every attempt: receivers de-duplicate on it" }),
    type: z.enum(["post.created", "comment.created", "synced_post.removed", "webhook.test"]),
    status: z.enum(["pending", "delivered", "failed"]),
    attempts: z.number().int(),
    last_status_code: z.number().int().nullable(),
    last_error: z
      .string()
      .nullable()
      .openapi({ description: "The receiver's answer (its first 1 KB, escaped) or what went wrong" }),
    created_at: z.string().openapi({ format: "date-time" }),
    last_attempt_at: z.string().nullable().openapi({ format: "date-time" }),
    delivered_at: z.string().nullable().openapi({ format: "date-time" }),
  })
  .openapi("WebhookDelivery");

const DeliveriesQuery = z.strictObject({
  limit: integerParam(1, 500).optional().openapi({ default: 100, description: "Page size, 1..500, default 100" }),
  offset: integerParam(0).optional().openapi({ default: 0, description: "Rows to skip, default 0" }),
});

export const webhooksRouter = createRouter()
  .openapi(
    apiRoute({
      method: "post",
      path: "/actions/webhooks",
      tags: [TAG],
      summary:
        "Create a webhook that hears about the events it lists (default all), posts at or above min_priority (the secret is shown once)",
      scope: "read_write",
      conflict: "No SESSION_KEY is set, so the signing secret cannot be stored (`invalid_state`)",
      request: { body: jsonBody(WebhookCreate) },
      responses: { 201: jsonResponse(CreatedWebhook, "The webhook and its signing secret") },
    }),
    async (c) => {
      const webhook = await createWebhook(c.env, callerDb(c), c.req.valid("json"));
      await recordAudit(callerDb(c), {
        actor: c.get("auth").actor,
        action: "webhook.created",
        target: { type: "webhook", id: webhook.id },
        details: { url: webhook.url, format: webhook.format, min_priority: webhook.min_priority },
      });
      return c.json(webhook, 201);
    },
  )
  .openapi(
    apiRoute({
      method: "get",
      path: "/actions/webhooks",
      tags: [TAG],
      summary: "List the workspace's webhooks",
      scope: "read",
      responses: { 200: jsonResponse(listEnvelope(WebhookSchema, "WebhookList"), "All webhooks") },
    }),
    async (c) => {
      const data = await listWebhooks(callerDb(c));
      return c.json({ data, count: data.length }, 200);
    },
  )
  .openapi(
    apiRoute({
      method: "delete",
      path: "/actions/webhooks/{id}",
      tags: [TAG],
      summary: "Delete a webhook; its pending deliveries are dropped",
      scope: "read_write",
      request: { params: idParam() },
      responses: { 204: { description: "Deleted" } },
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      await removeWebhook(callerDb(c), id);
      await recordAudit(callerDb(c), {
        actor: c.get("auth").actor,
        action: "webhook.deleted",
        target: { type: "webhook", id },
      });
      return c.body(null, 204);
    },
  )
  .openapi(
    apiRoute({
      method: "post",
      path: "/actions/webhooks/{id}/test",
      tags: [TAG],
      summary: "Send one signed webhook.test delivery now (logged, not retried) and return it",
      scope: "read_write",
      conflict: "The webhook is disabled (`invalid_state`)",
      request: { params: idParam(), body: noFieldsBody("WebhookTestRequest") },
      responses: { 200: jsonResponse(DeliverySchema, "The test delivery after its one attempt") },
    }),
    async (c) => c.json(await testWebhook(c.env, callerDb(c), c.req.valid("param").id), 200),
  )
  .openapi(
    apiRoute({
      method: "get",
      path: "/actions/webhooks/{id}/deliveries",
      tags: [TAG],
      summary: "List a webhook's deliveries, newest first, paged",
      scope: "read",
      request: { params: idParam(), query: DeliveriesQuery },
      responses: {
        200: jsonResponse(pageEnvelope(DeliverySchema, "WebhookDeliveryList"), "One page of deliveries"),
      },
    }),
    async (c) => {
      const w = callerDb(c);
      const { id } = c.req.valid("param");
      const { limit = 100, offset = 0 } = c.req.valid("query");
      await requireWebhook(w, id);
      const page = await listDeliveries(w, id, limit, offset);
      return c.json({ ...page, next_offset: nextOffset(offset, page.data.length, page.count) }, 200);
    },
  );
