// Builds the SQL of GET /posts. Pure (its one import is pure too, named with its extension), so the read
// benchmark runs the very same statements directly against the SQLite file to compare the service with the raw query.

import { scopeSearch } from "./fts-terms.ts";

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

// matched_keywords and mentioned_competitors are kept on the row by triggers (migration 0061): one row read
// per post, not its links and their names.
export const POST_COLUMNS = `p.id, p.forum_id, p.subreddit, p.title, p.selftext, p.author, p.url, p.score, p.num_comments,
  p.created_utc, p.permalink, p.is_answered, p.archived, p.skipped, p.priority, p.urgency, p.score_reasons,
  p.matched_keywords, p.mentioned_competitors`;

/** posts_fts's rowid: the workspace in the high 32 bits, the post id in the low ones (migration 0060). */
const FTS_WORKSPACE_FACTOR = 2 ** 32;
const FTS_POST_ID_MASK = FTS_WORKSPACE_FACTOR - 1;
export const ftsRowid = (workspaceId: number, postId: number) => workspaceId * FTS_WORKSPACE_FACTOR + postId;

/** No filter on the post row beyond workspace, `archived` and date: those live in narrower indexes too. */
const noRowFilters = (f: PostFilters) =>
  f.subreddit === undefined && f.priority === undefined && f.answered === undefined && f.hasCompetitors === undefined;

const byDate = (f: PostFilters) => f.sortBy === undefined || f.sortBy === "date";

function whereClause(
  workspaceId: number,
  f: PostFilters,
): { from: string; where: string; params: (string | number)[] } {
  const params: (string | number)[] = [workspaceId];
  const conditions = ["p.workspace_id = ?"];
  let from = "posts p";
  if (f.search !== undefined) {
    // CROSS JOIN fixes the join order, FTS first. Left to the planner, SQLite 3.51 runs the MATCH once per
    // post of the workspace (seconds at 100,000 posts); which SQLite production D1 runs is not ours to choose.
    // Each hit is looked up once. D1 counts a lookup that finds its entry (one row), not one that finds none,
    // and not the read of the row behind an index entry it found. With a subreddit (posts not archived), in
    // posts_id_subreddit_idx with every column given: a hit in another subreddit reads nothing (migration
    // 0064; 21,219 -> about 12,400 rows read for a page of `mailchimp` in one subreddit of eight, at 100,000
    // posts). Otherwise by primary key (NOT INDEXED), one row read per hit: the narrow posts_id_filters_idx
    // leaves created_utc unconstrained, so each lookup there also steps to the next entry to end its range
    // (1,221 hits read 2,443 rows through the primary key, 3,420 through that index).
    const hitIndex =
      f.subreddit !== undefined && !f.includeArchived ? "INDEXED BY posts_id_subreddit_idx" : "NOT INDEXED";
    // The index's rowid is `workspace_id * 2^32 + post id` (migration 0060): the MATCH reads the workspace's
    // rowid range only, so its cost does not grow with other workspaces' posts.
    from = `posts_fts CROSS JOIN posts p ${hitIndex} ON p.id = (posts_fts.rowid & ${FTS_POST_ID_MASK})`;
    // CAST: D1 binds a JavaScript number as a REAL, and FTS5 honours a rowid bound only when it is an
    // INTEGER; given a REAL it walks every workspace's hits and SQLite drops the others' after reading them.
    conditions.push(
      "posts_fts MATCH ?",
      "posts_fts.rowid >= CAST(? AS INTEGER)",
      "posts_fts.rowid <= CAST(? AS INTEGER)",
    );
    // The words carry the workspace's tag (migration 0065, fts-terms.ts): its own hits and statistics only.
    params.push(scopeSearch(f.search, workspaceId), ftsRowid(workspaceId, 0), ftsRowid(workspaceId, FTS_POST_ID_MASK));
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

/** Where the ORDER BY keys are read from: the posts row `p`, or a materialized search hit `h`. */
interface OrderColumns {
  relevance: string;
  sortKey: (sortBy: Exclude<PostSort, "date">) => string;
  createdUtc: string;
  id: string;
}

// A search orders its hits (HIT_COLUMNS), never the rows, so a row has no relevance to order by.
const ROW_COLUMNS: OrderColumns = {
  relevance: "NULL",
  sortKey: (s) => SORT_COLUMN[s],
  createdUtc: "p.created_utc",
  id: "p.id",
};
const HIT_COLUMNS: OrderColumns = {
  relevance: "h.relevance",
  sortKey: () => "h.sort_key",
  createdUtc: "h.created_utc",
  id: "h.id",
};

/** The ORDER BY keys. */
function orderClause(f: PostFilters, col: OrderColumns): string {
  const dir = f.sortOrder === "asc" ? "ASC" : "DESC";
  // With a search and no explicit sort, relevance is the sort key: desc (the default) is best match first.
  // bm25() is lower-is-better, so its direction is the opposite of sort_order.
  if (f.sortBy === undefined && f.search !== undefined) {
    return `${col.relevance} ${f.sortOrder === "asc" ? "DESC" : "ASC"}, ${col.createdUtc} ${dir}, ${col.id} ${dir}`;
  }
  const sortBy = f.sortBy ?? "date";
  // Ties are broken by date, then id, in the same direction, so paging is stable.
  const keys = sortBy === "date" ? [col.createdUtc, col.id] : [col.sortKey(sortBy), col.createdUtc, col.id];
  return keys.map((k) => `${k} ${dir}`).join(", ");
}

const ranksByRelevance = (f: PostFilters) => f.sortBy === undefined && f.search !== undefined;

/**
 * The statements of one GET /posts page. `page` returns the page's rows. When the page's ordered ids come
 * from one index walk that also serves the count (no filter, one filter in date order, a keyword's links)
 * or from a search's candidates, page and count are one pass (`onePassPage`): `page` carries the count in a
 * `total_count` column of every row, and `count` is needed only when that page is empty past the first row
 * (offset beyond the last match). Otherwise (`countInPage` false) `count` runs beside `page`, each on the
 * index that suits it.
 */
export interface PostsQueries {
  page: BuiltQuery;
  count: BuiltQuery;
  countInPage: boolean;
  /**
   * The most rows a count reads: `offset + limit + COUNT_LOOKAHEAD`. A count that reaches it is a lower
   * bound (`count_is_estimate`); a search ranks and sorts only its newest `countBound` hits.
   */
  countBound: number;
}

/**
 * How many matching rows past the page a count reads, at most (docs/scaling.md, "count"). Counting is
 * exact up to `offset + limit + COUNT_LOOKAHEAD`; beyond it `count` is that bound and flagged as an
 * estimate, so a request never reads more than about 1,100 index entries for its count at the default
 * page, however many posts match. A search ranks, sorts and counts the same bounded candidate set: its
 * hits newest first (highest id, the order the index keeps), at most `countBound` of them.
 */
export const COUNT_LOOKAHEAD = 1000;

/** The number a listing answers as `count`, and whether it is only a lower bound (the count reached its bound). */
export function boundedCount(counted: number, q: Pick<PostsQueries, "countBound">) {
  return { count: Math.min(counted, q.countBound), countIsEstimate: counted >= q.countBound };
}

/**
 * Counting one keyword's posts checks each of them for workspace and `archived` in the narrow
 * posts_id_filters_idx, not in the wide rows (6 against 22 ms for 8,000 posts). Without statistics SQLite
 * rates the two equal and takes whichever index comes first, so it is named here. Only when nothing else
 * about the row is asked (another filter would read the row anyway).
 */
function countFrom(from: string, f: PostFilters): string {
  const keywordOnly = f.keywordId !== undefined && f.search === undefined && noRowFilters(f);
  return keywordOnly ? "posts p INDEXED BY posts_id_filters_idx" : from;
}

/**
 * Only a keyword, its posts not archived, in date order: the page's ids and the count come from the links
 * alone, which carry their post's `archived` and `created_utc` (migration 0062), through
 * post_keywords_keyword_date_idx: one index entry per post, where walking the workspace's date index and
 * checking each post against the keyword's links read about 100 ÷ the keyword's share of the posts.
 */
const keywordLinksOnly = (f: PostFilters) =>
  f.keywordId !== undefined && f.search === undefined && noRowFilters(f) && !f.includeArchived && byDate(f);

/** How many of subreddit, priority, answered_status and has_competitors are asked. */
const rowFilterCount = (f: PostFilters) =>
  [f.subreddit, f.priority, f.answered, f.hasCompetitors].filter((v) => v !== undefined).length;

/**
 * Whether the page's ordered ids, without a search or keyword, come from one index walk that reads index
 * entries only, the count's entries among them: no filter (each sort has its index, include_archived in
 * date order too), or one filter in date order (each filter has a date index). Then page and count are one
 * pass. With more filters, or a filter and another sort, the page checks rows along its sort's index while
 * the count reads the filters' index alone: two statements read less.
 */
const idsFromOneIndex = (f: PostFilters) =>
  f.keywordId === undefined &&
  f.search === undefined &&
  (rowFilterCount(f) === 0
    ? !f.includeArchived || byDate(f)
    : rowFilterCount(f) === 1 && !f.includeArchived && byDate(f));

/** Post ids are below 2^32 (migration 0060): at most 10 digits. */
const ID_DIGITS = 10;

/**
 * Page and count in one pass over the ordered ids (`orderedIds`: a statement whose rows are `id`, in page
 * order, at most `countBound` of them). D1 counts every step of every cursor, so two statements (a page
 * skipping `offset` entries and a count reading `countBound`) read the same entries twice; here they are
 * walked once. The walk skips `offset` ids (`LIMIT countBound - offset OFFSET offset`) and an aggregate over
 * that co-routine both counts the rest and joins their ids, each padded to the same width, into one
 * string; the page is the string's first `limit` ids (`substr`, read back as a JSON array by json_each),
 * and the posts are read by primary key for those only. `total_count` is `offset` + the ids past it, which
 * is the bounded count whenever the page is not empty. The string holds at most `limit + COUNT_LOOKAHEAD`
 * ids (11 bytes each), whatever the offset. The aggregate takes the ids in the order the subquery walks
 * them: SQLite runs a LIMIT subquery in FROM as a co-routine in its ORDER BY order (an ordered aggregate,
 * `group_concat(... ORDER BY ...)`, would sort them again and read each once more);
 * test/api/posts-perf-shape.test.ts checks the plan and test/api/posts.test.ts the order of the pages.
 */
function onePassPage(
  orderedIds: string,
  params: (string | number)[],
  workspaceId: number,
  f: PostFilters,
  countBound: number,
): BuiltQuery {
  const width = ID_DIGITS + 1;
  return {
    sql:
      `WITH c AS (SELECT count(*) AS n, group_concat(printf('%${ID_DIGITS}d', ids.id), ',') AS ids ` +
      `FROM (${orderedIds} LIMIT ? OFFSET ?) AS ids) ` +
      `SELECT ${POST_COLUMNS}, ? + c.n AS total_count ` +
      `FROM c CROSS JOIN json_each('[' || substr(c.ids, 1, ? * ${width} - 1) || ']') AS pg CROSS JOIN posts p ON p.id = pg.value ` +
      "WHERE p.workspace_id = ? ORDER BY pg.key",
    params: [...params, countBound - f.offset, f.offset, f.offset, f.limit, workspaceId],
  };
}

function keywordLinksQueries(workspaceId: number, keywordId: number, f: PostFilters, countBound: number): PostsQueries {
  const links = "FROM post_keywords pk WHERE pk.keyword_id = ? AND pk.workspace_id = ? AND pk.archived = 0";
  const dir = f.sortOrder === "asc" ? "ASC" : "DESC";
  const orderedIds = `SELECT pk.post_id AS id ${links} ORDER BY pk.created_utc ${dir}, pk.post_id ${dir}`;
  return {
    page: onePassPage(orderedIds, [keywordId, workspaceId], workspaceId, f, countBound),
    count: {
      sql: `SELECT count(*) AS count FROM (SELECT 1 ${links} LIMIT ?)`,
      params: [keywordId, workspaceId, countBound],
    },
    countInPage: true,
    countBound,
  };
}

export function buildPostsQueries(workspaceId: number, f: PostFilters): PostsQueries {
  const countBound = f.offset + f.limit + COUNT_LOOKAHEAD;
  if (f.keywordId !== undefined && keywordLinksOnly(f))
    return keywordLinksQueries(workspaceId, f.keywordId, f, countBound);
  const { from, where, params } = whereClause(workspaceId, f);
  // A search's candidates are its newest hits: FTS5 walks the rowid range backwards and stops at the bound.
  const candidates = f.search !== undefined ? " ORDER BY posts_fts.rowid DESC" : "";
  const count = {
    sql: `SELECT count(*) AS count FROM (SELECT 1 FROM ${countFrom(from, f)} WHERE ${where}${candidates} LIMIT ?)`,
    params: [...params, countBound],
  };
  if (f.search !== undefined) {
    const ids = datedHitsOnly(f)
      ? datedSearchIds(workspaceId, f.search, f, countBound)
      : { sql: searchIds(from, where, f), params: [...params, countBound] };
    return { page: onePassPage(ids.sql, ids.params, workspaceId, f, countBound), count, countInPage: true, countBound };
  }
  const orderedIds = `SELECT p.id AS id FROM ${from} WHERE ${where} ORDER BY ${orderClause(f, ROW_COLUMNS)}`;
  if (idsFromOneIndex(f))
    return { page: onePassPage(orderedIds, params, workspaceId, f, countBound), count, countInPage: true, countBound };
  // Deferred join: the inner query picks the page's ids reading indexes only, and the columns are read for
  // those rows only.
  return {
    page: {
      sql: `SELECT ${POST_COLUMNS} FROM (${orderedIds} LIMIT ? OFFSET ?) AS pg JOIN posts p ON p.id = pg.id ORDER BY ${orderClause(f, ROW_COLUMNS)}`,
      params: [...params, f.limit, f.offset],
    },
    count,
    countInPage: false,
    countBound,
  };
}

/**
 * A search's ordered ids: its candidates (the newest `countBound` hits, each read once: its FTS entry and
 * its row by primary key, or its entry in posts_id_subreddit_idx) in a co-routine, sorted by the page's
 * order. Nothing is materialized: D1 counts a materialized table's rows again each time it is read. Takes
 * one more parameter, `countBound`.
 */
function searchIds(from: string, where: string, f: PostFilters): string {
  const relevance = ranksByRelevance(f);
  const sortKey = f.sortBy !== undefined && f.sortBy !== "date" ? `, ${SORT_COLUMN[f.sortBy]} AS sort_key` : "";
  const hits =
    `SELECT p.id AS id, p.created_utc AS created_utc${sortKey}${relevance ? ", bm25(posts_fts) AS relevance" : ""} ` +
    `FROM ${from} WHERE ${where} ORDER BY posts_fts.rowid DESC LIMIT ?`;
  return `SELECT h.id AS id FROM (${hits}) AS h ORDER BY ${orderClause(f, HIT_COLUMNS)}`;
}

/** A search that asks nothing of a hit's post but `archived` and its date: no other filter, by relevance or date. */
const datedHitsOnly = (f: PostFilters) => f.keywordId === undefined && noRowFilters(f) && byDate(f);

/**
 * The ordered ids of a search that asks nothing of a hit's post but `archived` and its date
 * (`datedHitsOnly`). Each hit's date is a scalar subquery into the narrow posts_id_filters_idx: it stops at
 * the entry it finds (one row read, none for an archived hit, whose date comes back NULL and drops it),
 * where a join there also steps to the next entry to end each lookup (two), and the primary key reads the
 * wide row (one, slower: SQLite time 1.7 against 3.0 ms for 1,221 hits at 100,000 posts). `LIMIT -1` keeps
 * the hits a co-routine, so the subquery runs once per hit rather than once in the filter and once more
 * for the value.
 */
function datedSearchIds(workspaceId: number, search: string, f: PostFilters, countBound: number): BuiltQuery {
  const hitId = `(posts_fts.rowid & ${FTS_POST_ID_MASK})`;
  const relevance = ranksByRelevance(f);
  const date =
    `(SELECT p.created_utc FROM posts p INDEXED BY posts_id_filters_idx WHERE p.id = ${hitId} AND p.workspace_id = ?` +
    `${f.includeArchived ? "" : " AND p.archived = 0"})`;
  const hits =
    `SELECT ${hitId} AS id, ${date} AS created_utc${relevance ? ", bm25(posts_fts) AS relevance" : ""} FROM posts_fts ` +
    "WHERE posts_fts MATCH ? AND posts_fts.rowid >= CAST(? AS INTEGER) AND posts_fts.rowid <= CAST(? AS INTEGER) " +
    "ORDER BY posts_fts.rowid DESC LIMIT -1";
  const candidates =
    `SELECT hit.id AS id, hit.created_utc AS created_utc${relevance ? ", hit.relevance AS relevance" : ""} ` +
    `FROM (${hits}) AS hit WHERE hit.created_utc IS NOT NULL LIMIT ?`;
  return {
    sql: `SELECT h.id AS id FROM (${candidates}) AS h ORDER BY ${orderClause(f, HIT_COLUMNS)}`,
    params: [
      workspaceId,
      scopeSearch(search, workspaceId),
      ftsRowid(workspaceId, 0),
      ftsRowid(workspaceId, FTS_POST_ID_MASK),
      countBound,
    ],
  };
}

export function buildPostByIdQuery(workspaceId: number, postId: number): BuiltQuery {
  return {
    sql: `SELECT ${POST_COLUMNS} FROM posts p WHERE p.workspace_id = ? AND p.id = ?`,
    params: [workspaceId, postId],
  };
}
