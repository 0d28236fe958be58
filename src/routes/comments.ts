import { z } from "@hono/zod-openapi";
import { CommentPatch, CommentsQuery, commentFilters } from "../contracts/comments";
import { idParam } from "../contracts/params";
import { getComment, listComments, updateCommentState } from "../db/comments";
import { callerDb } from "../http/context";
import { apiRoute, createRouter, jsonBody, jsonResponse, nextOffset } from "../http/openapi";
import { notFound } from "../lib/domain-errors";
import { PostListSchema, PostSchema } from "./posts";

const triage = PostSchema.pick({
  matched_keywords: true,
  mentioned_competitors: true,
  is_answered: true,
  archived: true,
  skipped: true,
  priority: true,
  urgency: true,
  score_reasons: true,
});

export const CommentSchema = z
  .object({
    id: z.number().int(),
    forum_id: z.string().openapi({ description: "The forum's own identifier of the comment, without `t1_`" }),
    post_forum_id: z.string().openapi({ description: "The forum's identifier of the comment's thread, without `t3_`" }),
    subreddit: z.string(),
    thread_title: z.string().openapi({ description: "The thread's title; empty until known" }),
    body: z.string(),
    author: PostSchema.shape.author,
    permalink: z.string().openapi({ description: "The comment's own address on the forum, starting `/r/`" }),
    score: z.number().int(),
    created_utc: z.string().openapi({ format: "date-time", description: "ISO 8601 UTC" }),
    ...triage.shape,
    score_reasons: triage.shape.score_reasons.openapi({
      description:
        "Why the comment has its priority and urgency: one line per signal with its points, then the total (docs/monitoring.md)",
    }),
  })
  .openapi("Comment");

const CommentListSchema = PostListSchema.extend({ data: z.array(CommentSchema) }).openapi("CommentList");

const listCommentsRoute = apiRoute({
  method: "get",
  path: "/comments",
  tags: ["Comments"],
  summary:
    "List comments matching the workspace's tracked terms, with the filters, sorting, search and paging of /posts",
  scope: "read",
  request: { query: CommentsQuery },
  responses: { 200: jsonResponse(CommentListSchema, "One page of comments and the total count") },
});

const getCommentRoute = apiRoute({
  method: "get",
  path: "/comments/{id}",
  tags: ["Comments"],
  summary: "Get one comment",
  scope: "read",
  request: { params: idParam() },
  responses: { 200: jsonResponse(CommentSchema, "The comment") },
});

const patchCommentRoute = apiRoute({
  method: "patch",
  path: "/comments/{id}",
  tags: ["Comments"],
  summary: "Mark a comment answered, archived or skipped (or undo it)",
  scope: "read_write",
  request: { params: idParam(), body: jsonBody(CommentPatch) },
  responses: { 200: jsonResponse(CommentSchema, "The updated comment") },
});

export const commentsRouter = createRouter()
  .openapi(listCommentsRoute, async (c) => {
    const filters = commentFilters(c.req.valid("query"));
    const { data, count, countIsEstimate } = await listComments(callerDb(c), filters);
    return c.json(
      { data, count, next_offset: nextOffset(filters.offset, data.length, count), count_is_estimate: countIsEstimate },
      200,
    );
  })
  .openapi(getCommentRoute, async (c) => {
    const comment = await getComment(callerDb(c), c.req.valid("param").id);
    if (!comment) throw notFound("comment");
    return c.json(comment, 200);
  })
  .openapi(patchCommentRoute, async (c) => {
    const { id } = c.req.valid("param");
    const comment = await updateCommentState(callerDb(c), id, c.req.valid("json"));
    if (!comment) throw notFound("comment");
    return c.json(comment, 200);
  });
