// The SQL of insight (docs/insights.md): day counts of mentions from mention_days (kept by triggers,
// migrations 0081 and 0082) and the open posts of highest opportunity value (posts.value, same migration).
import type { WorkspaceDb } from "./client";
import { type PostRow, type PostView, serializePost } from "./posts";
import { COUNT_LOOKAHEAD, onePassPage } from "./posts-query";

export type MentionKind = "keyword" | "competitor" | "subreddit";

export interface DayCountRow {
  day: string;
  ref: string;
  posts: number;
  comments: number;
}

/** What one read cost: D1's `meta.rows_read`, summed over its statements (the benchmark reports it). */
export interface RowsRead {
  rowsRead: number;
}

/**
 * The day counts of one kind from `fromDay` up to (not including) `toDay`, both `YYYY-MM-DD`, with the
 * names of the workspace's keywords or competitors (`names`, ref → name; empty for subreddits). One round
 * trip; the counts come from the primary key's range (workspace, kind, day), one row per key and day.
 */
export async function mentionDayCounts(
  w: WorkspaceDb,
  kind: MentionKind,
  fromDay: string,
  toDay: string,
): Promise<{ rows: DayCountRow[]; names: Map<string, string> } & RowsRead> {
  const counts = w.d1
    .prepare(
      "SELECT day, ref, posts, comments FROM mention_days WHERE workspace_id = ? AND kind = ? AND day >= ? AND day < ?",
    )
    .bind(w.workspaceId, kind, fromDay, toDay);
  const statements = [counts];
  if (kind === "keyword")
    statements.push(
      w.d1.prepare("SELECT id, keyword AS name FROM keywords WHERE workspace_id = ?").bind(w.workspaceId),
    );
  if (kind === "competitor")
    statements.push(w.d1.prepare("SELECT id, name FROM competitors WHERE workspace_id = ?").bind(w.workspaceId));
  const results = await w.d1.batch<Record<string, unknown>>(statements);
  const rows = (results[0]?.results ?? []) as unknown as DayCountRow[];
  const names = new Map(
    ((results[1]?.results ?? []) as { id: number; name: string }[]).map((r) => [String(r.id), r.name]),
  );
  return { rows, names, rowsRead: results.reduce((sum, r) => sum + (r.meta.rows_read ?? 0), 0) };
}

const OPEN_VALUED =
  "p.workspace_id = ? AND p.is_answered = 0 AND p.archived = 0 AND p.skipped = 0 AND p.value IS NOT NULL";

/**
 * One page of the open posts with a value, highest value first (ties: newer first, then higher id), and
 * their count, exact up to `offset + limit + COUNT_LOOKAHEAD` as GET /posts counts. Page and count are one
 * walk of posts_ws_open_value_idx (the listing's one-pass page, posts-query.ts); the page's rows are read by
 * primary key for its ids only. A page past the last one carries no count, which is then asked alone.
 */
export async function listOpportunities(
  w: WorkspaceDb,
  page: { limit: number; offset: number },
): Promise<{ data: PostView[]; count: number; countIsEstimate: boolean } & RowsRead> {
  const bound = page.offset + page.limit + COUNT_LOOKAHEAD;
  const from = `FROM posts p INDEXED BY posts_ws_open_value_idx WHERE ${OPEN_VALUED}`;
  const orderedIds = `SELECT p.id AS id ${from} ORDER BY p.value DESC, p.created_utc DESC, p.id DESC`;
  const filters = { includeArchived: false, sortOrder: "desc" as const, ...page };
  const q = onePassPage(orderedIds, [w.workspaceId], w.workspaceId, filters, bound);
  const result = await w.d1
    .prepare(q.sql)
    .bind(...q.params)
    .all<Record<string, unknown>>();
  let rowsRead = result.meta.rows_read ?? 0;
  const rows = result.results ?? [];
  let n = rows.length > 0 ? Number(rows[0]?.total_count) : 0;
  if (rows.length === 0 && page.offset > 0) {
    const counted = await w.d1
      .prepare(`SELECT count(*) AS n FROM (SELECT 1 ${from} LIMIT ?)`)
      .bind(w.workspaceId, bound)
      .all<{ n: number }>();
    rowsRead += counted.meta.rows_read ?? 0;
    n = Number(counted.results[0]?.n ?? 0);
  }
  return {
    data: (rows as unknown as PostRow[]).map(serializePost),
    count: Math.min(n, bound),
    countIsEstimate: n >= bound,
    rowsRead,
  };
}
