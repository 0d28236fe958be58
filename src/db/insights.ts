// The SQL of insight (docs/insights.md): day counts of mentions from mention_days (kept by triggers,
// migrations 0081 and 0082) and the open posts of highest opportunity value (posts.value, same migration).
import type { WorkspaceDb } from "./client";
import { type PostRow, type PostView, serializePost } from "./posts";
import { COUNT_LOOKAHEAD, POST_COLUMNS } from "./posts-query";

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
 * their count, exact up to `offset + limit + COUNT_LOOKAHEAD` as GET /posts counts. Both statements read
 * posts_ws_open_value_idx; the page's rows are read by primary key for its ids only.
 */
export async function listOpportunities(
  w: WorkspaceDb,
  page: { limit: number; offset: number },
): Promise<{ data: PostView[]; count: number; countIsEstimate: boolean } & RowsRead> {
  const bound = page.offset + page.limit + COUNT_LOOKAHEAD;
  const order = "p.value DESC, p.created_utc DESC, p.id DESC";
  const ids = `SELECT p.id FROM posts p INDEXED BY posts_ws_open_value_idx WHERE ${OPEN_VALUED} ORDER BY ${order} LIMIT ? OFFSET ?`;
  const [rows, counted] = await w.d1.batch<Record<string, unknown>>([
    w.d1
      .prepare(`SELECT ${POST_COLUMNS} FROM (${ids}) AS pg JOIN posts p ON p.id = pg.id ORDER BY ${order}`)
      .bind(w.workspaceId, page.limit, page.offset),
    w.d1
      .prepare(
        `SELECT count(*) AS n FROM (SELECT 1 FROM posts p INDEXED BY posts_ws_open_value_idx WHERE ${OPEN_VALUED} LIMIT ?)`,
      )
      .bind(w.workspaceId, bound),
  ]);
  const n = Number((counted?.results[0] as { n?: number } | undefined)?.n ?? 0);
  return {
    data: ((rows?.results ?? []) as unknown as PostRow[]).map(serializePost),
    count: Math.min(n, bound),
    countIsEstimate: n >= bound,
    rowsRead: (rows?.meta.rows_read ?? 0) + (counted?.meta.rows_read ?? 0),
  };
}
