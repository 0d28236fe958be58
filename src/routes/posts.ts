import { z } from "@hono/zod-openapi";
import { idParam } from "../contracts/params";
import { PostPatch, PostsQuery, postFilters } from "../contracts/posts";
import { getPost, listPosts, updatePostState } from "../db/posts";
import { callerDb } from "../http/context";
import { apiRoute, createRouter, jsonBody, jsonResponse, nextOffset } from "../http/openapi";
import { notFound } from "../lib/domain-errors";

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
        'Why the post has its priority and urgency: one line per signal with its points, then the total (docs/monitoring.md); a post with a value ends with "worth about $N a month in search traffic"',
    }),
    value: z.number().nullable().openapi({
      description:
        "Opportunity value in US dollars a month: search volume x click-through rate of the thread's search position x CPC of the matched keywords whose search-engine forum result is this thread, summed; else the best keyword's volume x CPC x 0.005; null without keyword metrics (docs/insights.md)",
    }),
  })
  .openapi("Post");

export const PostListSchema = z
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
