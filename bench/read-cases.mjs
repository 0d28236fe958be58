// The cases of `npm run bench:read` (bench/read.mjs), also timed on SQLite alone by `npm run bench:read-sql`
// (bench/read-sql.mjs): one list, so both benches measure the same statements.

/**
 * The cases: the query string the client sends and the filters the route derives from it (the route's
 * defaults: archived excluded, sort date desc, limit 100, offset 0). `{keywordId}` is the workspace's
 * "email marketing" keyword. `many` marks the cases of the many-workspace database.
 */
export const CASES = [
  { group: "default", name: "no filter (date desc)", query: "", filters: {}, many: true },
  {
    group: "filter",
    name: "keyword_id",
    query: "keyword_id={keywordId}",
    filters: { keywordId: "{keywordId}" },
    many: true,
  },
  { group: "filter", name: "subreddit", query: "subreddit=SaaS", filters: { subreddit: "SaaS" }, many: true },
  { group: "filter", name: "priority=high", query: "priority=high", filters: { priority: "high" }, many: true },
  { group: "filter", name: "answered_status=answered", query: "answered_status=answered", filters: { answered: true } },
  {
    group: "filter",
    name: "answered_status=unanswered",
    query: "answered_status=unanswered",
    filters: { answered: false },
  },
  { group: "filter", name: "has_competitors=true", query: "has_competitors=true", filters: { hasCompetitors: true } },
  {
    group: "filter",
    name: "has_competitors=false",
    query: "has_competitors=false",
    filters: { hasCompetitors: false },
  },
  {
    group: "filter",
    name: "include_archived=true",
    query: "include_archived=true",
    filters: { includeArchived: true },
  },
  { group: "sort", name: "sort_by=priority", query: "sort_by=priority", filters: { sortBy: "priority" } },
  { group: "sort", name: "sort_by=urgency", query: "sort_by=urgency", filters: { sortBy: "urgency" } },
  {
    group: "sort",
    name: "sort_by=date asc",
    query: "sort_by=date&sort_order=asc",
    filters: { sortBy: "date", sortOrder: "asc" },
  },
  { group: "sort", name: "sort_by=score", query: "sort_by=score", filters: { sortBy: "score" } },
  { group: "sort", name: "sort_by=comments", query: "sort_by=comments", filters: { sortBy: "comments" } },
  {
    group: "search",
    name: "search word (best match)",
    query: "search=mailchimp",
    filters: { search: "mailchimp" },
    many: true,
  },
  {
    group: "search",
    name: "search phrase",
    query: "search=%22open+rate%22",
    filters: { search: '"open rate"' },
    many: true,
  },
  {
    group: "search",
    name: "search prefix, by date",
    query: "search=deliver*&sort_by=date",
    filters: { search: "deliver*", sortBy: "date" },
    many: true,
  },
  {
    group: "search",
    name: "search + subreddit",
    query: "search=mailchimp&subreddit=SaaS",
    filters: { search: "mailchimp", subreddit: "SaaS" },
  },
  {
    group: "combined",
    name: "priority+competitors+score",
    query: "priority=high&has_competitors=true&sort_by=score",
    filters: { priority: "high", hasCompetitors: true, sortBy: "score" },
  },
  { group: "paging", name: "offset=5000", query: "offset=5000", filters: { offset: 5000 } },
];

/** The route's defaults, under every case's filters. */
export const DEFAULT_FILTERS = { includeArchived: false, sortOrder: "desc", limit: 100, offset: 0 };
