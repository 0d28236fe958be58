// The query and body of the posts resource (GET /posts, PATCH /posts/{id}), shared by the routes and the
// console's inbox, so a filter or a change means the same through both doors.
import { z } from "@hono/zod-openapi";
import type { PostFilters } from "../db/posts-query";
import { integerParam, queryBoolean } from "./params";

export const PostsQuery = z.strictObject({
  keyword_id: integerParam(1).optional().openapi({ description: "Only posts that matched this keyword" }),
  subreddit: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .openapi({ description: "Subreddit name (without r/), case-insensitive" }),
  priority: z.enum(["high", "medium", "low"]).optional(),
  answered_status: z.enum(["answered", "unanswered"]).optional(),
  has_competitors: queryBoolean
    .optional()
    .openapi({ description: "true: only posts mentioning a competitor; false: only posts mentioning none" }),
  include_archived: queryBoolean
    .optional()
    .openapi({ default: false, description: "Include archived posts (default false)" }),
  sort_by: z.enum(["priority", "urgency", "date", "score", "comments"]).optional().openapi({
    default: "date",
    description: "Default `date`; with `search` and no sort_by, best match first. Ties: date, then id",
  }),
  sort_order: z.enum(["asc", "desc"]).optional().openapi({
    default: "desc",
    description: "Default desc. With `search` and no sort_by it orders by relevance: desc is best match first",
  }),
  search: z
    .string()
    .trim()
    .min(1, "the search is empty; give words to search for, or leave search out")
    .max(500)
    .optional()
    .openapi({
      description: 'Full-text search over title and body: words, "quoted phrases", prefix* terms',
    }),
  limit: integerParam(1, 500).optional().openapi({ default: 100, description: "Page size, 1..500, default 100" }),
  offset: integerParam(0).optional().openapi({ default: 0, description: "Rows to skip, default 0" }),
});

/** The query of GET /posts as the listing's filters, with its defaults (the console's inbox uses it too). */
export function postFilters(q: z.infer<typeof PostsQuery>): PostFilters {
  return {
    keywordId: q.keyword_id,
    subreddit: q.subreddit?.replace(/^\/?r\//i, ""),
    priority: q.priority,
    answered: q.answered_status === undefined ? undefined : q.answered_status === "answered",
    hasCompetitors: q.has_competitors,
    includeArchived: q.include_archived ?? false,
    search: q.search,
    sortBy: q.sort_by,
    sortOrder: q.sort_order ?? "desc",
    limit: q.limit ?? 100,
    offset: q.offset ?? 0,
  };
}

export const PostPatch = z
  .strictObject({
    is_answered: z.boolean().optional(),
    archived: z.boolean().optional(),
    skipped: z.boolean().optional(),
  })
  .refine((v) => Object.keys(v).length > 0, { message: "give at least one of is_answered, archived, skipped" })
  .openapi("PostPatch", { minProperties: 1 });
