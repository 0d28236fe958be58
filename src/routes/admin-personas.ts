// Operator API for personas (/admin/v1, bearer ADMIN_TOKEN): list a workspace's personas and approve or
// revoke one ("approved for the customer", docs/publishing.md). Not part of /api/v1 or the tool protocol.
import { createRoute, z } from "@hono/zod-openapi";
import { recordAudit } from "../audit/events";
import { integerParam } from "../contracts/params";
import { getWorkspace } from "../db/api-keys";
import { directoryDb, workspaceDb } from "../db/client";
import { requireAdmin } from "../http/auth-middleware";
import { createRouter, jsonResponse, noFieldsBody, noQuery } from "../http/openapi";
import { notFound } from "../lib/domain-errors";
import { ADMIN_ACTOR } from "../lib/role";
import { listPersonas, setPersonaApproval } from "../personas/personas";
import { PersonaSchema } from "./personas";

const workspaceIdParam = z.object({ workspace_id: integerParam(1) });
const personaParams = workspaceIdParam.extend({ id: integerParam(1) });

async function requireWorkspace(env: { DB: D1Database }, id: number): Promise<void> {
  if (!(await getWorkspace(directoryDb(env), id))) throw notFound("workspace");
}

const approval = (approved: boolean) =>
  createRoute({
    method: "post",
    path: `/workspaces/{workspace_id}/personas/{id}/${approved ? "approve" : "revoke"}`,
    request: {
      query: noQuery,
      params: personaParams,
      body: noFieldsBody(approved ? "PersonaApproveRequest" : "PersonaRevokeRequest"),
    },
    responses: { 200: jsonResponse(PersonaSchema, "The persona") },
  });

export const adminPersonasRouter = createRouter();
adminPersonasRouter.use("*", requireAdmin);

adminPersonasRouter
  .openapi(
    createRoute({
      method: "get",
      path: "/workspaces/{workspace_id}/personas",
      request: { query: noQuery, params: workspaceIdParam },
      responses: {
        200: jsonResponse(z.object({ data: z.array(PersonaSchema), count: z.number() }), "The workspace's personas"),
      },
    }),
    async (c) => {
      const { workspace_id } = c.req.valid("param");
      await requireWorkspace(c.env, workspace_id);
      const data = await listPersonas(workspaceDb(c.env, workspace_id));
      return c.json({ data, count: data.length }, 200);
    },
  )
  .openapi(approval(true), async (c) => {
    const { workspace_id, id } = c.req.valid("param");
    await requireWorkspace(c.env, workspace_id);
    const w = workspaceDb(c.env, workspace_id);
    const persona = await setPersonaApproval(w, id, true);
    await recordAudit(w, {
      actor: ADMIN_ACTOR,
      action: "persona.approved",
      target: { type: "persona", id },
      details: { username: persona.username },
    });
    return c.json(persona, 200);
  })
  .openapi(approval(false), async (c) => {
    const { workspace_id, id } = c.req.valid("param");
    await requireWorkspace(c.env, workspace_id);
    const w = workspaceDb(c.env, workspace_id);
    const persona = await setPersonaApproval(w, id, false);
    await recordAudit(w, {
      actor: ADMIN_ACTOR,
      action: "persona.revoked",
      target: { type: "persona", id },
      details: { username: persona.username },
    });
    return c.json(persona, 200);
  });
