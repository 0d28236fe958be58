// The shape of GET /posts' statements, as workerd's SQLite plans them: every filter, sort and search is
// served by an index (no scan of the posts table, no per-post probe), the count of two filters reads one
// index, and searches start from the FTS table. These are the plans behind bench:read's figures
// (docs/commands.md); a change that loses one of them would pass the behaviour tests and be seconds slower
// at 100,000 posts. Also: a search never reaches another workspace's posts, whatever FTS syntax it uses.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { buildPostsQueries, type PostFilters } from "../../src/db/posts-query";
import { callJson, createTestWorkspace, type TestWorkspace } from "../helpers/api";
import { seedWorkspace } from "../helpers/seeded-posts";

const BASE: PostFilters = { includeArchived: false, sortOrder: "desc", limit: 100, offset: 0 };

async function plan(sql: string, params: (string | number)[]): Promise<string[]> {
  const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...params)
    .all<{ detail: string }>();
  return results.map((r) => r.detail);
}

/** The plans of the statements the route sends for a workspace. */
async function plans(filters: Partial<PostFilters>) {
  const { page, count, countInPage } = buildPostsQueries(1, { ...BASE, ...filters });
  return { page: await plan(page.sql, page.params), count: await plan(count.sql, count.params), countInPage };
}

/** The same, with whether the search is ranked by FTS5 (its statements then run in turn). */
async function plansOf(filters: Partial<PostFilters>) {
  const { page, count, countInPage, ranked } = buildPostsQueries(1, { ...BASE, ...filters });
  return {
    page: await plan(page.sql, page.params),
    count: await plan(count.sql, count.params),
    countInPage,
    ranked: ranked !== undefined,
  };
}

/** A full pass over the posts table. */
const scansPosts = (steps: string[]) => steps.some((s) => /^SCAN p\b/.test(s));
/** A subquery run once per candidate post (the old EXISTS probes of post_keywords / post_competitors). */
const probesPerPost = (steps: string[]) => steps.some((s) => s.startsWith("CORRELATED"));

describe("GET /posts statements use indexes", () => {
  const cases: [string, Partial<PostFilters>, RegExp][] = [
    ["no filter", {}, /INDEX posts_ws_\w+_idx \(workspace_id=\? AND archived=\?\)/],
    ["priority", { priority: "high" }, /posts_ws_(priority|flags|priority_competitors_score)_idx/],
    ["answered", { answered: true }, /posts_ws_(answered|flags)_idx/],
    ["has_competitors", { hasCompetitors: false }, /posts_ws_(competitors|flags)_idx/],
    ["subreddit (NOCASE)", { subreddit: "saas" }, /posts_ws_subreddit_nocase_idx \(workspace_id=\? AND subreddit=\?/],
    ["include_archived", { includeArchived: true }, /posts_ws_all_date_idx/],
    // Only a keyword, not archived, by date: page and count from the links' own index (migration 0062).
    [
      "keyword",
      { keywordId: 7 },
      /COVERING INDEX post_keywords_keyword_date_idx \(keyword_id=\? AND workspace_id=\? AND archived=\?\)/,
    ],
    ["keyword, by score", { keywordId: 7, sortBy: "score" }, /post_keywords_keyword_idx \(keyword_id=\?\)/],
    [
      "two filters",
      { priority: "high", hasCompetitors: true },
      /posts_ws_(flags|priority_competitors_score)_idx \(workspace_id=\? AND archived=\? AND priority_rank=\? AND has_competitors=\?\)/,
    ],
  ];
  it.each(cases)("%s: the count reads an index, never every post", async (_name, filters, index) => {
    const { page, count } = await plans(filters);
    expect(count.join(" | ")).toMatch(index);
    expect(scansPosts(count)).toBe(false);
    expect(probesPerPost(count)).toBe(false);
    expect(scansPosts(page)).toBe(false);
    expect(page.join(" | ")).toMatch(/USING (COVERING )?INDEX/);
  });

  it("a keyword's page takes its ids from the links' index, then reads those posts by primary key", async () => {
    for (const filters of [{ keywordId: 7 }, { keywordId: 7, sortOrder: "asc" as const, offset: 300 }]) {
      const { page } = await plans(filters);
      const links = page.findIndex((s) => s.includes("COVERING INDEX post_keywords_keyword_date_idx"));
      const rows = page.indexOf("SEARCH p USING INTEGER PRIMARY KEY (rowid=?)");
      expect(links).toBeGreaterThanOrEqual(0);
      expect(rows).toBeGreaterThan(links);
      // Never a walk of the workspace's posts (it would scan the page's ids once per post).
      expect(page.join(" | ")).not.toMatch(/SEARCH p USING (COVERING )?INDEX posts_ws_/);
    }
  });

  it("the count of one keyword's posts reads the narrow id index, not the rows, whatever the index order", async () => {
    // Without statistics SQLite rates this index and the rows' primary key alike and takes the first it
    // finds; rebuilt (as an index repair or a restore would), the index comes last and the rows won.
    await env.DB.batch([
      env.DB.prepare("DROP INDEX posts_id_filters_idx"),
      env.DB.prepare("CREATE INDEX posts_id_filters_idx ON posts (id, workspace_id, archived, created_utc)"),
    ]);
    // (Only a keyword, not archived, by date is counted from the links alone: the cases above.)
    for (const filters of [
      { keywordId: 7, sortBy: "score" as const },
      { keywordId: 7, includeArchived: true },
    ]) {
      const { count } = await plans(filters);
      expect(count.join(" | ")).toMatch(/COVERING INDEX posts_id_filters_idx \(id=\?/);
      expect(count.join(" | ")).not.toMatch(/SEARCH p USING INTEGER PRIMARY KEY/);
    }
  });

  it.each(["priority", "urgency", "score", "comments"] as const)(
    "sort_by=%s walks its index (no sort of the workspace)",
    async (sortBy) => {
      const { page } = await plans({ sortBy });
      expect(page.join(" | ")).toMatch(new RegExp(`posts_ws_${sortBy}_idx`));
      // The only sorts left are of the 100 chosen rows and of the two subqueries' few names.
      expect(page.filter((s) => s.startsWith("USE TEMP B-TREE")).length).toBeLessThanOrEqual(3);
    },
  );

  it("a search the index answers alone reads no post until its page", async () => {
    // By relevance, with or without a subreddit or archived posts (facets in the index, migration 0066):
    // one walk of the candidates takes their scores (no sorter, nothing materialized, no post read); the
    // page's posts come in a statement of their own.
    for (const filters of [
      { search: "pricing" },
      { search: '"customer support"', subreddit: "SaaS" },
      { search: "integrat*", includeArchived: true, sortOrder: "asc" as const },
    ]) {
      const q = buildPostsQueries(1, { ...BASE, ...filters });
      expect(q.ranked).toBeDefined();
      const steps = await plan(q.ranked!.candidates.sql, q.ranked!.candidates.params);
      expect(steps.filter((s) => s.startsWith("SCAN posts_fts VIRTUAL TABLE"))).toHaveLength(1);
      expect(steps.filter((s) => /^(USE TEMP B-TREE|MATERIALIZE)/.test(s))).toEqual([]);
      expect(steps.join(" | ")).not.toMatch(/\bp\b|posts_id|posts_ws/);
      const page = await plan(q.ranked!.page([3, 1, 2]).sql, q.ranked!.page([3, 1, 2]).params);
      expect(page).toContain("SEARCH p USING INTEGER PRIMARY KEY (rowid=?)");
      expect(page.filter((s) => s.startsWith("USE TEMP B-TREE"))).toEqual([]);
    }
    // By date: the rowids are the date order, so page and count are one walk of the index and only the
    // page's posts are read (by primary key).
    for (const filters of [
      { search: '"customer support"', sortBy: "date" as const, includeArchived: true },
      { search: "pricing", sortBy: "date" as const, subreddit: "saas" },
    ]) {
      const { page, countInPage, ranked } = await plansOf(filters);
      expect(ranked).toBe(false);
      expect(countInPage).toBe(true);
      expect(page.filter((s) => s.startsWith("SCAN posts_fts VIRTUAL TABLE"))).toHaveLength(1);
      // FTS5 walks its rowids newest first (no sorter of the hits); the one sort is the page's rows put
      // back in the order of their ids, as in every one-pass page.
      expect(page.filter((s) => s.startsWith("SCAN posts_fts VIRTUAL TABLE"))[0]).toMatch(
        /^SCAN posts_fts VIRTUAL TABLE INDEX 192:/,
      );
      expect(page.filter((s) => s.startsWith("USE TEMP B-TREE"))).toEqual(["USE TEMP B-TREE FOR ORDER BY"]);
      expect(page.at(-1)).toBe("USE TEMP B-TREE FOR ORDER BY");
      expect(page.filter((s) => /^(SEARCH|SCAN) p\b/.test(s))).toEqual([
        "SEARCH p USING INTEGER PRIMARY KEY (rowid=?)",
      ]);
    }
  });

  it("a search with a filter the index does not hold looks each hit up once, by primary key", async () => {
    for (const filters of [
      { search: "pricing", sortBy: "score" as const },
      { search: "integrat*", keywordId: 3 },
      { search: "pricing", subreddit: "saas", priority: "high" as const, sortBy: "score" as const },
    ]) {
      const { page, count, ranked } = await plansOf(filters);
      expect(ranked).toBe(false);
      for (const steps of [page, count]) {
        const fts = steps.findIndex((s) => s.startsWith("SCAN posts_fts VIRTUAL TABLE"));
        const rows = steps.indexOf("SEARCH p USING INTEGER PRIMARY KEY (rowid=?)");
        expect(fts).toBeGreaterThanOrEqual(0);
        expect(rows).toBe(fts + 1);
        expect(steps.join(" | ")).not.toMatch(/SEARCH p USING (COVERING )?INDEX/);
      }
      // The page matches once and materializes nothing (D1 counts a materialized table's rows again on
      // every read): the candidates are counted and ordered in one pass over a co-routine.
      expect(page.filter((s) => s.startsWith("SCAN posts_fts VIRTUAL TABLE"))).toHaveLength(1);
      expect(page.filter((s) => s.startsWith("MATERIALIZE"))).toEqual([]);
      expect(page).toContain("CO-ROUTINE h");
    }
  });

  it("page and count are one pass when one index walk gives both", async () => {
    // The ordered ids are walked once, in a co-routine: an aggregate counts them and keeps the page's ids,
    // and only those rows are read. Nothing is materialized (D1 would count its rows once more per read).
    const onePass: Partial<PostFilters>[] = [
      {},
      { offset: 5000 },
      { subreddit: "saas" },
      { priority: "high" },
      { sortBy: "comments" },
      { includeArchived: true },
      { keywordId: 7, offset: 300 },
    ];
    for (const filters of onePass) {
      const { page, countInPage } = await plans(filters);
      expect(countInPage).toBe(true);
      expect(page.slice(0, 2)).toEqual(["CO-ROUTINE c", "CO-ROUTINE ids"]);
      expect(page[2]).toMatch(/^SEARCH (p|pk) USING (COVERING )?INDEX /);
      expect(page.filter((s) => s.startsWith("MATERIALIZE"))).toEqual([]);
      expect(page.filter((s) => s === "SEARCH p USING INTEGER PRIMARY KEY (rowid=?)")).toHaveLength(1);
      expect(page.indexOf("SEARCH p USING INTEGER PRIMARY KEY (rowid=?)")).toBeGreaterThan(page.indexOf("SCAN c"));
    }
    // Two filters: the page checks them along its sort's index while the count reads the filters' own
    // index, so two statements read less than one walk that both pages and counts.
    expect((await plans({ priority: "high", answered: true })).countInPage).toBe(false);
  });

  it("high priority with competitors by score takes the page's ids from one index (migration 0063)", async () => {
    const { page } = await plans({ priority: "high", hasCompetitors: true, sortBy: "score" });
    expect(page.join(" | ")).toMatch(
      /SEARCH p USING (COVERING )?INDEX posts_ws_priority_competitors_score_idx \(workspace_id=\? AND archived=\? AND priority_rank=\? AND has_competitors=\?\)/,
    );
    // The rows are read for the page's ids only, after they are chosen (no sort of the matches).
    expect(page.filter((s) => s === "SEARCH p USING INTEGER PRIMARY KEY (rowid=?)")).toHaveLength(1);
    expect(page.filter((s) => s.startsWith("USE TEMP B-TREE"))).toHaveLength(1);
  });
});

describe("search stays inside the caller's workspace", () => {
  let mine: TestWorkspace;
  let theirs: TestWorkspace;
  let theirIds: Set<number>;

  beforeAll(async () => {
    mine = await createTestWorkspace("search scope: mine");
    theirs = await createTestWorkspace("search scope: theirs");
    await seedWorkspace(mine.id, { count: 40, seed: 11, forumPrefix: "m" });
    const seeded = await seedWorkspace(theirs.id, { count: 40, seed: 12, forumPrefix: "t" });
    theirIds = new Set(seeded.posts.map((p) => p.id));
  });

  const queries = [
    "pricing",
    "pricing OR customer OR support OR integrat* OR migration",
    "NOT nosuchword",
    "title : pricing OR selftext : customer",
    "{title selftext} : (pricing OR customer)",
    "NEAR(customer support, 3)",
    "^pricing OR customer",
    "pricing) OR (customer",
    'workspace_id : "1" OR pricing',
  ];
  it.each(queries)("%j returns only the caller's posts (or is refused as malformed)", async (search) => {
    const res = await callJson(
      `/api/v1/posts?${new URLSearchParams({ search, include_archived: "true", limit: "500" })}`,
      { key: mine.readKey },
    );
    if (res.status === 400) {
      expect(res.body.error.code).toBe("validation_failed");
      return;
    }
    expect(res.status).toBe(200);
    const ids = (res.body.data as { id: number }[]).map((p) => p.id);
    expect(ids.filter((id) => theirIds.has(id))).toEqual([]);
    expect(res.body.count).toBe(ids.length);
  });

  it("the other workspace finds its own posts with the same query", async () => {
    const res = await callJson(
      `/api/v1/posts?${new URLSearchParams({ search: "pricing OR customer", include_archived: "true", limit: "500" })}`,
      { key: theirs.readKey },
    );
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
    for (const p of res.body.data as { id: number }[]) expect(theirIds.has(p.id)).toBe(true);
  });
});
