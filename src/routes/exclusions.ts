import { recordAudit } from "../audit/events";
import { ExclusionsBody } from "../contracts/tracking";
import { getExclusions } from "../db/exclusions";
import { callerDb } from "../http/context";
import { apiRoute, createRouter, jsonBody, jsonResponse } from "../http/openapi";
import { replaceExclusions } from "../monitor/term-changes";

const TAG = "Monitoring";

export const exclusionsRouter = createRouter()
  .openapi(
    apiRoute({
      method: "get",
      path: "/actions/monitoring/exclusions",
      tags: [TAG],
      summary: "The terms, subreddits and authors whose posts and comments the workspace does not store",
      scope: "read",
      responses: { 200: jsonResponse(ExclusionsBody, "The workspace's exclusions (empty lists when none)") },
    }),
    async (c) => c.json(await getExclusions(callerDb(c)), 200),
  )
  .openapi(
    apiRoute({
      method: "put",
      path: "/actions/monitoring/exclusions",
      tags: [TAG],
      summary:
        "Replace the workspace's exclusions (at most 200 of each); stored posts and comments they now exclude become skipped",
      scope: "read_write",
      request: { body: jsonBody(ExclusionsBody) },
      responses: { 200: jsonResponse(ExclusionsBody, "The exclusions as stored") },
    }),
    async (c) => {
      const w = callerDb(c);
      const stored = await replaceExclusions(c.env, w, c.req.valid("json"));
      await recordAudit(w, {
        actor: c.get("auth").actor,
        action: "exclusions.updated",
        target: { type: "workspace", id: w.workspaceId },
        details: {
          terms: stored.terms.length,
          subreddits: stored.subreddits.length,
          authors: stored.authors.length,
        },
      });
      return c.json(stored, 200);
    },
  );
