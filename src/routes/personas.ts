import { z } from "@hono/zod-openapi";
import { idParam, listEnvelope } from "../contracts/params";
import { callerDb } from "../http/context";
import { apiRoute, createRouter, jsonBody, jsonResponse, noFieldsBody } from "../http/openapi";
import {
  createPersona,
  getPersona,
  listPersonas,
  patchPersona,
  preflightPersona,
  replacePersonaSession,
} from "../personas/personas";

export const PersonaSchema = z
  .object({
    id: z.number().int(),
    username: z.string().openapi({ description: "Forum username, without `u/`" }),
    active: z.boolean(),
    auth_completed: z.boolean().openapi({ description: "The last persona check found this account logged in" }),
    browser_ready: z.boolean().openapi({ description: "The last persona check opened the forum in the browser" }),
    approved: z.boolean().openapi({ description: "Approved for the customer (set by an operator, admin API)" }),
    last_checked_at: z.string().nullable().openapi({ format: "date-time" }),
    last_error: z.string().nullable(),
    created_at: z.string().openapi({ format: "date-time" }),
    updated_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("Persona");

/** One cookie as cookie-export extensions write it; their extra fields are accepted and mapped. */
const CookieInput = z
  .strictObject({
    name: z.string().min(1).max(256),
    value: z.string().max(8192),
    domain: z
      .string()
      .max(255)
      .optional()
      .openapi({ description: "Ignored: cookies are set on FORUM_BASE_URL's host" }),
    path: z.string().max(1024).optional(),
    expires: z.number().optional().openapi({ description: "Unix seconds" }),
    expirationDate: z.number().optional().openapi({ description: "Unix seconds (extension exports)" }),
    httpOnly: z.boolean().optional(),
    secure: z.boolean().optional(),
    sameSite: z.enum(["no_restriction", "lax", "strict", "unspecified", "None", "Lax", "Strict"]).nullable().optional(),
    hostOnly: z.boolean().optional(),
    session: z.boolean().optional(),
    storeId: z.string().nullable().optional(),
    id: z.union([z.number(), z.string()]).optional(),
  })
  .openapi("ExportedCookie");

const Cookies = z.array(CookieInput).min(1).max(100);

const USERNAME = /^(?:\/?u\/)?[A-Za-z0-9_-]{3,20}$/;

const PersonaInput = z
  .strictObject({
    username: z
      .string()
      .trim()
      .regex(USERNAME, "must be 3 to 20 letters, digits, underscores or hyphens, optionally prefixed by u/"),
    cookies: Cookies.openapi({ description: "The account's forum cookies, as a cookie-export extension writes them" }),
  })
  .openapi("PersonaInput");

const PersonaPatch = z
  .strictObject({ active: z.boolean().optional() })
  .refine((v) => Object.keys(v).length > 0, { message: "give active, the one field to change" })
  .openapi("PersonaPatch", { minProperties: 1 });
const SessionInput = z.strictObject({ cookies: Cookies }).openapi("PersonaSessionInput");

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
      path: "/actions/personas",
      tags: [TAG],
      summary: "Add a forum account (persona) with its browser session (cookie-export JSON, stored encrypted)",
      scope: "read_write",
      conflict: "A persona with this username already exists in the workspace (`invalid_state`)",
      request: { body: jsonBody(PersonaInput) },
      responses: { 201: jsonResponse(PersonaSchema, "The persona (its session is never returned)") },
    }),
    async (c) => c.json(await createPersona(c.env, callerDb(c), c.req.valid("json")), 201),
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
      method: "put",
      path: "/actions/personas/{id}/session",
      tags: [TAG],
      summary: "Replace a persona's browser session (clears auth_completed and browser_ready until the next check)",
      scope: "read_write",
      request: { params: idParam(), body: jsonBody(SessionInput) },
      responses: { 200: jsonResponse(PersonaSchema, "The persona") },
    }),
    async (c) =>
      c.json(
        await replacePersonaSession(c.env, callerDb(c), c.req.valid("param").id, c.req.valid("json").cookies),
        200,
      ),
  )
  .openapi(
    apiRoute({
      method: "post",
      path: "/actions/personas/{id}/preflight",
      tags: [TAG],
      summary: "Check a persona: open the forum in the browser with its session and ask who is logged in",
      scope: "read_write",
      conflict: `${BUSY}; or the session was replaced while it was being checked (\`invalid_state\`: run the check again)`,
      request: { params: idParam(), body: noFieldsBody("PersonaPreflightRequest") },
      responses: { 200: jsonResponse(PreflightResult, "The persona after the check, and each check with its reason") },
    }),
    async (c) => c.json(await preflightPersona(c.env, callerDb(c), c.req.valid("param").id), 200),
  );
