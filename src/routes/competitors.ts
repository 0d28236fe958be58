import { z } from "@hono/zod-openapi";
import { getCompetitor, listCompetitors } from "../db/tracking";
import { notFound } from "../errors";
import { callerDb } from "../http/context";
import { apiRoute, createRouter, idParam, jsonBody, jsonResponse, listEnvelope } from "../http/openapi";
import { plainName } from "../lib/plain-text";
import { createTrackedCompetitor, deleteTrackedCompetitor, updateTrackedCompetitor } from "../monitor/term-changes";

export const CompetitorSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    website_url: z.string().nullable(),
    keywords: z.array(z.string()).openapi({ description: "Other names the competitor is mentioned by" }),
    active: z.boolean(),
    is_ambiguous: z.boolean(),
    created_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("Competitor");

const name = plainName(200);
const websiteUrl = z
  .url({ protocol: /^https?$/ })
  .max(2000)
  .nullable();
const aliases = z.array(plainName(200)).max(50);

export const CompetitorCreate = z
  .strictObject({
    name,
    website_url: websiteUrl.optional(),
    keywords: aliases.optional(),
    active: z.boolean().optional(),
    is_ambiguous: z.boolean().optional(),
  })
  .openapi("CompetitorCreate");
export const CompetitorPatch = z
  .strictObject({
    name: name.optional(),
    website_url: websiteUrl.optional(),
    keywords: aliases.optional(),
    active: z.boolean().optional(),
    is_ambiguous: z.boolean().optional(),
  })
  .refine((v) => Object.keys(v).length > 0, { message: "give at least one field to change" })
  .openapi("CompetitorPatch", { minProperties: 1 });

const duplicate = "A competitor with the same name (case-insensitive) exists (`invalid_state`)";

export const competitorsRouter = createRouter()
  .openapi(
    apiRoute({
      method: "get",
      path: "/competitors",
      tags: ["Competitors"],
      summary: "List all tracked competitors of the workspace",
      scope: "read",
      responses: { 200: jsonResponse(listEnvelope(CompetitorSchema, "CompetitorList"), "All competitors") },
    }),
    async (c) => {
      const data = await listCompetitors(callerDb(c));
      return c.json({ data, count: data.length }, 200);
    },
  )
  .openapi(
    apiRoute({
      method: "get",
      path: "/competitors/{id}",
      tags: ["Competitors"],
      summary: "Get one tracked competitor",
      scope: "read",
      request: { params: idParam() },
      responses: { 200: jsonResponse(CompetitorSchema, "The competitor") },
    }),
    async (c) => {
      const competitor = await getCompetitor(callerDb(c), c.req.valid("param").id);
      if (!competitor) throw notFound("competitor");
      return c.json(competitor, 200);
    },
  )
  .openapi(
    apiRoute({
      method: "post",
      path: "/competitors",
      tags: ["Competitors"],
      summary: "Track a new competitor",
      scope: "read_write",
      conflict: duplicate,
      request: { body: jsonBody(CompetitorCreate) },
      responses: { 201: jsonResponse(CompetitorSchema, "The created competitor") },
    }),
    async (c) => {
      const competitor = await createTrackedCompetitor(c.env, callerDb(c), c.req.valid("json"));
      return c.json(competitor, 201);
    },
  )
  .openapi(
    apiRoute({
      method: "patch",
      path: "/competitors/{id}",
      tags: ["Competitors"],
      summary: "Change a competitor",
      scope: "read_write",
      conflict: duplicate,
      request: { params: idParam(), body: jsonBody(CompetitorPatch) },
      responses: { 200: jsonResponse(CompetitorSchema, "The updated competitor") },
    }),
    async (c) => {
      const competitor = await updateTrackedCompetitor(
        c.env,
        callerDb(c),
        c.req.valid("param").id,
        c.req.valid("json"),
      );
      if (!competitor) throw notFound("competitor");
      return c.json(competitor, 200);
    },
  )
  .openapi(
    apiRoute({
      method: "delete",
      path: "/competitors/{id}",
      tags: ["Competitors"],
      summary: "Stop tracking a competitor (posts stay; it leaves their mentioned_competitors)",
      scope: "read_write",
      request: { params: idParam() },
      responses: { 204: { description: "Deleted" } },
    }),
    async (c) => {
      if (!(await deleteTrackedCompetitor(c.env, callerDb(c), c.req.valid("param").id))) throw notFound("competitor");
      return c.body(null, 204);
    },
  );
