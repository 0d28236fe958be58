// The query and body of the comments resource (GET /comments, PATCH /comments/{id}), shared by the routes and the
// console's inbox. The filters are GET /posts's, less the sort by comment count (a comment has none).
import { z } from "@hono/zod-openapi";
import { COMMENTS_SOURCE, type PostFilters } from "../db/posts-query";
import { PostPatch, PostsQuery, postFilters } from "./posts";

export const CommentsQuery = PostsQuery.extend({
  keyword_id: PostsQuery.shape.keyword_id.openapi({ description: "Only comments that matched this keyword" }),
  has_competitors: PostsQuery.shape.has_competitors.openapi({
    description: "true: only comments mentioning a competitor; false: only comments mentioning none",
  }),
  include_archived: PostsQuery.shape.include_archived.openapi({
    default: false,
    description: "Include archived comments (default false)",
  }),
  sort_by: z.enum(["priority", "urgency", "date", "score"]).optional().openapi({
    default: "date",
    description: "Default `date`; with `search` and no sort_by, best match first. Ties: date, then id",
  }),
  search: PostsQuery.shape.search.openapi({
    description: 'Full-text search over the comment\'s body: words, "quoted phrases", prefix* terms',
  }),
});

/** The query of GET /comments as the listing's filters (the comments' source), with GET /posts's defaults. */
export function commentFilters(q: z.infer<typeof CommentsQuery>): PostFilters {
  return { ...postFilters(q), source: COMMENTS_SOURCE };
}

export const CommentPatch = PostPatch.openapi("CommentPatch", { minProperties: 1 });
