// A workspace's matched comments (docs/monitoring.md "Comments", docs/storage.md): stored with their matches, listed
// through the same statements as posts (posts-query.ts with COMMENTS_SOURCE), read one by one, triaged, and read
// back in bounded batches to be re-matched.
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { nowIso, type WorkspaceDb } from "./client";
import { linkStatements } from "./monitor";
import { listRows, prepare } from "./posts";
import { buildPostByIdQuery, COMMENT_COLUMNS, COMMENTS_SOURCE, type PostFilters } from "./posts-query";
import { posts } from "./schema";
import { comments } from "./schema-comments";

export interface CommentRow {
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
  is_answered: number;
  archived: number;
  skipped: number;
  priority: "high" | "medium" | "low" | null;
  urgency: "urgent" | "not_urgent" | null;
  matched_keywords: string;
  mentioned_competitors: string;
  score_reasons: string;
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
    matched_keywords: JSON.parse(row.matched_keywords) as string[],
    mentioned_competitors: JSON.parse(row.mentioned_competitors) as string[],
    is_answered: row.is_answered === 1,
    archived: row.archived === 1,
    skipped: row.skipped === 1,
    priority: row.priority,
    urgency: row.urgency,
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

/** A comment as the forum gives it, with our matches and score. */
export interface IngestedComment {
  forumId: string;
  postForumId: string;
  subreddit: string;
  /** '' when unknown: a stored title is then kept. */
  threadTitle: string;
  body: string;
  author: string;
  permalink: string;
  score: number;
  createdUtc: string;
  priority: "high" | "medium" | "low";
  urgency: "urgent" | "not_urgent";
  scoreReasons: string[];
  keywordIds: number[];
  competitorIds: number[];
}

const IDS_PER_STATEMENT = 90;
const COMMENTS_PER_BATCH = 25;

async function existingCommentIds(w: WorkspaceDb, forumIds: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < forumIds.length; i += IDS_PER_STATEMENT) {
    const rows = await w.db
      .select({ forumId: comments.forumId })
      .from(comments)
      .where(
        and(
          eq(comments.workspaceId, w.workspaceId),
          inArray(comments.forumId, forumIds.slice(i, i + IDS_PER_STATEMENT)),
        ),
      )
      .all();
    for (const r of rows) found.add(r.forumId);
  }
  return found;
}

const upsertStatement = (w: WorkspaceDb, r: IngestedComment, now: string) =>
  w.d1
    .prepare(
      `INSERT INTO comments (workspace_id, forum_id, post_forum_id, subreddit, thread_title, body, author, permalink,
         score, created_utc, priority, urgency, score_reasons, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (workspace_id, forum_id) DO UPDATE SET subreddit = excluded.subreddit,
         thread_title = CASE WHEN excluded.thread_title = '' THEN comments.thread_title ELSE excluded.thread_title END,
         body = excluded.body, author = excluded.author, permalink = excluded.permalink, score = excluded.score,
         priority = excluded.priority, urgency = excluded.urgency, score_reasons = excluded.score_reasons,
         updated_at = excluded.updated_at`,
    )
    .bind(
      w.workspaceId,
      r.forumId,
      r.postForumId,
      r.subreddit,
      r.threadTitle,
      r.body,
      r.author,
      r.permalink,
      r.score,
      r.createdUtc,
      r.priority,
      r.urgency,
      JSON.stringify(r.scoreReasons),
      now,
      now,
    );

/**
 * Inserts new comments and updates known ones (unique by workspace and forum id), each with its links in one
 * batch; the triage flags are never written here. `onCreated` hears of each batch's newly stored comments as
 * soon as they are written (as upsertForumPosts does for posts).
 */
export async function upsertComments(
  w: WorkspaceDb,
  rows: IngestedComment[],
  onCreated: (forumIds: string[]) => Promise<void> = async () => {},
): Promise<{ created: number; updated: number }> {
  if (rows.length === 0) return { created: 0, updated: 0 };
  const existing = await existingCommentIds(
    w,
    rows.map((r) => r.forumId),
  );
  const now = nowIso();
  let created = 0;
  for (let i = 0; i < rows.length; i += COMMENTS_PER_BATCH) {
    const chunk = rows.slice(i, i + COMMENTS_PER_BATCH);
    await w.d1.batch(
      chunk.flatMap((r) => [
        upsertStatement(w, r, now),
        ...linkStatements(w, r.forumId, r.keywordIds, r.competitorIds, "comments"),
      ]),
    );
    const fresh = chunk.filter((r) => !existing.has(r.forumId)).map((r) => r.forumId);
    if (fresh.length > 0) await onCreated(fresh);
    created += fresh.length;
  }
  return { created, updated: rows.length - created };
}

/** A refreshed comment that no longer matches keeps its matches; only the forum's score and text change. */
export async function refreshCommentCounts(
  w: WorkspaceDb,
  rows: { forumId: string; body: string; score: number }[],
): Promise<number> {
  let updated = 0;
  const now = nowIso();
  for (const r of rows) {
    const result = await w.db
      .update(comments)
      .set({ body: r.body, score: r.score, updatedAt: now })
      .where(and(eq(comments.workspaceId, w.workspaceId), eq(comments.forumId, r.forumId)))
      .run();
    updated += result.meta.changes ?? 0;
  }
  return updated;
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
