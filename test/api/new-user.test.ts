// What a new user hit: DELETE with a body, duplicate competitor aliases, reading one keyword,
// competitor or post, and error messages a person can act on.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { workspaceDb } from "../../src/db/client";
import { rematchBatch } from "../../src/monitor/rematch";
import { ADMIN_TOKEN, callJson, createTestWorkspace, type TestWorkspace } from "../helpers/api";

let ws: TestWorkspace;
let other: TestWorkspace;
beforeAll(async () => {
  ws = await createTestWorkspace("new user");
  other = await createTestWorkspace("new user, other workspace");
});

const API = "/api/v1";

describe("a DELETE with a body", () => {
  it("is 400 validation_failed on every kind of route and deletes nothing", async () => {
    const kw = await callJson(`${API}/keywords`, { key: ws.writeKey, method: "POST", body: { keyword: "to keep" } });
    expect(kw.status).toBe(201);
    const res = await callJson(`${API}/keywords/${kw.body.id}`, { key: ws.writeKey, method: "DELETE", body: { x: 1 } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("validation_failed");
    expect(res.body.error.details).toEqual([
      { path: "body", message: "a DELETE takes no body; send the request without one" },
    ]);
    expect((await callJson(`${API}/keywords/${kw.body.id}`, { key: ws.readKey })).status).toBe(200);

    // An empty JSON object is a body too; the admin API follows the same rule.
    const empty = await callJson(`${API}/keywords/${kw.body.id}`, { key: ws.writeKey, method: "DELETE", body: {} });
    expect(empty.status).toBe(400);
    const admin = await callJson(`/admin/v1/workspaces/${ws.id}/keys/1`, {
      key: ADMIN_TOKEN,
      method: "DELETE",
      body: { reason: "x" },
    });
    expect(admin.status).toBe(400);

    // Without a body the same DELETE works.
    expect((await callJson(`${API}/keywords/${kw.body.id}`, { key: ws.writeKey, method: "DELETE" })).status).toBe(204);
  });
});

describe("competitor aliases", () => {
  it("folds case-insensitive duplicates into the first spelling, on create and on update", async () => {
    const created = await callJson(`${API}/competitors`, {
      key: ws.writeKey,
      method: "POST",
      body: { name: "X4", keywords: ["a", "a", "A", "Straße", "STRASSE", "b"] },
    });
    expect(created.status).toBe(201);
    // NFKC + lower case: "Straße" and "STRASSE" differ ("ß" is not folded to "ss"), as names are compared.
    expect(created.body.keywords).toEqual(["a", "Straße", "STRASSE", "b"]);
    const patched = await callJson(`${API}/competitors/${created.body.id}`, {
      key: ws.writeKey,
      method: "PATCH",
      body: { keywords: ["Café", "CAFÉ", " café "] },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.keywords).toEqual(["Café"]);
  });
});

describe("reading one keyword, competitor or post", () => {
  it("answers the same object the list has, 404 for another workspace's id", async () => {
    const kw = await callJson(`${API}/keywords`, { key: ws.writeKey, method: "POST", body: { keyword: "helpdesk" } });
    const comp = await callJson(`${API}/competitors`, {
      key: ws.writeKey,
      method: "POST",
      body: { name: "Zendesk", keywords: ["zendesk.com"] },
    });
    const one = await callJson(`${API}/keywords/${kw.body.id}`, { key: ws.readKey });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(kw.body);
    const oneComp = await callJson(`${API}/competitors/${comp.body.id}`, { key: ws.readKey });
    expect(oneComp.status).toBe(200);
    expect(oneComp.body).toEqual(comp.body);

    expect((await callJson(`${API}/keywords/${kw.body.id}`, { key: other.readKey })).status).toBe(404);
    expect((await callJson(`${API}/competitors/${comp.body.id}`, { key: other.readKey })).status).toBe(404);

    const post = await env.DB.prepare(
      `INSERT INTO posts (workspace_id, forum_id, subreddit, title, selftext, author, url, permalink, score, num_comments, created_utc)
       VALUES (?, 'abc123', 'SaaS', 'Which helpdesk?', 'body', 'someone', 'https://www.reddit.com/r/SaaS/comments/abc123/x/', '/r/SaaS/comments/abc123/x/', 3, 1, '2026-11-20T08:15:00.000Z')
       RETURNING id`,
    )
      .bind(ws.id)
      .first<{ id: number }>();
    // The keyword and competitor created above queued a background re-match of the workspace's posts
    // (monitor.rematch, docs/monitoring.md), which links this post to "helpdesk" and re-scores it. Its delivery
    // may come before or after the post is written, or between the two reads below: run it to the end now, so
    // both reads see the settled post and a late delivery finds nothing to change.
    for (let after: number | null = 0; after !== null; )
      after = (await rematchBatch(workspaceDb(env, ws.id), after)).next;
    const list = await callJson(`${API}/posts`, { key: ws.readKey });
    const listed = list.body.data.find((p: { id: number }) => p.id === post!.id);
    const got = await callJson(`${API}/posts/${post!.id}`, { key: ws.readKey });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(listed);
    const missing = await callJson(`${API}/posts/${post!.id}`, { key: other.readKey });
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe("post not found");
  });
});

describe("messages a person can act on", () => {
  it("an offset far out of range is one detail saying the range", async () => {
    const res = await callJson(`${API}/posts?offset=99999999999999999999`, { key: ws.readKey });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      { path: "query.offset", message: "must be a whole number from 0 up to 9007199254740991" },
    ]);
    const limit = await callJson(`${API}/posts?limit=501`, { key: ws.readKey });
    expect(limit.body.error.details).toEqual([{ path: "query.limit", message: "must be from 1 to 500" }]);
  });

  it("a key sent with another scheme than Bearer says to use Bearer", async () => {
    const res = await callJson(`${API}/keywords`, { headers: { authorization: `Basic ${ws.readKey}` } });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toBe(
      "the Authorization header uses the Basic scheme; send the API key as Authorization: Bearer <key>",
    );
    const none = await callJson(`${API}/keywords`);
    expect(none.body.error.message).toBe("missing API key: send Authorization: Bearer <key>");
  });

  it("an empty search says the search is empty", async () => {
    const res = await callJson(`${API}/posts?search=%20`, { key: ws.readKey });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      { path: "query.search", message: "the search is empty; give words to search for, or leave search out" },
    ]);
  });
});
