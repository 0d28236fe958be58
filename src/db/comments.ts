// A workspace's matched comments (docs/monitoring.md "Comments", docs/storage.md): stored with their matches
// (matched-items.ts), listed
// through the same statements as posts (posts-query.ts with COMMENTS_SOURCE), read one by one, triaged, and read
// back in bounded batches to be re-matched.
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { nowIso, type WorkspaceDb } from "./client";
import { IDS_PER_STATEMENT } from "./matched-items";
import { listRows, type MatchedItemRow, matchedItemView, prepare } from "./posts";
import { buildPostByIdQuery, COMMENT_COLUMNS, COMMENTS_SOURCE, type PostFilters } from "./posts-query";
import { posts } from "./schema";
import { comments } from "./schema-comments";

export interface CommentRow extends MatchedItemRow {
  id: number;
  forum_id: string;
  post_forum_id: string;
  subreddit: string;
  thread_title: string;
  body: string;
  author: string;
  permalink: string;
  score: number;
  created_utc: string;
}

export function serializeComment(row: CommentRow) {
  return {
    id: row.id,
    forum_id: row.forum_id,
    post_forum_id: row.post_forum_id,
    subreddit: row.subreddit,
    thread_title: row.thread_title,
    body: row.body,
    author: row.author,
    permalink: row.permalink,
    score: row.score,
    created_utc: row.created_utc,
    ...matchedItemView(row),
    score_reasons: JSON.parse(row.score_reasons) as string[],
  };
}

export type CommentView = ReturnType<typeof serializeComment>;

/** One page of the workspace's comments and the bounded count, as GET /posts lists posts. */
export async function listComments(
  w: WorkspaceDb,
  filters: PostFilters,
): Promise<{ data: CommentView[]; count: number; countIsEstimate: boolean }> {
  const page = await listRows(w, { ...filters, source: COMMENTS_SOURCE });
  return { ...page, data: page.rows.map((r) => serializeComment(r as unknown as CommentRow)) };
}

export async function getComment(w: WorkspaceDb, id: number): Promise<CommentView | undefined> {
  const row = await prepare(w.d1, buildPostByIdQuery(w.workspaceId, id, COMMENTS_SOURCE)).first<CommentRow>();
  return row ? serializeComment(row) : undefined;
}

export async function updateCommentState(
  w: WorkspaceDb,
  id: number,
  patch: { is_answered?: boolean; archived?: boolean; skipped?: boolean },
): Promise<CommentView | undefined> {
  const updated = await w.db
    .update(comments)
    .set({ isAnswered: patch.is_answered, archived: patch.archived, skipped: patch.skipped, updatedAt: nowIso() })
    .where(and(eq(comments.workspaceId, w.workspaceId), eq(comments.id, id)))
    .returning({ id: comments.id })
    .get();
  return updated ? getComment(w, id) : undefined;
}

/** The titles of the workspace's stored posts among these threads (forum ids without `t3_`). */
export async function storedThreadTitles(w: WorkspaceDb, postForumIds: string[]): Promise<Map<string, string>> {
  const titles = new Map<string, string>();
  const ids = [...new Set(postForumIds)];
  for (let i = 0; i < ids.length; i += IDS_PER_STATEMENT) {
    const rows = await w.db
      .select({ forumId: posts.forumId, title: posts.title })
      .from(posts)
      .where(and(eq(posts.workspaceId, w.workspaceId), inArray(posts.forumId, ids.slice(i, i + IDS_PER_STATEMENT))))
      .all();
    for (const r of rows) titles.set(r.forumId, r.title);
  }
  return titles;
}

/** The comments with these forum ids, as GET /comments shows them. */
export async function commentViewsByForumIds(w: WorkspaceDb, forumIds: string[]): Promise<CommentView[]> {
  const views: CommentView[] = [];
  for (let i = 0; i < forumIds.length; i += IDS_PER_STATEMENT) {
    const chunk = forumIds.slice(i, i + IDS_PER_STATEMENT);
    const { results } = await w.d1
      .prepare(
        `SELECT ${COMMENT_COLUMNS} FROM comments p WHERE p.workspace_id = ? AND p.forum_id IN (${chunk.map(() => "?").join(", ")})
         ORDER BY p.id`,
      )
      .bind(w.workspaceId, ...chunk)
      .all<CommentRow>();
    views.push(...results.map(serializeComment));
  }
  return views;
}

export interface StoredCommentForMatch {
  id: number;
  forumId: string;
  subreddit: string;
  author: string;
  body: string;
  permalink: string;
  score: number;
  createdUtc: string;
  skipped: boolean;
  keywordIds: number[];
  competitorIds: number[];
}

/** One bounded batch of the workspace's comments after `afterId`, in id order, with their current links. */
export async function commentsForRematch(
  w: WorkspaceDb,
  afterId: number,
  limit: number,
): Promise<StoredCommentForMatch[]> {
  const rows = await w.db
    .select({
      id: comments.id,
      forumId: comments.forumId,
      subreddit: comments.subreddit,
      author: comments.author,
      body: comments.body,
      permalink: comments.permalink,
      score: comments.score,
      createdUtc: comments.createdUtc,
      skipped: comments.skipped,
      keywordIds: sql<string>`(SELECT json_group_array(keyword_id) FROM comment_keywords ck WHERE ck.comment_id = ${comments.id})`,
      competitorIds: sql<string>`(SELECT json_group_array(competitor_id) FROM comment_competitors cc WHERE cc.comment_id = ${comments.id})`,
    })
    .from(comments)
    .where(and(eq(comments.workspaceId, w.workspaceId), sql`${comments.id} > ${afterId}`))
    .orderBy(asc(comments.id))
    .limit(limit)
    .all();
  return rows.map((r) => ({
    ...r,
    keywordIds: (JSON.parse(r.keywordIds) as number[]).sort((a, b) => a - b),
    competitorIds: (JSON.parse(r.competitorIds) as number[]).sort((a, b) => a - b),
  }));
}
