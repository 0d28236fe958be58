import { and, eq } from "drizzle-orm";
import { ApiError } from "../errors";
import { nowIso, type WorkspaceDb } from "./client";
import {
  type BuiltQuery,
  buildPostByIdQuery,
  buildPostsQueries,
  type PostFilters,
  type Workspace,
} from "./posts-query";
import { posts } from "./schema";

export interface PostRow {
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
  is_answered: number;
  archived: number;
  skipped: number;
  priority: "high" | "medium" | "low" | null;
  urgency: "urgent" | "not_urgent" | null;
  matched_keywords: string;
  mentioned_competitors: string;
  score_reasons: string;
}

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

export type PostView = ReturnType<typeof serializePost>;

// The messages SQLite's FTS5 query parser answers a malformed MATCH expression with (fts5_expr.c).
const isFtsSyntaxError = (err: unknown) =>
  /fts5|unterminated string|no such column|malformed MATCH|unknown special query|expected integer/i.test(String(err));

/**
 * Whether `search` itself is what SQLite refused. Asked only after the listing failed, with a statement
 * that can fail for no other reason, so a broken schema ("no such column" of a real table) stays a 500.
 */
async function isMalformedSearch(d1: D1Database, search: string): Promise<boolean> {
  try {
    await d1.prepare("SELECT 1 FROM posts_fts WHERE posts_fts MATCH ? AND rowid = 0").bind(search).all();
    return false;
  } catch (err) {
    return isFtsSyntaxError(err);
  }
}

/**
 * Runs statements made for a workspace in one D1 batch and says whose workspace that was. GET /posts passes
 * one that checks the caller's key in the same batch (src/auth/key-in-query.ts).
 */
export type WorkspaceBatch = (
  build: (workspace: Workspace) => D1PreparedStatement[],
) => Promise<{ auth: { workspaceId: number }; results: D1Result[] }>;

const prepare = (d1: D1Database, q: BuiltQuery) => d1.prepare(q.sql).bind(...q.params);

/** One page of posts and the number of all that match, in one round trip to the database (almost always). */
export async function listPosts(
  d1: D1Database,
  batch: WorkspaceBatch,
  filters: PostFilters,
): Promise<{ data: PostView[]; count: number }> {
  let countInPage = false;
  let ran: Awaited<ReturnType<WorkspaceBatch>>;
  try {
    ran = await batch((workspace) => {
      const q = buildPostsQueries(workspace, filters);
      countInPage = q.countInPage;
      return countInPage ? [prepare(d1, q.page)] : [prepare(d1, q.page), prepare(d1, q.count)];
    });
  } catch (err) {
    // An ApiError is the batch's verdict on the key (401, 429), not SQLite's on the search.
    if (!(err instanceof ApiError) && filters.search !== undefined && (await isMalformedSearch(d1, filters.search))) {
      throw new ApiError("validation_failed", "search is not a valid full-text query", {
        details: [
          {
            path: "query.search",
            message: 'not a valid full-text query: use words, "quoted phrases" and prefix* terms (SQLite FTS5 syntax)',
          },
        ],
      });
    }
    throw err;
  }
  const [pageResult, countResult] = ran.results;
  const rows = (pageResult?.results ?? []) as unknown as (PostRow & { total_count?: number })[];
  let count: number;
  if (!countInPage) count = ((countResult?.results ?? [])[0] as { count: number } | undefined)?.count ?? 0;
  else if (rows.length > 0) count = rows[0]!.total_count ?? 0;
  else if (filters.offset === 0) count = 0;
  else {
    // A search paged past its last hit: the page carried no count, so it is asked for on its own.
    const q = buildPostsQueries(ran.auth.workspaceId, filters).count;
    count = (await prepare(d1, q).first<{ count: number }>())?.count ?? 0;
  }
  return { data: rows.map(serializePost), count };
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
