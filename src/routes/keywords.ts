import { z } from "@hono/zod-openapi";
import { idParam, listEnvelope } from "../contracts/params";
import { KeywordCreate, KeywordPatch, termSubreddits } from "../contracts/tracking";
import { getKeyword, listKeywords } from "../db/tracking";
import { callerDb } from "../http/context";
import { apiRoute, createRouter, jsonBody, jsonResponse } from "../http/openapi";
import { notFound } from "../lib/domain-errors";
import { createTrackedKeyword, deleteTrackedKeyword, updateTrackedKeyword } from "../monitor/term-changes";

export const KeywordSchema = z
  .object({
    id: z.number().int(),
    keyword: z.string(),
    active: z.boolean(),
    is_ambiguous: z
      .boolean()
      .openapi({ description: "Counts only with context: another tracked term in the same post" }),
    search_volume: z.number().int().nullable().openapi({ description: "Monthly searches; null until known" }),
    cpc: z.string().nullable().openapi({ description: "Cost per click as a decimal string; null until known" }),
    serp_forum_position: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "Position of the forum in search results for the keyword" }),
    serp_forum_url: z.string().nullable(),
    subreddits: termSubreddits,
    serp_checked_at: z.string().nullable().openapi({ format: "date-time" }),
    created_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("Keyword");

const duplicate = "A keyword with the same text (case-insensitive) exists (`invalid_state`)";

export const keywordsRouter = createRouter()
  .openapi(
    apiRoute({
      method: "get",
      path: "/keywords",
      tags: ["Keywords"],
      summary: "List all tracked keywords of the workspace",
      scope: "read",
      responses: { 200: jsonResponse(listEnvelope(KeywordSchema, "KeywordList"), "All keywords") },
    }),
    async (c) => {
      const data = await listKeywords(callerDb(c));
      return c.json({ data, count: data.length }, 200);
    },
  )
  .openapi(
    apiRoute({
      method: "get",
      path: "/keywords/{id}",
      tags: ["Keywords"],
      summary: "Get one tracked keyword",
      scope: "read",
      request: { params: idParam() },
      responses: { 200: jsonResponse(KeywordSchema, "The keyword") },
    }),
    async (c) => {
      const keyword = await getKeyword(callerDb(c), c.req.valid("param").id);
      if (!keyword) throw notFound("keyword");
      return c.json(keyword, 200);
    },
  )
  .openapi(
    apiRoute({
      method: "post",
      path: "/keywords",
      tags: ["Keywords"],
      summary: "Track a new keyword",
      scope: "read_write",
      conflict: duplicate,
      request: { body: jsonBody(KeywordCreate) },
      responses: { 201: jsonResponse(KeywordSchema, "The created keyword") },
    }),
    async (c) => {
      const keyword = await createTrackedKeyword(c.env, callerDb(c), c.req.valid("json"));
      return c.json(keyword, 201);
    },
  )
  .openapi(
    apiRoute({
      method: "patch",
      path: "/keywords/{id}",
      tags: ["Keywords"],
      summary: "Change a keyword's text, active or ambiguous flag",
      scope: "read_write",
      conflict: duplicate,
      request: { params: idParam(), body: jsonBody(KeywordPatch) },
      responses: { 200: jsonResponse(KeywordSchema, "The updated keyword") },
    }),
    async (c) => {
      const keyword = await updateTrackedKeyword(c.env, callerDb(c), c.req.valid("param").id, c.req.valid("json"));
      if (!keyword) throw notFound("keyword");
      return c.json(keyword, 200);
    },
  )
  .openapi(
    apiRoute({
      method: "delete",
      path: "/keywords/{id}",
      tags: ["Keywords"],
      summary: "Stop tracking a keyword (posts stay; the keyword leaves their matched_keywords)",
      scope: "read_write",
      request: { params: idParam() },
      responses: { 204: { description: "Deleted" } },
    }),
    async (c) => {
      if (!(await deleteTrackedKeyword(c.env, callerDb(c), c.req.valid("param").id))) throw notFound("keyword");
      return c.body(null, 204);
    },
  );
