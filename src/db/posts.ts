import { and, eq } from "drizzle-orm";
import { DomainError } from "../lib/domain-errors";
import { nowIso, type WorkspaceDb } from "./client";
import {
  type BuiltQuery,
  buildPostByIdQuery,
  buildPostsQueries,
  POSTS_SOURCE,
  type PostFilters,
  runOnD1,
  runPostsQueries,
  searchExpression,
} from "./posts-query";
import { posts } from "./schema";

/** The columns a listed post and a listed comment share: matches (JSON arrays), triage flags, score. */
export interface MatchedItemRow {
  is_answered: number;
  archived: number;
  skipped: number;
  priority: "high" | "medium" | "low" | null;
  urgency: "urgent" | "not_urgent" | null;
  matched_keywords: string;
  mentioned_competitors: string;
  score_reasons: string;
}

export interface PostRow extends MatchedItemRow {
  id: number;
  forum_id: string;
  subreddit: string;
  title: string;
  selftext: string;
  author: string;
  url: string;
  score: number;
  num_comments: number;
  created_utc: string;
  permalink: string;
  value: number | null;
}

/** A value as a person reads it: whole dollars with thousands separators, cents below a dollar. */
export const dollars = (value: number) =>
  value >= 1 ? `$${Math.round(value).toLocaleString("en-US")}` : `$${value.toFixed(2)}`;

/** The reason a post with an opportunity value carries, after the score's own (docs/insights.md). */
export const valueReason = (value: number) => `worth about ${dollars(value)} a month in search traffic`;

/** What a post and a comment show alike: their matches, triage flags, priority and urgency. */
export const matchedItemView = (row: MatchedItemRow) => ({
  matched_keywords: JSON.parse(row.matched_keywords) as string[],
  mentioned_competitors: JSON.parse(row.mentioned_competitors) as string[],
  is_answered: row.is_answered === 1,
  archived: row.archived === 1,
  skipped: row.skipped === 1,
  priority: row.priority,
  urgency: row.urgency,
});

export function serializePost(row: PostRow) {
  return {
    id: row.id,
    forum_id: row.forum_id,
    subreddit: row.subreddit,
    title: row.title,
    selftext: row.selftext,
    author: row.author,
    url: row.url,
    score: row.score,
    num_comments: row.num_comments,
    created_utc: row.created_utc,
    permalink: row.permalink,
    ...matchedItemView(row),
    score_reasons: [
      ...(JSON.parse(row.score_reasons) as string[]),
      ...(row.value === null ? [] : [valueReason(row.value)]),
    ],
    value: row.value,
  };
}

export type PostView = ReturnType<typeof serializePost>;

// The messages SQLite's FTS5 query parser answers a malformed MATCH expression with (fts5_expr.c).
const isFtsSyntaxError = (err: unknown) =>
  /fts5|unterminated string|no such column|malformed MATCH|unknown special query|expected integer/i.test(String(err));

/**
 * Whether `search` itself is what SQLite refused. Asked only after the listing failed, with a statement
 * that can fail for no other reason, so a broken schema ("no such column" of a real table) stays a 500.
 */
async function isMalformedSearch(w: WorkspaceDb, filters: PostFilters): Promise<boolean> {
  const fts = (filters.source ?? POSTS_SOURCE).fts;
  try {
    // Asked of the query as the listing ran it: its words tagged for the workspace, its facets beside it.
    await w.d1
      .prepare(`SELECT 1 FROM ${fts} WHERE ${fts} MATCH ? AND rowid = 0`)
      .bind(searchExpression(w.workspaceId, filters))
      .all();
    return false;
  } catch (err) {
    return isFtsSyntaxError(err);
  }
}

export const prepare = (d1: D1Database, q: BuiltQuery) => d1.prepare(q.sql).bind(...q.params);

const malformedSearch = () =>
  new DomainError("invalid_input", "search is not a valid full-text query", {
    problems: [
      {
        path: "query.search",
        message: 'not a valid full-text query: use words, "quoted phrases" and prefix* terms (SQLite FTS5 syntax)',
      },
    ],
  });

/**
 * One page of the workspace's posts and the number of all that match, in one round trip (almost always;
 * posts-query.ts, runPostsQueries). The count is exact up to its bound (COUNT_LOOKAHEAD), then that bound
 * with `countIsEstimate`.
 */
export async function listPosts(
  w: WorkspaceDb,
  filters: PostFilters,
): Promise<{ data: PostView[]; count: number; countIsEstimate: boolean }> {
  const page = await listRows(w, { ...filters, source: POSTS_SOURCE });
  return { ...page, data: page.rows.map((r) => serializePost(r as unknown as PostRow)) };
}

/**
 * One page of the listing `filters.source` names (posts or comments), as rows, with the bounded count: the
 * statements of posts-query.ts and the refusal of a malformed search, the same for both.
 */
export async function listRows(
  w: WorkspaceDb,
  filters: PostFilters,
): Promise<{ rows: Record<string, unknown>[]; count: number; countIsEstimate: boolean }> {
  const q = buildPostsQueries(w.workspaceId, filters);
  let page: Awaited<ReturnType<typeof runPostsQueries>>;
  try {
    page = await runPostsQueries(q, filters, runOnD1(w.d1));
  } catch (err) {
    if (filters.search !== undefined && (await isMalformedSearch(w, filters))) throw malformedSearch();
    throw err;
  }
  const rows = page.rows;
  // An empty page may not have parsed the search at all: when the posts table is empty, SQLite ends the
  // one-pass statement at its first step (its empty-table check on the posts it would read by id comes
  // before the hits' co-routine), so a malformed search must be asked about on its own. A search by
  // relevance needs no such question: its first statement reads the full-text index alone, so it parsed.
  if (
    rows.length === 0 &&
    filters.search !== undefined &&
    q.ranked === undefined &&
    (await isMalformedSearch(w, filters))
  )
    throw malformedSearch();
  return { rows, count: page.count, countIsEstimate: page.countIsEstimate };
}

export async function getPost(w: WorkspaceDb, postId: number): Promise<PostView | undefined> {
  const row = await prepare(w.d1, buildPostByIdQuery(w.workspaceId, postId)).first<PostRow>();
  return row ? serializePost(row) : undefined;
}

export interface PostStatePatch {
  is_answered?: boolean;
  archived?: boolean;
  skipped?: boolean;
}

export async function updatePostState(
  w: WorkspaceDb,
  postId: number,
  patch: PostStatePatch,
): Promise<PostView | undefined> {
  const updated = await w.db
    .update(posts)
    .set({
      // drizzle leaves undefined fields out of the SET
      isAnswered: patch.is_answered,
      archived: patch.archived,
      skipped: patch.skipped,
      updatedAt: nowIso(),
    })
    .where(and(eq(posts.workspaceId, w.workspaceId), eq(posts.id, postId)))
    .returning({ id: posts.id })
    .get();
  return updated ? getPost(w, postId) : undefined;
}
