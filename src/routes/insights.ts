import { z } from "@hono/zod-openapi";
import { MentionsQuery, OpportunitiesQuery } from "../contracts/insights";
import { callerDb } from "../http/context";
import { apiRoute, createRouter, jsonResponse } from "../http/openapi";
import { mentionSeries, opportunityPage } from "../insights/insights";
import { PostSchema } from "./posts";

const PointSchema = z
  .object({
    t: z.string().openapi({ format: "date-time", description: "Start of the bucket, ISO 8601 UTC" }),
    posts: z.number().int().openapi({ description: "Stored posts created in the bucket that mention the key" }),
    comments: z.number().int().openapi({ description: "Stored comments created in the bucket that mention the key" }),
    share: z.number().nullable().optional().openapi({
      description:
        "group_by=competitor only: this competitor's mentions (posts + comments) over all tracked competitors' mentions in the bucket, 0..1 to 4 decimals; null when the bucket has none",
    }),
  })
  .openapi("MentionPoint");

const MentionsSchema = z
  .object({
    data: z.array(
      z
        .object({
          key: z.string().openapi({ description: "The keyword's text, the competitor's name or the subreddit" }),
          points: z
            .array(PointSchema)
            .openapi({ description: "Every bucket of the range, in order; empty ones are 0" }),
        })
        .openapi("MentionSeries"),
    ),
    interval: z.enum(["day", "week"]),
    since: z.string().openapi({ format: "date-time", description: "Start of the first bucket" }),
    until: z.string().openapi({ format: "date-time", description: "End of the last bucket (exclusive)" }),
  })
  .openapi("Mentions");

const OpportunitiesSchema = z
  .object({
    data: z.array(PostSchema),
    count: z.number().int().openapi({
      description: "Open posts with a value (all pages); a lower bound when count_is_estimate is true",
    }),
    next_offset: z.number().int().nullable().openapi({ description: "Offset of the next page; null on the last page" }),
    count_is_estimate: z.boolean().openapi({
      description: "true when more posts match than the count reads (offset + limit + 1,000), as GET /posts counts",
    }),
  })
  .openapi("Opportunities");

const mentionsRoute = apiRoute({
  method: "get",
  path: "/insights/mentions",
  tags: ["Insights"],
  summary:
    "Mentions over time per keyword, competitor (with share of voice) or subreddit, from stored posts and comments",
  description:
    "Counted by created_utc in whole UTC buckets (weeks start on Monday), archived and skipped items included; every bucket of the range is present. docs/insights.md",
  scope: "read",
  request: { query: MentionsQuery },
  responses: { 200: jsonResponse(MentionsSchema, "One series per key") },
});

const opportunitiesRoute = apiRoute({
  method: "get",
  path: "/insights/opportunities",
  tags: ["Insights"],
  summary: "Open posts (not answered, archived or skipped) with an opportunity value, highest value first",
  scope: "read",
  request: { query: OpportunitiesQuery },
  responses: { 200: jsonResponse(OpportunitiesSchema, "One page of posts and the total count") },
});

export const insightsRouter = createRouter()
  .openapi(mentionsRoute, async (c) => c.json(await mentionSeries(callerDb(c), c.req.valid("query"), Date.now()), 200))
  .openapi(opportunitiesRoute, async (c) => c.json(await opportunityPage(callerDb(c), c.req.valid("query")), 200));
