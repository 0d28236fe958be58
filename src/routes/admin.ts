// Operator API (/admin/v1, bearer ADMIN_TOKEN): workspaces and their API keys. Not part of /api/v1, its
// OpenAPI document or the tool protocol.
import { createRoute, z } from "@hono/zod-openapi";
import { recordAudit } from "../audit/events";
import { issueKey, MAX_TEMPORARY_KEY_SECONDS, MIN_TEMPORARY_KEY_SECONDS } from "../auth/issue-key";
import { forgetKeyId } from "../auth/key-cache";
import { integerParam } from "../contracts/params";
import { createWorkspace, getWorkspace, listKeys, listWorkspaces, revokeKey } from "../db/api-keys";
import { directoryDb, workspaceDb } from "../db/client";
import { requireAdmin } from "../http/auth-middleware";
import { createRouter, jsonBody, jsonResponse, noQuery } from "../http/openapi";
import { requireUtf8Body } from "../http/utf8-body";
import { notFound } from "../lib/domain-errors";
import { ADMIN_ACTOR, ROLES } from "../lib/role";
import { invitationPath, inviteMember } from "../people/members";

const WorkspaceSchema = z.object({ id: z.number().int(), name: z.string(), created_at: z.string() });
const KeySchema = z.object({
  id: z.number().int(),
  workspace_id: z.number().int(),
  name: z.string(),
  prefix: z.string(),
  scope: z.enum(["read", "read_write"]),
  role: z.enum(["owner", "admin", "member", "viewer"]),
  person_id: z.number().int().nullable(),
  expires_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  created_at: z.string(),
});

const workspaceIdParam = z.object({ workspace_id: integerParam(1) });

const serializeWorkspace = (w: { id: number; name: string; createdAt: string }) => ({
  id: w.id,
  name: w.name,
  created_at: w.createdAt,
});

export const adminRouter = createRouter();
adminRouter.use("*", requireAdmin);
adminRouter.use("*", requireUtf8Body);

adminRouter
  .openapi(
    createRoute({
      method: "post",
      path: "/workspaces",
      request: { query: noQuery, body: jsonBody(z.strictObject({ name: z.string().trim().min(1).max(200) })) },
      responses: { 201: jsonResponse(WorkspaceSchema, "The created workspace") },
    }),
    async (c) => c.json(serializeWorkspace(await createWorkspace(directoryDb(c.env), c.req.valid("json").name)), 201),
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/workspaces",
      request: { query: noQuery },
      responses: {
        200: jsonResponse(z.object({ data: z.array(WorkspaceSchema), count: z.number() }), "All workspaces"),
      },
    }),
    async (c) => {
      const data = (await listWorkspaces(directoryDb(c.env))).map(serializeWorkspace);
      return c.json({ data, count: data.length }, 200);
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/workspaces/{workspace_id}/keys",
      request: {
        query: noQuery,
        params: workspaceIdParam,
        body: jsonBody(
          z.strictObject({
            name: z.string().trim().min(1).max(200),
            scope: z.enum(["read", "read_write"]),
            /** A temporary key: expires this many seconds from now and is deleted by the hourly cron. */
            expires_in_seconds: z
              .number()
              .int()
              .min(MIN_TEMPORARY_KEY_SECONDS)
              .max(MAX_TEMPORARY_KEY_SECONDS)
              .optional(),
          }),
        ),
      },
      responses: {
        201: jsonResponse(KeySchema.extend({ key: z.string() }), "The key; `key` is shown only here, once"),
      },
    }),
    async (c) => {
      const { workspace_id } = c.req.valid("param");
      const { key, record } = await issueKey(directoryDb(c.env), workspace_id, c.req.valid("json"));
      await recordAudit(workspaceDb(c.env, workspace_id), {
        actor: ADMIN_ACTOR,
        action: "key.created",
        target: { type: "key", id: record.id },
        details: { name: record.name, prefix: record.prefix, scope: record.scope, role: record.role },
      });
      return c.json({ ...record, key }, 201);
    },
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/workspaces/{workspace_id}/keys",
      request: { query: noQuery, params: workspaceIdParam },
      responses: {
        200: jsonResponse(
          z.object({ data: z.array(KeySchema), count: z.number() }),
          "The workspace's keys (no secrets)",
        ),
      },
    }),
    async (c) => {
      const db = directoryDb(c.env);
      const { workspace_id } = c.req.valid("param");
      if (!(await getWorkspace(db, workspace_id))) throw notFound("workspace");
      const data = await listKeys(db, workspace_id);
      return c.json({ data, count: data.length }, 200);
    },
  )
  .openapi(
    createRoute({
      method: "delete",
      path: "/workspaces/{workspace_id}/keys/{key_id}",
      request: { query: noQuery, params: workspaceIdParam.extend({ key_id: integerParam(1) }) },
      responses: { 200: jsonResponse(KeySchema, "The revoked key") },
    }),
    async (c) => {
      const { workspace_id, key_id } = c.req.valid("param");
      const key = await revokeKey(directoryDb(c.env), workspace_id, key_id);
      if (!key) throw notFound("key");
      forgetKeyId(key.id);
      await recordAudit(workspaceDb(c.env, workspace_id), {
        actor: ADMIN_ACTOR,
        action: "key.revoked",
        target: { type: "key", id: key.id },
        details: { name: key.name, prefix: key.prefix },
      });
      return c.json(key, 200);
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/workspaces/{workspace_id}/invitations",
      request: {
        query: noQuery,
        params: workspaceIdParam,
        body: jsonBody(z.strictObject({ email: z.email().max(320), role: z.enum(ROLES) })),
      },
      responses: {
        201: jsonResponse(
          z.object({
            invitation: z.object({
              id: z.number().int(),
              email: z.string(),
              role: z.enum(ROLES),
              expires_at: z.string(),
            }),
            url: z.string(),
          }),
          "The invitation and its single-use link (7 days), shown only here",
        ),
      },
    }),
    async (c) => {
      const { workspace_id } = c.req.valid("param");
      const dir = directoryDb(c.env);
      if (!(await getWorkspace(dir, workspace_id))) throw notFound("workspace");
      const { invitation, token } = await inviteMember(
        dir,
        workspaceDb(c.env, workspace_id),
        { role: "owner", actor: ADMIN_ACTOR },
        c.req.valid("json"),
      );
      return c.json({ invitation, url: new URL(invitationPath(token), c.req.url).toString() }, 201);
    },
  );
