// Builds the SQL of GET /posts. Pure (no imports), so the read benchmark runs the very same statements
// directly against the SQLite file to compare the service with the raw query.

export type PostSort = "priority" | "urgency" | "date" | "score" | "comments";

export interface PostFilters {
  keywordId?: number;
  subreddit?: string;
  priority?: "high" | "medium" | "low";
  answered?: boolean;
  hasCompetitors?: boolean;
  includeArchived: boolean;
  search?: string;
  sortBy?: PostSort;
  sortOrder: "asc" | "desc";
  limit: number;
  offset: number;
}

export interface BuiltQuery {
  sql: string;
  params: (string | number)[];
}

/** The values of the generated column priority_rank (schema.ts). */
const PRIORITY_RANK: Record<NonNullable<PostFilters["priority"]>, number> = { high: 3, medium: 2, low: 1 };

const SORT_COLUMN: Record<PostSort, string> = {
  priority: "p.priority_rank",
  urgency: "p.urgency_rank",
  date: "p.created_utc",
  score: "p.score",
  comments: "p.num_comments",
};

export const POST_COLUMNS = `p.id, p.forum_id, p.subreddit, p.title, p.selftext, p.author, p.url, p.score, p.num_comments,
  p.created_utc, p.permalink, p.is_answered, p.archived, p.skipped, p.priority, p.urgency,
  (SELECT json_group_array(keyword) FROM (SELECT k.keyword FROM post_keywords pk JOIN keywords k ON k.id = pk.keyword_id
     WHERE pk.post_id = p.id ORDER BY k.keyword)) AS matched_keywords,
  (SELECT json_group_array(name) FROM (SELECT c.name FROM post_competitors pc JOIN competitors c ON c.id = pc.competitor_id
     WHERE pc.post_id = p.id ORDER BY c.name)) AS mentioned_competitors`;

function whereClause(workspaceId: number, f: PostFilters): { from: string; where: string; params: (string | number)[] } {
  const params: (string | number)[] = [workspaceId];
  const conditions = ["p.workspace_id = ?"];
  let from = "posts p";
  if (f.search !== undefined) {
    // CROSS JOIN fixes the join order, FTS first. Left to the planner, SQLite 3.51 runs the MATCH once per
    // post of the workspace (seconds at 100,000 posts); which SQLite production D1 runs is not ours to choose.
    // When nothing but workspace, archived and date is asked of a hit, it is checked in the narrow
    // posts_id_filters_idx instead of the wide row. Named, because the planner picks it only with statistics.
    const narrow = f.subreddit === undefined && f.priority === undefined && f.answered === undefined &&
      f.hasCompetitors === undefined && (f.sortBy === undefined || f.sortBy === "date");
    from = `posts_fts CROSS JOIN posts p${narrow ? " INDEXED BY posts_id_filters_idx" : ""} ON p.id = posts_fts.rowid`;
    conditions.push("posts_fts MATCH ?");
    params.push(f.search);
  }
  if (!f.includeArchived) conditions.push("p.archived = 0");
  if (f.subreddit !== undefined) {
    conditions.push("p.subreddit = ? COLLATE NOCASE");
    params.push(f.subreddit);
  }
  if (f.priority !== undefined) {
    // The generated rank column is what posts_ws_priority_idx holds, so the count never reads the rows.
    conditions.push("p.priority_rank = ?");
    params.push(PRIORITY_RANK[f.priority]);
  }
  if (f.answered !== undefined) conditions.push(`p.is_answered = ${f.answered ? 1 : 0}`);
  if (f.keywordId !== undefined) {
    // Driven from post_keywords_keyword_idx (the keyword's posts), not one probe per post of the workspace.
    conditions.push("p.id IN (SELECT pk.post_id FROM post_keywords pk WHERE pk.keyword_id = ?)");
    params.push(f.keywordId);
  }
  if (f.hasCompetitors !== undefined) {
    // Kept by triggers on post_competitors (migration 0004); posts_ws_competitors_idx holds it.
    conditions.push(`p.has_competitors = ${f.hasCompetitors ? 1 : 0}`);
  }
  return { from, where: conditions.join(" AND "), params };
}

/** The ORDER BY keys; `relevance` is how the rank of a search hit is spelled where it is used. */
function orderClause(f: PostFilters, relevance: string): string {
  const dir = f.sortOrder === "asc" ? "ASC" : "DESC";
  // With a search and no explicit sort, relevance is the sort key: desc (the default) is best match first.
  // bm25() is lower-is-better, so its direction is the opposite of sort_order.
  if (f.sortBy === undefined && f.search !== undefined) {
    return `${relevance} ${f.sortOrder === "asc" ? "DESC" : "ASC"}, p.created_utc ${dir}, p.id ${dir}`;
  }
  const sortBy = f.sortBy ?? "date";
  // Ties are broken by date, then id, in the same direction, so paging is stable.
  const keys = sortBy === "date" ? ["p.created_utc", "p.id"] : [SORT_COLUMN[sortBy], "p.created_utc", "p.id"];
  return keys.map((k) => `${k} ${dir}`).join(", ");
}

const ranksByRelevance = (f: PostFilters) => f.sortBy === undefined && f.search !== undefined;

export function buildPostsQueries(workspaceId: number, f: PostFilters): { page: BuiltQuery; count: BuiltQuery } {
  const { from, where, params } = whereClause(workspaceId, f);
  // Deferred join: the inner query picks the page's ids (reading indexes only where it can), and the columns
  // with their two correlated subqueries are built for those 100 rows only. Where the order needs a sort
  // (searches) they would otherwise be built for every hit.
  const relevance = ranksByRelevance(f) ? ", bm25(posts_fts) AS relevance" : "";
  const pageIds = `SELECT p.id AS id${relevance} FROM ${from} WHERE ${where} ORDER BY ${orderClause(f, "bm25(posts_fts)")} LIMIT ? OFFSET ?`;
  return {
    page: {
      sql: `SELECT ${POST_COLUMNS} FROM (${pageIds}) AS pg JOIN posts p ON p.id = pg.id ORDER BY ${orderClause(f, "pg.relevance")}`,
      params: [...params, f.limit, f.offset],
    },
    count: { sql: `SELECT count(*) AS count FROM ${from} WHERE ${where}`, params },
  };
}

export function buildPostByIdQuery(workspaceId: number, postId: number): BuiltQuery {
  return { sql: `SELECT ${POST_COLUMNS} FROM posts p WHERE p.workspace_id = ? AND p.id = ?`, params: [workspaceId, postId] };
}
