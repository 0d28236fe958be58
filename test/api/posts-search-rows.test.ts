// A search reads its own workspace's full-text hits only (issue 16, docs/scaling.md), with the parameters
// bound as the route binds them. D1 binds a JavaScript number as a REAL, and FTS5 takes a rowid bound only
// when it is an INTEGER (otherwise it walks every workspace's hits and SQLite drops the others' after
// reading them), so the statement casts the workspace's rowid range. Measured with D1's own meta.rows_read.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { scopeSearch } from "../../src/db/fts-terms";
import { buildPostsQueries } from "../../src/db/posts-query";
import { createTestWorkspace } from "../helpers";
import { seedWorkspace } from "./seed";

const WORD = "pricing";

/** What the route's page statement of `search` reads in `workspaceId`, and the rows it answers. */
async function searchPage(workspaceId: number, search: string) {
  const { page } = buildPostsQueries(workspaceId, {
    includeArchived: true,
    sortOrder: "desc",
    limit: 100,
    offset: 0,
    search,
  });
  const r = await env.DB.prepare(page.sql)
    .bind(...page.params)
    .all();
  return { rowsRead: r.meta.rows_read ?? 0, rows: r.results.length };
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
    const among = await searchPage(small, WORD);
    expect(among.rows).toBeGreaterThan(0);
    const hits = async () =>
      (await env.DB.prepare("SELECT count(*) AS n FROM posts_fts WHERE posts_fts MATCH ?")
        .bind(`${scopeSearch(WORD, big)} OR ${scopeSearch(WORD, small)}`)
        .first<{ n: number }>())!.n;
    // Every workspace's hits together: far more than the small workspace's own.
    expect(await hits()).toBeGreaterThan(10 * among.rows);
    // The other workspace goes (its posts and their index entries with it).
    await env.DB.prepare("DELETE FROM workspaces WHERE id = ?").bind(big).run();
    expect(await hits()).toBeLessThan(10 * among.rows);
    const alone = await searchPage(small, WORD);
    expect(alone.rows).toBe(among.rows);
    expect(among.rowsRead).toBe(alone.rowsRead);
  });
});
