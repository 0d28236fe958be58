import { z } from "@hono/zod-openapi";
import { idParam, listEnvelope } from "../contracts/params";
import { callerDb } from "../http/context";
import { apiRoute, createRouter, jsonBody, jsonResponse, noFieldsBody } from "../http/openapi";
import { connectPersona } from "../personas/connect";
import { deletePersona, getPersona, listPersonas, patchPersona, preflightPersona } from "../personas/personas";

export const PersonaSchema = z
  .object({
    id: z.number().int(),
    username: z.string().openapi({ description: "Forum username, without `u/`, as the forum's who am I names it" }),
    active: z.boolean(),
    auth_completed: z
      .boolean()
      .openapi({ description: "The forum's grant works and holds every scope (identity read submit flair history)" }),
    browser_ready: z
      .boolean()
      .openapi({ description: "The last persona check found the account visible to a logged-out visitor" }),
    approved: z.boolean().openapi({ description: "Approved for the customer (set by an operator, admin API)" }),
    scopes: z.array(z.string()).openapi({ description: "The scopes the forum granted" }),
    last_checked_at: z.string().nullable().openapi({ format: "date-time" }),
    last_error: z.string().nullable(),
    created_at: z.string().openapi({ format: "date-time" }),
    updated_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("Persona");

const PersonaPatch = z
  .strictObject({ active: z.boolean().optional() })
  .refine((v) => Object.keys(v).length > 0, { message: "give active, the one field to change" })
  .openapi("PersonaPatch", { minProperties: 1 });
const ConnectResult = z
  .object({
    authorize_url: z.string().openapi({ description: "The forum's consent page to send the person to" }),
    state: z.string().openapi({ description: "Single-use, valid ten minutes, bound to this workspace" }),
    expires_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("PersonaConnection");

export const CheckSchema = z
  .object({
    name: z.string(),
    ok: z.boolean(),
    reason: z.string().nullable().openapi({ description: "Why the check failed, in words a person can act on" }),
  })
  .openapi("Check");

const PreflightResult = z
  .object({ persona: PersonaSchema, checks: z.array(CheckSchema) })
  .openapi("PersonaPreflightResult");

const TAG = "Personas";
const BUSY = "Another browser operation of the workspace held the browser for 30 s (`browser_busy`, see `retry-after`)";

export const personasRouter = createRouter()
  .openapi(
    apiRoute({
      method: "post",
      path: "/actions/personas/connect",
      tags: [TAG],
      summary:
        "Start connecting a forum account: the forum's authorize URL to send a person to (the callback stores the persona)",
      scope: "read_write",
      conflict: "The service has no forum client or no SESSION_KEY configured (`invalid_state`)",
      request: { body: noFieldsBody("PersonaConnectRequest") },
      responses: { 201: jsonResponse(ConnectResult, "Where to send the person, and the state of this connection") },
    }),
    async (c) => c.json(await connectPersona(c.env, callerDb(c), new URL(c.req.url).origin, c.get("auth").actor), 201),
  )
  .openapi(
    apiRoute({
      method: "get",
      path: "/actions/personas",
      tags: [TAG],
      summary: "List the workspace's personas",
      scope: "read",
      responses: { 200: jsonResponse(listEnvelope(PersonaSchema, "PersonaList"), "All personas of the workspace") },
    }),
    async (c) => {
      const data = await listPersonas(callerDb(c));
      return c.json({ data, count: data.length }, 200);
    },
  )
  .openapi(
    apiRoute({
      method: "get",
      path: "/actions/personas/{id}",
      tags: [TAG],
      summary: "Get one persona",
      scope: "read",
      request: { params: idParam() },
      responses: { 200: jsonResponse(PersonaSchema, "The persona") },
    }),
    async (c) => c.json(await getPersona(callerDb(c), c.req.valid("param").id), 200),
  )
  .openapi(
    apiRoute({
      method: "patch",
      path: "/actions/personas/{id}",
      tags: [TAG],
      summary: "Activate or deactivate a persona",
      scope: "read_write",
      request: { params: idParam(), body: jsonBody(PersonaPatch) },
      responses: { 200: jsonResponse(PersonaSchema, "The persona") },
    }),
    async (c) => c.json(await patchPersona(callerDb(c), c.req.valid("param").id, c.req.valid("json")), 200),
  )
  .openapi(
    apiRoute({
      method: "delete",
      path: "/actions/personas/{id}",
      tags: [TAG],
      summary: "Delete a persona: its grant is revoked at the forum, then it is removed",
      scope: "read_write",
      conflict: "A post of a config naming this persona is queued for publishing (`invalid_state`)",
      outside: "forum",
      request: { params: idParam() },
      responses: { 204: { description: "Revoked at the forum and deleted" } },
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      const w = callerDb(c);
      await deletePersona(c.env, w, id, c.get("auth").actor);
      return c.body(null, 204);
    },
  )
  .openapi(
    apiRoute({
      method: "post",
      path: "/actions/personas/{id}/preflight",
      tags: [TAG],
      summary:
        "Check a persona: its grant (renewed if needed), who am I, the scopes, and its profile as a logged-out visitor sees it",
      scope: "read_write",
      conflict: `${BUSY}; or the grant was replaced while it was being checked (\`invalid_state\`: run the check again)`,
      outside: "browser",
      request: { params: idParam(), body: noFieldsBody("PersonaPreflightRequest") },
      responses: { 200: jsonResponse(PreflightResult, "The persona after the check, and each check with its reason") },
    }),
    async (c) => c.json(await preflightPersona(c.env, callerDb(c), c.req.valid("param").id), 200),
  );
