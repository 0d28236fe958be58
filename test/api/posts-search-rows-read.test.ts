// What a search reads (docs/scaling.md), measured with D1's own meta.rows_read over every
// statement the route runs (runPostsQueries, with the parameters bound as the route binds them):
// - its own workspace's hits only: the rows read do not change when another workspace's hundreds of hits
//   of the same word come or go (every indexed word carries its workspace's tag, migration 0065);
// - within the target of docs/scaling.md, 3 × (rows returned + 100) + the count's entries: the candidates are read
//   once from the index, filters on subreddit and `archived` are answered inside it and FTS5 ranks the
//   candidates itself (migration 0066), so only the page's posts are read.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { scopeSearch } from "../../src/db/fts-terms";
import { buildPostsQueries, type PostFilters, runOnD1, runPostsQueries } from "../../src/db/posts-query";
import { createTestWorkspace } from "../helpers/api";
import { seedWorkspace } from "../helpers/seeded-posts";

const WORD = "pricing";
const BASE: PostFilters = { includeArchived: false, sortOrder: "desc", limit: 100, offset: 0 };

/** What GET /posts reads in `workspaceId` for `filters`, with what it answers. */
async function request(workspaceId: number, filters: Partial<PostFilters>) {
  const f = { ...BASE, ...filters };
  const page = await runPostsQueries(buildPostsQueries(workspaceId, f), f, runOnD1(env.DB));
  return { rowsRead: page.rowsRead, rows: page.rows.length, count: page.count };
}

describe("a search's rows read do not grow with other workspaces' hits", () => {
  let big: number;
  let small: number;

  beforeAll(async () => {
    big = (await createTestWorkspace("search rows: big")).id;
    await seedWorkspace(big, { count: 400, seed: 161, forumPrefix: "t3_big_" });
    small = (await createTestWorkspace("search rows: small")).id;
    await seedWorkspace(small, { count: 20, seed: 162, forumPrefix: "t3_small_" });
  });

  it("reads the same rows with or without another workspace's hundreds of hits beside it", async () => {
    const cases: Partial<PostFilters>[] = [
      { search: WORD, includeArchived: true },
      { search: WORD },
      { search: WORD, sortBy: "date" },
      { search: WORD, subreddit: "SaaS" },
    ];
    const among = await Promise.all(cases.map((f) => request(small, f)));
    expect(among[0]!.rows).toBeGreaterThan(0);
    const hits = async () =>
      (await env.DB.prepare("SELECT count(*) AS n FROM posts_fts WHERE posts_fts MATCH ?")
        .bind(`${scopeSearch(WORD, big)} OR ${scopeSearch(WORD, small)}`)
        .first<{ n: number }>())!.n;
    // Every workspace's hits together: far more than the small workspace's own.
    expect(await hits()).toBeGreaterThan(10 * among[0]!.rows);
    // The other workspace goes (its posts and their index entries with it).
    await env.DB.prepare("DELETE FROM workspaces WHERE id = ?").bind(big).run();
    expect(await hits()).toBeLessThan(10 * among[0]!.rows);
    const alone = await Promise.all(cases.map((f) => request(small, f)));
    expect(alone).toEqual(among);
  });
});

describe("a search reads within 3 × (rows returned + 100) + its count's entries", () => {
  let ws: number;

  beforeAll(async () => {
    ws = (await createTestWorkspace("search rows: budget")).id;
    await seedWorkspace(ws, { count: 1500, seed: 163, forumPrefix: "t3_budget_" });
  });

  const cases: [string, Partial<PostFilters>][] = [
    ["a word, best match", { search: WORD }],
    ["a phrase, best match", { search: '"customer support"' }],
    ["a prefix, by date", { search: "integrat*", sortBy: "date" }],
    ["a prefix, oldest first", { search: "integrat*", sortBy: "date", sortOrder: "asc" }],
    ["a word in one subreddit", { search: WORD, subreddit: "saas" }],
    ["worst match first, archived too", { search: "customer", sortOrder: "asc", includeArchived: true }],
    ["many hits, past the count's bound", { search: "alpha OR bravo OR charlie OR delta OR echo", limit: 50 }],
  ];
  it.each(cases)("%s", async (_name, filters) => {
    const r = await request(ws, filters);
    expect(r.rows).toBeGreaterThan(0);
    expect(r.rowsRead).toBeLessThanOrEqual(3 * (r.rows + 100) + r.count + 1);
  });

  it("a later page reads the hits ranked before it once more, and no more (docs/scaling.md)", async () => {
    for (const search of ["customer OR pricing", "pricing"]) {
      const offset = 100;
      const r = await request(ws, { search, offset });
      expect(r.rows).toBeGreaterThan(0);
      expect(r.rowsRead).toBeLessThanOrEqual(3 * (r.rows + 100) + r.count + 1 + offset);
    }
  });
});
