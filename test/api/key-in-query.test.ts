// GET /posts checks the caller's key in the same D1 batch as its page and count (src/auth/key-in-query.ts).
// What must hold: its statements return nothing for a key that is not live, a bad key outranks every other
// error of the route, searches still count right when their page is empty, and the route is the one marked.
import { env } from "cloudflare:workers";
import { Hono } from "hono";
import { beforeAll, describe, expect, it } from "vitest";
import type { AppEnv } from "../../src/app-env";
import { checksKeyInQuery } from "../../src/auth/key-in-query";
import { sha256Hex } from "../../src/auth/keys";
import { createKey, revokeKey } from "../../src/db/api-keys";
import { directoryDb } from "../../src/db/client";
import { liveKeyWorkspace } from "../../src/db/key-sql";
import { buildPostsQueries, type PostFilters } from "../../src/db/posts-query";
import { postsRouter } from "../../src/routes/posts";
import { callJson, createTestWorkspace, type TestWorkspace } from "../helpers";
import { type SeededWorkspace, seedWorkspace } from "./seed";

const FILTERS: PostFilters = { includeArchived: true, sortOrder: "desc", limit: 500, offset: 0 };

let ws: TestWorkspace;
let seeded: SeededWorkspace;
let revokedKey: string;
let expiredKey: string;
const unknownKey = `tw_live_${"x".repeat(40)}`;

beforeAll(async () => {
  ws = await createTestWorkspace("key in query");
  seeded = await seedWorkspace(ws.id, { count: 60, seed: 5, forumPrefix: "kq" });
  const db = directoryDb(env);
  const revoked = await createKey(db, ws.id, { name: "revoked", scope: "read" });
  await revokeKey(db, ws.id, revoked.record.id);
  revokedKey = revoked.key;
  expiredKey = (
    await createKey(db, ws.id, { name: "expired", scope: "read", expiresAt: new Date(Date.now() - 1000).toISOString() })
  ).key;
});

/** Runs GET /posts' statements for the workspace of `key` as seen at `at`, the way the route scopes them. */
async function rowsForKey(key: string, filters: Partial<PostFilters> = {}, at = new Date()) {
  const q = buildPostsQueries(liveKeyWorkspace(await sha256Hex(key), at.toISOString()), { ...FILTERS, ...filters });
  const page = await env.DB.prepare(q.page.sql)
    .bind(...q.page.params)
    .all();
  const count = await env.DB.prepare(q.count.sql)
    .bind(...q.count.params)
    .first<{ count: number }>();
  return { page: page.results.length, count: count?.count };
}

describe("statements scoped by the live-key subquery", () => {
  it("read the key's workspace for a live key, and nothing for a revoked, expired or unknown one", async () => {
    expect(await rowsForKey(ws.readKey)).toEqual({ page: seeded.posts.length, count: seeded.posts.length });
    expect((await rowsForKey(ws.readKey, { search: "pricing" })).page).toBeGreaterThan(0);
    for (const key of [revokedKey, expiredKey, unknownKey]) {
      expect(await rowsForKey(key)).toEqual({ page: 0, count: 0 });
      expect(await rowsForKey(key, { search: "pricing" })).toEqual({ page: 0, count: 0 });
    }
  });

  it("stop reading a temporary key's workspace the moment it expires", async () => {
    const expiresAt = new Date(Date.now() + 60_000);
    const temporary = (
      await createKey(directoryDb(env), ws.id, { name: "soon", scope: "read", expiresAt: expiresAt.toISOString() })
    ).key;
    expect((await rowsForKey(temporary, {}, new Date(expiresAt.getTime() - 1))).count).toBe(seeded.posts.length);
    expect((await rowsForKey(temporary, {}, expiresAt)).count).toBe(0);
  });
});

describe("GET /posts: the key decides first", () => {
  const deadKeys = () =>
    [
      ["unknown", unknownKey, "unknown API key"],
      ["revoked", revokedKey, "API key has been revoked"],
      ["expired", expiredKey, "API key has expired"],
    ] as const;

  it("answers 401 for a dead key even when the query is invalid or the search malformed", async () => {
    for (const [, key, message] of deadKeys()) {
      for (const query of ["", "?limit=0", "?sort_by=nope", "?search=%22unclosed", "?search=pricing"]) {
        const res = await callJson(`/api/v1/posts${query}`, { key });
        expect([query, res.status, res.body.error?.code, res.body.error?.message]).toEqual([
          query,
          401,
          "unauthorized",
          message,
        ]);
        expect(res.res.headers.get("www-authenticate")).toBe("Bearer");
      }
    }
  });

  it("answers 400 for the same mistakes with a live key", async () => {
    for (const query of ["?limit=0", "?sort_by=nope", "?search=%22unclosed"]) {
      const res = await callJson(`/api/v1/posts${query}`, { key: ws.readKey });
      expect([query, res.status, res.body.error?.code]).toEqual([query, 400, "validation_failed"]);
    }
  });

  it("records the key's use (last_used_at) as every other route does", async () => {
    const fresh = await createKey(directoryDb(env), ws.id, { name: "fresh", scope: "read" });
    expect((await callJson("/api/v1/posts?limit=1", { key: fresh.key })).status).toBe(200);
    const row = await env.DB.prepare("SELECT last_used_at FROM api_keys WHERE id = ?")
      .bind(fresh.record.id)
      .first<{ last_used_at: string | null }>();
    expect(row?.last_used_at).not.toBeNull();
  });
});

describe("GET /posts search counts", () => {
  it("gives the right count on a page past the last hit, and on pages inside", async () => {
    const all = await callJson("/api/v1/posts?search=pricing&include_archived=true&limit=500", { key: ws.readKey });
    const total = all.body.count as number;
    expect(total).toBeGreaterThan(3);
    expect(all.body.data).toHaveLength(total);
    const middle = await callJson(`/api/v1/posts?search=pricing&include_archived=true&limit=2&offset=${total - 3}`, {
      key: ws.readKey,
    });
    expect([middle.body.data.length, middle.body.count, middle.body.next_offset]).toEqual([2, total, total - 1]);
    const past = await callJson(`/api/v1/posts?search=pricing&include_archived=true&offset=${total + 5}`, {
      key: ws.readKey,
    });
    expect([past.status, past.body.data.length, past.body.count, past.body.next_offset]).toEqual([200, 0, total, null]);
    const none = await callJson("/api/v1/posts?search=nosuchwordanywhere", { key: ws.readKey });
    expect([none.body.data.length, none.body.count]).toEqual([0, 0]);
  });
});

describe("which routes check the key in their own batch", () => {
  it("is GET /posts alone, found through Hono's routing", async () => {
    const seen: Record<string, boolean> = {};
    const app = new Hono<AppEnv>();
    app.use("*", async (c) => {
      seen[`${c.req.method} ${c.req.path}`] = checksKeyInQuery(c);
      return c.body(null, 204);
    });
    app.route("/api/v1", postsRouter);
    for (const [method, path] of [
      ["GET", "/api/v1/posts"],
      ["PATCH", "/api/v1/posts/1"],
      ["GET", "/api/v1/elsewhere"],
      ["POST", "/api/v1/posts"],
    ]) {
      await app.request(path!, { method });
    }
    expect(seen).toEqual({
      "GET /api/v1/posts": true,
      "PATCH /api/v1/posts/1": false,
      "GET /api/v1/elsewhere": false,
      "POST /api/v1/posts": false,
    });
  });
});
