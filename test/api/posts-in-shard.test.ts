// A workspace placed in a second database (DB_SHARD_1) through WORKSPACE_SHARDS (src/db/client.ts,
// docs/scaling.md): the whole read API answers from that database, while its keys stay in the directory
// (DB). The Worker's own fetch handler is called with an env that lists the workspace as moved, exactly
// as production would be configured.
import { applyD1Migrations, createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import worker from "../../src";
import { createTestWorkspace, type TestWorkspace } from "../helpers/api";
import { type SeededWorkspace, seedWorkspace, toApiPost } from "../helpers/seeded-posts";

let ws: TestWorkspace;
let seeded: SeededWorkspace;
let shardedEnv: typeof env;

async function get<T = any>(path: string, key = ws.readKey): Promise<{ status: number; body: T }> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(`http://threadwatch.test${path}`, { headers: { authorization: `Bearer ${key}` } }),
    shardedEnv,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return { status: res.status, body: (await res.json()) as T };
}

beforeAll(async () => {
  await applyD1Migrations(env.DB_SHARD_1, env.TEST_MIGRATIONS);
  ws = await createTestWorkspace("moved to shard 1");
  // The directory row is copied into the shard so its foreign keys hold; keys stay in DB.
  await env.DB_SHARD_1.prepare("INSERT INTO workspaces (id, name) VALUES (?, ?)").bind(ws.id, "moved to shard 1").run();
  shardedEnv = { ...env, WORKSPACE_SHARDS: `${ws.id + 100000}:DB_SHARD_1, ${ws.id}:DB_SHARD_1` };
  // Written through the seeding module with the sharded env: the accessor sends the rows to DB_SHARD_1.
  seeded = await seedWorkspace(ws.id, { count: 120, seed: 5151 }, shardedEnv);
});

describe("a workspace in a second D1 binding", () => {
  it("has its rows in the shard only", async () => {
    const inShard = await env.DB_SHARD_1.prepare("SELECT count(*) AS n FROM posts WHERE workspace_id = ?")
      .bind(ws.id)
      .first<{ n: number }>();
    const inMain = await env.DB.prepare("SELECT count(*) AS n FROM posts WHERE workspace_id = ?")
      .bind(ws.id)
      .first<{ n: number }>();
    expect(inShard!.n).toBe(120);
    expect(inMain!.n).toBe(0);
  });

  it("lists, filters, sorts and pages its posts from the shard", async () => {
    const visible = seeded.posts.filter((p) => !p.archived);
    const all = await get("/api/v1/posts?limit=500");
    expect(all.status).toBe(200);
    expect(all.body.count).toBe(visible.length);
    expect(all.body.count_is_estimate).toBe(false);
    const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;
    expect([...all.body.data].sort(byId)).toEqual(visible.map(toApiPost).sort(byId));

    const high = await get("/api/v1/posts?priority=high&sort_by=score");
    expect(high.body.count).toBe(visible.filter((p) => p.priority === "high").length);
    const scores = high.body.data.map((p: { score: number }) => p.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));

    const keyword = seeded.keywords[0]!;
    const byKeyword = await get(`/api/v1/posts?keyword_id=${keyword.id}`);
    expect(byKeyword.body.count).toBe(visible.filter((p) => p.keywordIds.includes(keyword.id)).length);

    const page = await get("/api/v1/posts?limit=10&offset=10");
    expect(page.body.data).toHaveLength(10);
    expect(page.body.next_offset).toBe(20);
  });

  it("searches its posts in the shard's full-text index", async () => {
    const hits = seeded.posts.filter(
      (p) => !p.archived && `${p.title} ${p.selftext}`.toLowerCase().split(/\W+/).includes("pricing"),
    );
    expect(hits.length).toBeGreaterThan(0);
    const { status, body } = await get("/api/v1/posts?search=pricing&limit=500");
    expect(status).toBe(200);
    expect(body.count).toBe(hits.length);
    expect(body.data.map((p: { id: number }) => p.id).sort()).toEqual(hits.map((p) => p.id).sort());
  });

  it("reads one post, its keywords and competitors from the shard", async () => {
    const post = seeded.posts[0]!;
    const one = await get(`/api/v1/posts/${post.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(toApiPost(post));
    const keywords = await get("/api/v1/keywords");
    expect(keywords.body.data.map((k: { keyword: string }) => k.keyword).sort()).toEqual(
      seeded.keywords.map((k) => k.keyword).sort(),
    );
    const competitors = await get("/api/v1/competitors");
    expect(competitors.body.count).toBe(seeded.competitors.length);
  });

  it("without the shard listed, the same key sees an empty workspace in DB", async () => {
    const saved = shardedEnv;
    shardedEnv = { ...env, WORKSPACE_SHARDS: "" };
    try {
      const { body } = await get("/api/v1/posts");
      expect(body.count).toBe(0);
    } finally {
      shardedEnv = saved;
    }
  });
});
