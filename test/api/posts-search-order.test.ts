// A search by relevance (migration 0066, posts-query.ts) reads each candidate's score in the walk that
// counts them, hands them back in one aggregated row, and the runner orders them: by score, then date, then
// id, as documented. Here every post scores one of three values, so runs of equal scores are hundreds long
// and dates repeat: every page, at every size and offset, must be exactly the documented order.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { buildPostsQueries, type PostFilters, runOnD1, runPostsQueries } from "../../src/db/posts-query";
import { callJson, createTestWorkspace, type TestWorkspace } from "../helpers/api";
import { prng } from "../helpers/seeded-posts";

interface Post {
  id: number;
  created_utc: string;
  archived: boolean;
  /** Lower is a better match: 0 twice "pricing" in three words, 1 once in three, 2 once in six. */
  group: number;
}

const TEXTS = ["pricing pricing alpha", "pricing alpha bravo", "pricing alpha bravo charlie delta echo"];
const GROUP_SIZES = [30, 240, 40];

let ws: TestWorkspace;
let posts: Post[];

beforeAll(async () => {
  ws = await createTestWorkspace("ranked ties");
  const rand = prng(1666);
  const drafts = GROUP_SIZES.flatMap((n, group) => Array.from({ length: n }, () => group)).map((group, i) => ({
    group,
    // Few distinct seconds, so dates tie too and the id decides.
    created_utc: new Date(Date.UTC(2026, 10, 1, 10, 0, rand.int(20))).toISOString(),
    archived: rand.chance(0.1),
    forumId: `t3_rank_${i}`,
  }));
  // Inserted in a shuffled order, so ids do not follow dates.
  for (let i = drafts.length - 1; i > 0; i--) {
    const j = rand.int(i + 1);
    [drafts[i], drafts[j]] = [drafts[j]!, drafts[i]!];
  }
  const rows = await env.DB.batch(
    drafts.map((d) =>
      env.DB.prepare(
        `INSERT INTO posts (workspace_id, forum_id, subreddit, title, selftext, author, url, permalink, created_utc, archived)
         VALUES (?, ?, 'SaaS', ?, '', 'someone', 'https://www.reddit.com/r/SaaS/', '/r/SaaS/', ?, ?) RETURNING id`,
      ).bind(ws.id, d.forumId, TEXTS[d.group]!, d.created_utc, d.archived ? 1 : 0),
    ),
  );
  posts = drafts.map((d, i) => ({ ...d, id: (rows[i]!.results[0] as { id: number }).id }));
});

/** The documented order of a search for "pricing": best match first, then newest, then highest id. */
function expected(order: "asc" | "desc", includeArchived = false): number[] {
  const dir = order === "asc" ? -1 : 1;
  return posts
    .filter((p) => includeArchived || !p.archived)
    .sort(
      (a, b) =>
        dir * (a.group - b.group) ||
        -dir * (a.created_utc < b.created_utc ? -1 : a.created_utc > b.created_utc ? 1 : 0) ||
        -dir * (a.id - b.id),
    )
    .map((p) => p.id);
}

async function page(query: Record<string, string>) {
  const res = await callJson(`/api/v1/posts?${new URLSearchParams({ search: "pricing", ...query })}`, {
    key: ws.readKey,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { data: { id: number }[]; count: number; next_offset: number | null };
}

/** How many statements the runner sends for `filters`. */
async function statementsFor(filters: Partial<PostFilters>) {
  const f: PostFilters = {
    includeArchived: false,
    sortOrder: "desc",
    limit: 100,
    offset: 0,
    search: "pricing",
    ...filters,
  };
  let statements = 0;
  const result = await runPostsQueries(buildPostsQueries(ws.id, f), f, (batch) => {
    statements += batch.length;
    return runOnD1(env.DB)(batch);
  });
  return { statements, ids: result.rows.map((r) => Number(r.id)), rowsRead: result.rowsRead };
}

describe("a search ranked by FTS5 keeps the documented order through runs of equal scores", () => {
  it.each([
    ["desc", 7],
    ["desc", 100],
    ["asc", 13],
    ["asc", 100],
  ] as const)("sort_order=%s, pages of %i: every page is the documented order", async (order, limit) => {
    const all = expected(order);
    const seen: number[] = [];
    for (let offset = 0; offset < all.length; offset += limit) {
      const body = await page({ sort_order: order, limit: String(limit), offset: String(offset) });
      expect(body.count).toBe(all.length);
      expect(
        body.data.map((p) => p.id),
        `offset ${offset}`,
      ).toEqual(all.slice(offset, offset + limit));
      seen.push(...body.data.map((p) => p.id));
    }
    expect(seen).toEqual(all);
  });

  it("archived posts too, when asked", async () => {
    const all = expected("desc", true);
    expect(all.length).toBeGreaterThan(expected("desc").length);
    const body = await page({ include_archived: "true", limit: "100", offset: "20" });
    expect(body.data.map((p) => p.id)).toEqual(all.slice(20, 120));
  });

  it("is two statements: the candidates read once, then the page's posts", async () => {
    for (const filters of [{ limit: 7 }, { limit: 7, offset: GROUP_SIZES[0]! }, { sortOrder: "asc" as const }]) {
      const f = { limit: 100, offset: 0, sortOrder: "desc" as const, ...filters };
      const r = await statementsFor(f);
      expect(r.statements).toBe(2);
      expect(r.ids).toEqual(expected(f.sortOrder).slice(f.offset, f.offset + f.limit));
      // Each candidate's entry once, then each post and its json_each step.
      expect(r.rowsRead).toBe(expected("desc").length + 2 * r.ids.length);
    }
  });
});
