// The audit trail (docs/api.md, "Audit events"): read only. No route, tool or command changes or deletes an
// event. Readable by read_write keys with an admin or owner ceiling (the roles table), and as a tool.
import { z } from "@hono/zod-openapi";
import { AUDIT_ACTIONS, listAuditEvents } from "../audit/events";
import { integerParam, pageEnvelope } from "../contracts/params";
import { callerDb } from "../http/context";
import { apiRoute, createRouter, jsonResponse, nextOffset } from "../http/openapi";

const TAG = "Audit";
const actorType = z.enum(["person", "key", "admin", "system"]);

export const AuditEventSchema = z
  .object({
    id: z.number().int(),
    at: z.string().openapi({ format: "date-time" }),
    actor: z.object({
      type: actorType,
      id: z.string().nullable().openapi({ description: "The person's or key's id; null for admin and system" }),
      name: z.string().openapi({ description: "The person's name or the key's name, as it was then" }),
    }),
    action: z.enum(AUDIT_ACTIONS),
    target: z.object({ type: z.string(), id: z.string().nullable() }),
    details: z
      .record(z.string(), z.unknown())
      .openapi({ type: "object", additionalProperties: true, description: "What the action changed, by name" }),
  })
  .openapi("AuditEvent");

export const AuditQuery = z.strictObject({
  action: z.enum(AUDIT_ACTIONS).optional(),
  actor_type: actorType.optional(),
  actor_id: z.string().min(1).max(40).optional(),
  since: z.iso.datetime().optional().openapi({ description: "Only events at or after this time (ISO 8601, UTC)" }),
  limit: integerParam(1, 100).optional().openapi({ default: 25, description: "Page size, 1..100, default 25" }),
  offset: integerParam(0, 1_000_000).optional().openapi({ default: 0, description: "Events to skip, default 0" }),
});

export const auditRouter = createRouter().openapi(
  apiRoute({
    method: "get",
    path: "/actions/audit-events",
    tags: [TAG],
    summary: "The audit trail: who did what, newest first, paged (read_write keys with an admin or owner ceiling)",
    scope: "read_write",
    request: { query: AuditQuery },
    responses: { 200: jsonResponse(pageEnvelope(AuditEventSchema, "AuditEventList"), "One page of events") },
  }),
  async (c) => {
    const q = c.req.valid("query");
    const limit = q.limit ?? 25;
    const offset = q.offset ?? 0;
    const page = await listAuditEvents(
      callerDb(c),
      { action: q.action, actorType: q.actor_type, actorId: q.actor_id, since: q.since },
      { limit, offset },
    );
    return c.json({ ...page, next_offset: nextOffset(offset, page.data.length, page.count) }, 200);
  },
);
