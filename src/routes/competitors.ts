import { z } from "@hono/zod-openapi";
import { idParam, listEnvelope } from "../contracts/params";
import { CompetitorCreate, CompetitorPatch, termSubreddits } from "../contracts/tracking";
import { getCompetitor, listCompetitors } from "../db/tracking";
import { callerDb } from "../http/context";
import { apiRoute, createRouter, jsonBody, jsonResponse } from "../http/openapi";
import { notFound } from "../lib/domain-errors";
import { createTrackedCompetitor, deleteTrackedCompetitor, updateTrackedCompetitor } from "../monitor/term-changes";

export const CompetitorSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    website_url: z.string().nullable(),
    keywords: z.array(z.string()).openapi({ description: "Other names the competitor is mentioned by" }),
    active: z.boolean(),
    is_ambiguous: z.boolean(),
    subreddits: termSubreddits,
    created_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("Competitor");

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
