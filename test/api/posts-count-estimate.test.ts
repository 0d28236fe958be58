// GET /posts counts at most `offset + limit + 1,000` matching rows (COUNT_LOOKAHEAD, docs/scaling.md): past
// that bound `count` is the bound and `count_is_estimate` is true, and a search ranks, sorts and counts only
// its newest that many hits. A request's rows read stay bounded however many posts match.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { buildPostsQueries, COUNT_LOOKAHEAD, type PostFilters } from "../../src/db/posts-query";
import { callJson, createTestWorkspace, type TestWorkspace } from "../helpers/api";
import { type SeededWorkspace, seedWorkspace } from "../helpers/seeded-posts";

const POSTS = 1600;
let ws: TestWorkspace;
let seeded: SeededWorkspace;

beforeAll(async () => {
  ws = await createTestWorkspace("count bound");
  seeded = await seedWorkspace(ws.id, { count: POSTS, seed: 1616 });
});

const visible = () => seeded.posts.filter((p) => !p.archived);
const get = (query: string) => callJson(`/api/v1/posts?${query}`, { key: ws.readKey });

describe("GET /posts: a bounded count", () => {
  it("is exact while the matches stay within offset + limit + 1,000", async () => {
    const { status, body } = await get("limit=500&offset=1000");
    expect(status).toBe(200);
    expect(body.count).toBe(visible().length);
    expect(body.count_is_estimate).toBe(false);
    expect(body.data).toHaveLength(visible().length - 1000);
  });

  it("past the bound answers the bound as a lower bound, flagged, and next_offset still pages on", async () => {
    expect(visible().length).toBeGreaterThan(1 + COUNT_LOOKAHEAD);
    const { status, body } = await get("limit=1");
    expect(status).toBe(200);
    expect(body.count).toBe(1 + COUNT_LOOKAHEAD);
    expect(Number.isInteger(body.count)).toBe(true);
    expect(body.count_is_estimate).toBe(true);
    expect(body.next_offset).toBe(1);
    // Deeper pages move the bound with them: at offset 600 the whole workspace is within it again.
    const deep = await get("limit=1&offset=600");
    expect(deep.body.count).toBe(visible().length);
    expect(deep.body.count_is_estimate).toBe(false);
  });

  it("reads at most the bound's index entries for the count, not every match", async () => {
    const filters: PostFilters = { includeArchived: true, sortOrder: "desc", limit: 1, offset: 0 };
    const { count } = buildPostsQueries(ws.id, filters);
    const result = await env.DB.prepare(count.sql)
      .bind(...count.params)
      .all<{ count: number }>();
    expect(result.results[0]!.count).toBe(1 + COUNT_LOOKAHEAD);
    expect(result.meta.rows_read).toBeLessThanOrEqual(1 + COUNT_LOOKAHEAD + 2);
    expect(result.meta.rows_read).toBeLessThan(POSTS);
  });

  it("a search past the bound ranks its newest hits only (by date, then id), best match first among them", async () => {
    // Every post has filler words; searching for all of them matches (nearly) every post. The seeded posts
    // share many dates, so "newest" must follow the listing's order, date then id, not the id alone.
    const words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"];
    const hits = visible()
      .filter((p) => words.some((w) => `${p.title} ${p.selftext}`.toLowerCase().split(/\W+/).includes(w)))
      .sort((a, b) => (a.created_utc < b.created_utc ? 1 : a.created_utc > b.created_utc ? -1 : b.id - a.id))
      .map((p) => p.id);
    expect(hits.length).toBeGreaterThan(1 + COUNT_LOOKAHEAD + 50);
    const candidates = new Set(hits.slice(0, 50 + COUNT_LOOKAHEAD));
    const { status, body } = await get(`search=${encodeURIComponent(words.join(" OR "))}&limit=50`);
    expect(status).toBe(200);
    expect(body.count).toBe(50 + COUNT_LOOKAHEAD);
    expect(body.count_is_estimate).toBe(true);
    expect(body.data).toHaveLength(50);
    for (const post of body.data) expect(candidates.has(post.id)).toBe(true);
    // The oldest hits are outside the candidate set, so they are never on the page.
    const oldest = new Set(hits.slice(50 + COUNT_LOOKAHEAD));
    expect(body.data.some((p: { id: number }) => oldest.has(p.id))).toBe(false);
  });

  it("a search within the bound counts exactly", async () => {
    const hits = visible().filter((p) => `${p.title} ${p.selftext}`.toLowerCase().split(/\W+/).includes("pricing"));
    expect(hits.length).toBeLessThan(100 + COUNT_LOOKAHEAD);
    const { body } = await get("search=pricing");
    expect(body.count).toBe(hits.length);
    expect(body.count_is_estimate).toBe(false);
  });
});
