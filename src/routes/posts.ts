import { z } from "@hono/zod-openapi";
import { getPost, listPosts, updatePostState } from "../db/posts";
import type { PostFilters } from "../db/posts-query";
import { notFound } from "../errors";
import { callerDb } from "../http/context";
import {
  apiRoute,
  createRouter,
  idParam,
  integerParam,
  jsonBody,
  jsonResponse,
  nextOffset,
  queryBoolean,
} from "../http/openapi";

export const PostSchema = z
  .object({
    id: z.number().int(),
    forum_id: z.string().openapi({ description: "The forum's own identifier of the post" }),
    subreddit: z.string(),
    title: z.string(),
    selftext: z.string().openapi({ description: "Body text" }),
    author: z
      .string()
      .openapi({ description: 'Author\'s username; "[deleted]" when the forum no longer names the account' }),
    url: z.string(),
    score: z.number().int(),
    num_comments: z.number().int(),
    created_utc: z.string().openapi({ format: "date-time", description: "ISO 8601 UTC" }),
    permalink: z.string(),
    matched_keywords: z.array(z.string()).openapi({ description: "Tracked keywords that matched" }),
    mentioned_competitors: z.array(z.string()),
    is_answered: z.boolean(),
    archived: z.boolean(),
    skipped: z.boolean(),
    priority: z.enum(["high", "medium", "low"]).nullable(),
    urgency: z.enum(["urgent", "not_urgent"]).nullable(),
    score_reasons: z.array(z.string()).openapi({
      description:
        "Why the post has its priority and urgency: one line per signal with its points, then the total (docs/monitoring.md)",
    }),
  })
  .openapi("Post");

const PostListSchema = z
  .object({
    data: z.array(PostSchema),
    count: z.number().int().openapi({
      description: "Rows matching the filters (all pages); a lower bound when count_is_estimate is true",
    }),
    next_offset: z.number().int().nullable().openapi({ description: "Offset of the next page; null on the last page" }),
    count_is_estimate: z.boolean().openapi({
      description:
        "true when more posts match than the count reads (offset + limit + 1,000): count is then that lower bound, and a search ranks and sorts only its newest that many hits (docs/scaling.md)",
    }),
  })
  .openapi("PostList");

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

const listPostsRoute = apiRoute({
  method: "get",
  path: "/posts",
  tags: ["Posts"],
  summary: "List posts matching the workspace's tracked keywords, with filters, sorting, search and paging",
  scope: "read",
  request: { query: PostsQuery },
  responses: { 200: jsonResponse(PostListSchema, "One page of posts and the total count") },
});

const getPostRoute = apiRoute({
  method: "get",
  path: "/posts/{id}",
  tags: ["Posts"],
  summary: "Get one post",
  scope: "read",
  request: { params: idParam() },
  responses: { 200: jsonResponse(PostSchema, "The post") },
});

const patchPostRoute = apiRoute({
  method: "patch",
  path: "/posts/{id}",
  tags: ["Posts"],
  summary: "Mark a post answered, archived or skipped (or undo it)",
  scope: "read_write",
  request: { params: idParam(), body: jsonBody(PostPatch) },
  responses: { 200: jsonResponse(PostSchema, "The updated post") },
});

export const postsRouter = createRouter()
  .openapi(listPostsRoute, async (c) => {
    const filters = postFilters(c.req.valid("query"));
    const { data, count, countIsEstimate } = await listPosts(callerDb(c), filters);
    return c.json(
      { data, count, next_offset: nextOffset(filters.offset, data.length, count), count_is_estimate: countIsEstimate },
      200,
    );
  })
  .openapi(getPostRoute, async (c) => {
    const post = await getPost(callerDb(c), c.req.valid("param").id);
    if (!post) throw notFound("post");
    return c.json(post, 200);
  })
  .openapi(patchPostRoute, async (c) => {
    const { id } = c.req.valid("param");
    const post = await updatePostState(callerDb(c), id, c.req.valid("json"));
    if (!post) throw notFound("post");
    return c.json(post, 200);
  });
