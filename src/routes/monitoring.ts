import { z } from "@hono/zod-openapi";
import { callerDb } from "../http/context";
import { apiRoute, createRouter, jsonResponse, noFieldsBody } from "../http/openapi";
import { ensureIngester } from "../monitor/ingester";
import { runMonitorPass } from "../monitor/pass";
import { monitoringStatus } from "../monitor/status";

const TAG = "Monitoring";

const count = (description: string) => z.number().int().openapi({ description });

const MonitorRunFields = z.object({
  status: z.enum(["running", "completed", "partial", "failed"]).openapi({
    description:
      "`partial`: the quota or the time budget ended the backfill early; the terms it did not search are searched by the next. " +
      "`running` only in GET /actions/monitoring while a backfill runs",
  }),
  started_at: z.string().openapi({ format: "date-time" }),
  finished_at: z.string().nullable().openapi({ format: "date-time" }),
  requests: count("Requests to the forum API, 429s included, the token request not"),
  queries: count("Distinct search queries (tracked terms OR-batched, at most 512 characters each)"),
  fetched: count("Search results received"),
  matched: count("Items that matched a tracked term"),
  created: count("Posts stored for the first time"),
  updated: count("Stored posts updated (score, comments, title, body; never triage flags)"),
  error: z.string().nullable(),
});
export const MonitorRunSchema = MonitorRunFields.openapi("MonitorRun");

const MonitorRunResult = z.object({ run: MonitorRunSchema }).openapi("MonitorRunResult");

const WalkStatus = z.object({
  walked_to: z.string().openapi({ description: "The newest forum id asked (base 36, without its kind)" }),
  lag_seconds: count("How long ago the oldest id not yet asked was made (0 when the walk is at the newest)"),
  coverage: z.number().openapi({
    description: "Share of the ids made in the last hour that were asked (1.0: nothing skipped)",
  }),
});

const MonitoringStatus = z
  .object({
    enabled: z.boolean().openapi({ description: "false when no forum API client id is configured" }),
    // Inline (not the MonitorRun component): a nullable reference would make the component itself nullable.
    last_run: MonitorRunFields.nullable().openapi({
      description: "The workspace's last backfill (a 7-day search of its terms); null before the first",
    }),
    quota: z
      .object({
        remaining: z.number().int().openapi({ description: "Requests left in the forum's current window" }),
        reset_at: z.string().openapi({ format: "date-time" }),
      })
      .nullable()
      .openapi({ description: "The deployment-wide forum API quota; null until the forum's first answer" }),
    ingest: z
      .object({
        posts: WalkStatus.nullable().openapi({ description: "The post walk; null before its first round" }),
        comments: WalkStatus.nullable().openapi({ description: "The comment walk; null before its first round" }),
        requests_last_minute: count("Requests to the forum API in the last 60 seconds, by every caller of the client"),
      })
      .nullable()
      .openapi({ description: "The forum ingester, shared by every workspace; null when monitoring is off" }),
  })
  .openapi("MonitoringStatus");

export const monitoringRouter = createRouter()
  .openapi(
    apiRoute({
      method: "get",
      path: "/actions/monitoring",
      tags: [TAG],
      summary: "Whether monitoring is on, the workspace's last backfill, the shared forum API quota and the ingester",
      scope: "read",
      responses: { 200: jsonResponse(MonitoringStatus, "Monitoring status") },
    }),
    async (c) => c.json(await monitoringStatus(c.env, callerDb(c)), 200),
  )
  .openapi(
    apiRoute({
      method: "post",
      path: "/actions/monitoring/run",
      tags: [TAG],
      summary:
        "Backfill now: search the forum's last 7 days for every active term of the workspace, store what matches",
      scope: "read_write",
      conflict:
        "A backfill of this workspace is running (`run_in_progress`), or monitoring is off: no forum API client id (`invalid_state`)",
      request: { body: noFieldsBody("MonitorRunRequest") },
      responses: { 200: jsonResponse(MonitorRunResult, "The finished backfill") },
    }),
    async (c) => {
      await ensureIngester(c.env);
      const run = await runMonitorPass(c.env, callerDb(c), { trigger: "api" });
      return c.json({ run }, 200);
    },
  );
