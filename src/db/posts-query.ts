// Builds the SQL of GET /posts and runs it through a binding it is given (runOnD1). It imports no I/O (its
// one import is pure too, named with its extension), so the read benchmark runs the very same statements
// directly against the SQLite file to compare the service with the raw query.

import { searchMatch } from "./fts-terms.ts";

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
  /** What is listed: posts (the default) or comments (GET /comments), through the same statements. */
  source?: ListingSource;
}

/**
 * The tables of one listing. Posts and comments are stored alike (migrations 0074-0075 mirror the posts'
 * columns, indexes, links and full-text index), so one builder writes both listings' statements.
 */
export interface ListingSource {
  table: "posts" | "comments";
  fts: "posts_fts" | "comments_fts";
  keywordLinks: "post_keywords" | "comment_keywords";
  /** The link table's column naming the item. */
  linkItem: "post_id" | "comment_id";
  /** The narrow index a keyword's count checks (see countFrom). */
  idFiltersIndex: "posts_id_filters_idx" | "comments_id_filters_idx";
  /** The columns a row of the listing answers (read as `p`). */
  columns: string;
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
  p.matched_keywords, p.mentioned_competitors, p.value`;

export const COMMENT_COLUMNS = `p.id, p.forum_id, p.post_forum_id, p.subreddit, p.thread_title, p.body, p.author,
  p.permalink, p.score, p.created_utc, p.is_answered, p.archived, p.skipped, p.priority, p.urgency, p.score_reasons,
  p.matched_keywords, p.mentioned_competitors`;

export const POSTS_SOURCE: ListingSource = {
  table: "posts",
  fts: "posts_fts",
  keywordLinks: "post_keywords",
  linkItem: "post_id",
  idFiltersIndex: "posts_id_filters_idx",
  columns: POST_COLUMNS,
};

export const COMMENTS_SOURCE: ListingSource = {
  table: "comments",
  fts: "comments_fts",
  keywordLinks: "comment_keywords",
  linkItem: "comment_id",
  idFiltersIndex: "comments_id_filters_idx",
  columns: COMMENT_COLUMNS,
};

const sourceOf = (f: Pick<PostFilters, "source">) => f.source ?? POSTS_SOURCE;

/**
 * posts_fts's rowid (migration 0066): the post's date in whole seconds times 2^31, plus its id, so FTS5
 * keeps every term's hits in the listing's date order (date, then id). Such a rowid is beyond JavaScript's
 * exact integers: it never leaves SQL; statements hand back `rowid & FTS_POST_ID_MASK` (the id) and
 * `rowid >> 31` (the seconds), and a rowid that must come back in is passed as text.
 */
export const FTS_POST_ID_MASK = 2 ** 31 - 1;
const FTS_ID_BITS = 31;

/** The MATCH expression of a filter set's search, with the filters the index answers (fts-terms.ts). */
export const searchExpression = (workspaceId: number, f: PostFilters) =>
  searchMatch(f.search ?? "", workspaceId, { subreddit: f.subreddit, includeArchived: f.includeArchived });

/** No filter on the post row beyond workspace, `archived` and date: those live in narrower indexes too. */
const noRowFilters = (f: PostFilters) =>
  f.subreddit === undefined && f.priority === undefined && f.answered === undefined && f.hasCompetitors === undefined;

const byDate = (f: PostFilters) => f.sortBy === undefined || f.sortBy === "date";

function whereClause(
  workspaceId: number,
  f: PostFilters,
): { from: string; where: string; params: (string | number)[] } {
  const s = sourceOf(f);
  const params: (string | number)[] = [workspaceId];
  const conditions = ["p.workspace_id = ?"];
  let from = `${s.table} p`;
  if (f.search !== undefined) {
    // CROSS JOIN fixes the join order, FTS first. Left to the planner, SQLite 3.51 runs the MATCH once per
    // post of the workspace (seconds at 100,000 posts); which SQLite production D1 runs is not ours to choose.
    // Each hit's row is read once, by primary key (its id is the rowid's low bits). The MATCH already keeps
    // the workspace's posts, the subreddit and `archived` (searchExpression); the row checks below repeat
    // them at no cost, and add the filters the index does not hold.
    from = `${s.fts} CROSS JOIN ${s.table} p NOT INDEXED ON p.id = (${s.fts}.rowid & ${FTS_POST_ID_MASK})`;
    conditions.push(`${s.fts} MATCH ?`);
    params.push(searchExpression(workspaceId, f));
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
    conditions.push(`p.id IN (SELECT pk.${s.linkItem} FROM ${s.keywordLinks} pk WHERE pk.keyword_id = ?)`);
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
  /** A search by relevance (`indexedSearchQueries`): its page's statement depends on the first one's result. */
  ranked?: RankedSearch;
}

/**
 * How many matching rows past the page a count reads, at most (docs/scaling.md, "count"). Counting is
 * exact up to `offset + limit + COUNT_LOOKAHEAD`; beyond it `count` is that bound and flagged as an
 * estimate, so a request never reads more than about 1,100 index entries for its count at the default
 * page, however many posts match. A search ranks, sorts and counts the same bounded candidate set: its
 * hits newest first (by date, then id: the order the index keeps, migration 0066), at most `countBound` of them.
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
  const s = sourceOf(f);
  return keywordOnly ? `${s.table} p INDEXED BY ${s.idFiltersIndex}` : from;
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

/** Post ids are below 2^31 (migration 0066 refuses larger ones): at most 10 digits. */
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
 * test/api/posts-query-plans.test.ts checks the plan and test/api/posts.test.ts the order of the pages.
 */
export function onePassPage(
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
      `SELECT ${sourceOf(f).columns}, ? + c.n AS total_count ` +
      `FROM c CROSS JOIN json_each('[' || substr(c.ids, 1, ? * ${width} - 1) || ']') AS pg CROSS JOIN ${sourceOf(f).table} p ON p.id = pg.value ` +
      "WHERE p.workspace_id = ? ORDER BY pg.key",
    params: [...params, countBound - f.offset, f.offset, f.offset, f.limit, workspaceId],
  };
}

function keywordLinksQueries(workspaceId: number, keywordId: number, f: PostFilters, countBound: number): PostsQueries {
  const s = sourceOf(f);
  const links = `FROM ${s.keywordLinks} pk WHERE pk.keyword_id = ? AND pk.workspace_id = ? AND pk.archived = 0`;
  const dir = f.sortOrder === "asc" ? "ASC" : "DESC";
  const orderedIds = `SELECT pk.${s.linkItem} AS id ${links} ORDER BY pk.created_utc ${dir}, pk.${s.linkItem} ${dir}`;
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
  if (f.search !== undefined && hitsFromIndexAlone(f)) return indexedSearchQueries(workspaceId, f, countBound);
  const { from, where, params } = whereClause(workspaceId, f);
  // A search's candidates are its newest hits: FTS5 walks the rowids (date order) backwards and stops at the bound.
  const candidates = f.search !== undefined ? ` ORDER BY ${sourceOf(f).fts}.rowid DESC` : "";
  const count = {
    sql: `SELECT count(*) AS count FROM (SELECT 1 FROM ${countFrom(from, f)} WHERE ${where}${candidates} LIMIT ?)`,
    params: [...params, countBound],
  };
  if (f.search !== undefined) {
    const ids = searchIds(from, where, f);
    return {
      page: onePassPage(ids, [...params, countBound], workspaceId, f, countBound),
      count,
      countInPage: true,
      countBound,
    };
  }
  const orderedIds = `SELECT p.id AS id FROM ${from} WHERE ${where} ORDER BY ${orderClause(f, ROW_COLUMNS)}`;
  if (idsFromOneIndex(f))
    return { page: onePassPage(orderedIds, params, workspaceId, f, countBound), count, countInPage: true, countBound };
  // Deferred join: the inner query picks the page's ids reading indexes only, and the columns are read for
  // those rows only.
  return {
    page: {
      sql: `SELECT ${sourceOf(f).columns} FROM (${orderedIds} LIMIT ? OFFSET ?) AS pg JOIN ${sourceOf(f).table} p ON p.id = pg.id ORDER BY ${orderClause(f, ROW_COLUMNS)}`,
      params: [...params, f.limit, f.offset],
    },
    count,
    countInPage: false,
    countBound,
  };
}

/**
 * A search's ordered ids when its hits need their posts (another filter, or a sort by a post's field): its
 * candidates (the newest `countBound` hits that pass the filters, each read once: its FTS entry and its row
 * by primary key) in a co-routine, sorted by the page's order. Nothing is materialized: D1 counts a
 * materialized table's rows again each time it is read. Takes one more parameter, `countBound`.
 */
function searchIds(from: string, where: string, f: PostFilters): string {
  const relevance = ranksByRelevance(f);
  const fts = sourceOf(f).fts;
  const sortKey = f.sortBy !== undefined && f.sortBy !== "date" ? `, ${SORT_COLUMN[f.sortBy]} AS sort_key` : "";
  // `rank` is the table's bm25 with the facets column weighed 0 (migration 0066), as in the ranked search.
  const hits =
    `SELECT p.id AS id, p.created_utc AS created_utc${sortKey}${relevance ? `, ${fts}.rank AS relevance` : ""} ` +
    `FROM ${from} WHERE ${where} ORDER BY ${fts}.rowid DESC LIMIT ?`;
  return `SELECT h.id AS id FROM (${hits}) AS h ORDER BY ${orderClause(f, HIT_COLUMNS)}`;
}

/**
 * A search the index answers alone: no filter but the ones it holds (subreddit, `archived`), by relevance
 * or by date (the rowid's order). Its hits need no post row until the page.
 */
const hitsFromIndexAlone = (f: PostFilters) =>
  f.keywordId === undefined &&
  f.priority === undefined &&
  f.answered === undefined &&
  f.hasCompetitors === undefined &&
  byDate(f);

/** The hits a search reads, newest first (rowid order), at most the bound. */
const newestHits = (s: ListingSource) =>
  `SELECT rowid AS k FROM ${s.fts} WHERE ${s.fts} MATCH ? ORDER BY rowid DESC LIMIT ?`;

/** The candidates' count and lowest rowid, from one walk of the newest hits (parameters: match, bound). */
const candidateBounds = (s: ListingSource) => `SELECT count(*) AS n, min(h.k) AS low FROM (${newestHits(s)}) AS h`;

/**
 * The statements of a search the index answers alone (`hitsFromIndexAlone`). Its candidates are its newest
 * `countBound` hits, read from FTS5 in rowid order without a post lookup; their count is the count.
 *
 * - By date: the candidates are the page's order already (date, then id, newest first): page and count in
 *   one pass (`onePassPage`) over the rowids. Oldest first: counted from the newest end, then walked up
 *   from the lowest candidate.
 * - By relevance: `ranked` (below, run by `runPostsQueries`): the same walk of the candidates takes each
 *   one's score (`rank`, the table's bm25) and hands them all back in one aggregated row, so D1 counts
 *   the candidates' entries and nothing more (a sort in SQLite would read every candidate once more); the
 *   runner orders them exactly as documented (score, date, id) and the page's posts are read by id after.
 */
function indexedSearchQueries(workspaceId: number, f: PostFilters, countBound: number): PostsQueries {
  const match = searchExpression(workspaceId, f);
  const s = sourceOf(f);
  const count = { sql: `SELECT count(*) AS count FROM (${newestHits(s)})`, params: [match, countBound] };
  if (!ranksByRelevance(f) && f.sortOrder === "desc") {
    const orderedIds = `SELECT (rowid & ${FTS_POST_ID_MASK}) AS id FROM ${s.fts} WHERE ${s.fts} MATCH ? ORDER BY rowid DESC`;
    return { page: onePassPage(orderedIds, [match], workspaceId, f, countBound), count, countInPage: true, countBound };
  }
  if (!ranksByRelevance(f)) {
    // Oldest first among the newest candidates: counted once from the newest end (their count and lowest
    // rowid), then walked from that rowid up to the page, without sorting them.
    return {
      page: {
        sql:
          `WITH cand AS MATERIALIZED (${candidateBounds(s)}) ` +
          `SELECT ${s.columns}, (SELECT n FROM cand) AS total_count FROM (SELECT rowid AS k, rowid & ${FTS_POST_ID_MASK} AS id ` +
          `FROM ${s.fts} WHERE ${s.fts} MATCH ? AND rowid >= (SELECT low FROM cand) ORDER BY rowid ASC LIMIT ? OFFSET ?) AS pg ` +
          `CROSS JOIN ${s.table} p ON p.id = pg.id WHERE p.workspace_id = ? ORDER BY pg.k`,
        params: [match, countBound, match, f.limit, f.offset, workspaceId],
      },
      count,
      countInPage: true,
      countBound,
    };
  }
  // Every candidate's score, date and id in one string: one row, whatever their number. `%.17g` writes a
  // double so that it reads back the same, so equal scores stay equal and different ones different.
  const ranked: RankedSearch = {
    candidates: {
      sql:
        `SELECT count(*) AS total_count, group_concat(printf('%.17g %d %d', h.r, h.k >> ${FTS_ID_BITS}, h.k & ${FTS_POST_ID_MASK}), ',') AS hits ` +
        `FROM (SELECT rowid AS k, rank AS r FROM ${s.fts} WHERE ${s.fts} MATCH ? ORDER BY rowid DESC LIMIT ?) AS h`,
      params: [match, countBound],
    },
    // Each id is one primary-key lookup beside its json_each step (200 rows read for 100 posts; a literal
    // IN list reads the same, through a temporary index of the ids). No ORDER BY: sorting the rows back
    // into the ids' order would read each once more, so the runner orders them.
    page: (ids: number[]) => ({
      sql: `SELECT ${s.columns} FROM json_each(?) AS pg CROSS JOIN ${s.table} p ON p.id = pg.value WHERE p.workspace_id = ?`,
      params: [JSON.stringify(ids), workspaceId],
    }),
  };
  return { page: ranked.candidates, count, countInPage: true, countBound, ranked };
}

/** The statements of a search by relevance (`indexedSearchQueries`), run in turn by `runPostsQueries`. */
export interface RankedSearch {
  /** One row: the candidates' count and, in `hits`, each candidate's score, date in seconds and id. */
  candidates: BuiltQuery;
  /** The page's posts (in no order: the runner orders them as `ids`). */
  page: (ids: number[]) => BuiltQuery;
}

interface RankedHit {
  secs: number;
  id: number;
  relevance: number;
}

/** The rows of one statement and what D1 read for it (`meta.rows_read`). */
export interface StatementRows {
  rows: Record<string, unknown>[];
  rowsRead: number;
}

/** Runs statements in one batch (one round trip), in order. */
export type RunStatements = (statements: BuiltQuery[]) => Promise<StatementRows[]>;

/** Runs a listing's statements on a D1 binding, one batch per call, with what D1 read for each. */
export const runOnD1 =
  (d1: D1Database): RunStatements =>
  async (statements) =>
    (await d1.batch(statements.map((s) => d1.prepare(s.sql).bind(...s.params)))).map((r) => ({
      rows: (r.results ?? []) as Record<string, unknown>[],
      rowsRead: r.meta.rows_read ?? 0,
    }));

export interface PostsPage {
  rows: Record<string, unknown>[];
  count: number;
  countIsEstimate: boolean;
  /** Summed over every statement run. */
  rowsRead: number;
}

/**
 * Runs the statements of one GET /posts page (`buildPostsQueries`) and answers its rows and bounded count:
 * the route and the read benchmark's bare Worker both run it, so they run the same statements. Almost
 * always one round trip; two for a search by relevance (its candidates' scores, then the page's posts), and
 * one more when a one-pass page past the last match carried no count.
 */
export async function runPostsQueries(q: PostsQueries, f: PostFilters, run: RunStatements): Promise<PostsPage> {
  let rowsRead = 0;
  const runOne = async (s: BuiltQuery) => {
    const [r] = await run([s]);
    rowsRead += r?.rowsRead ?? 0;
    return r?.rows ?? [];
  };
  if (q.ranked !== undefined) {
    const [summary] = await runOne(q.ranked.candidates);
    const counted = Number(summary?.total_count ?? 0);
    const hits = String(summary?.hits ?? "")
      .split(",")
      .filter((hit) => hit !== "")
      .map((hit): RankedHit => {
        const [relevance, secs, id] = hit.split(" ").map(Number);
        return { relevance: relevance ?? 0, secs: secs ?? 0, id: id ?? 0 };
      });
    const ids = orderHits(hits, f)
      .slice(f.offset, f.offset + f.limit)
      .map((h) => h.id);
    const found = ids.length > 0 ? await runOne(q.ranked.page(ids)) : [];
    const byId = new Map(found.map((row) => [Number(row.id), row]));
    // A post deleted between the two statements is left out, as it would be from a later request.
    const rows = ids.flatMap((id) => {
      const row = byId.get(id);
      return row === undefined ? [] : [row];
    });
    return { rows, ...boundedCount(counted, q), rowsRead };
  }
  const results = await run(q.countInPage ? [q.page] : [q.page, q.count]);
  rowsRead += results.reduce((sum, r) => sum + r.rowsRead, 0);
  const rows = results[0]?.rows ?? [];
  let counted: number;
  if (!q.countInPage) counted = Number(results[1]?.rows[0]?.count ?? 0);
  else if (rows.length > 0) counted = Number(rows[0]?.total_count ?? 0);
  else if (f.offset === 0) counted = 0;
  // A one-pass page past its last match carried no count, so it is asked for on its own.
  else counted = Number((await runOne(q.count))[0]?.count ?? 0);
  return { rows, ...boundedCount(counted, q), rowsRead };
}

/**
 * The candidates, sorted in place into the page's order: by score (bm25, lower is better: best first for `desc`), then by
 * date, then id, in the direction of the sort.
 */
function orderHits(hits: RankedHit[], f: PostFilters): RankedHit[] {
  const sign = f.sortOrder === "asc" ? 1 : -1;
  return hits.sort((a, b) => {
    if (a.relevance !== b.relevance) return sign * (b.relevance - a.relevance);
    return sign * (a.secs - b.secs || a.id - b.id);
  });
}

export function buildPostByIdQuery(workspaceId: number, postId: number, s = POSTS_SOURCE): BuiltQuery {
  return {
    sql: `SELECT ${s.columns} FROM ${s.table} p WHERE p.workspace_id = ? AND p.id = ?`,
    params: [workspaceId, postId],
  };
}
