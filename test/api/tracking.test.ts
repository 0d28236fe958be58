// Keywords and competitors: list shapes (docs/api.md, "Keywords" and "Competitors"), create, patch, delete, duplicates.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { callJson, callJsonKeepingMonitorQueue, createTestWorkspace, type TestWorkspace } from "../helpers/api";
import { type SeededWorkspace, seedWorkspace, toApiPost } from "../helpers/seeded-posts";

let ws: TestWorkspace;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const write = (path: string, method: string, body?: unknown) =>
  callJson(`/api/v1${path}`, { key: ws.writeKey, method, body });
const list = async (path: string) => {
  const res = await callJson(`/api/v1${path}`, { key: ws.readKey });
  expect(res.status).toBe(200);
  return res.body as { data: any[]; count: number };
};

function expectValidation(res: { status: number; body: any }, path: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.error.code).toBe("validation_failed");
  expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
}

beforeAll(async () => {
  ws = await createTestWorkspace("tracking");
});

describe("keywords", () => {
  it("creates a keyword with defaults and lists it with every field docs/api.md gives a keyword", async () => {
    const created = await write("/keywords", "POST", { keyword: "  crm software  " });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      keyword: "crm software",
      active: true,
      is_ambiguous: false,
      search_volume: null,
      cpc: null,
      serp_forum_position: null,
      serp_forum_url: null,
      serp_checked_at: null,
      subreddits: [],
      created_at: expect.stringMatching(ISO),
    });
    const body = await list("/keywords");
    expect(body.count).toBe(body.data.length);
    expect(body.data).toContainEqual(created.body);
  });

  it("returns known metrics with their types", async () => {
    const created = await write("/keywords", "POST", { keyword: "measured", is_ambiguous: true, active: false });
    await env.DB.prepare(
      "UPDATE keywords SET search_volume = 1300, cpc = '4.25', serp_forum_position = 3, serp_forum_url = 'https://forum.test/r/x/1', serp_checked_at = '2026-11-01T00:00:00.000Z' WHERE id = ?",
    )
      .bind(created.body.id)
      .run();
    const found = (await list("/keywords")).data.find((k) => k.id === created.body.id);
    expect(found).toEqual({
      ...created.body,
      active: false,
      is_ambiguous: true,
      search_volume: 1300,
      cpc: "4.25",
      serp_forum_position: 3,
      serp_forum_url: "https://forum.test/r/x/1",
      serp_checked_at: "2026-11-01T00:00:00.000Z",
    });
  });

  it("refuses a duplicate keyword, compared case-insensitively, with 409 invalid_state", async () => {
    await write("/keywords", "POST", { keyword: "Helpdesk" });
    const before = await list("/keywords");
    for (const keyword of ["Helpdesk", "helpdesk", "HELPDESK", " helpDesk "]) {
      const res = await write("/keywords", "POST", { keyword });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe("invalid_state");
    }
    expect(await list("/keywords")).toEqual(before);
  });

  it("compares beyond ASCII: Café and CAFÉ are the same keyword", async () => {
    expect((await write("/keywords", "POST", { keyword: "Café crème" })).status).toBe(201);
    const res = await write("/keywords", "POST", { keyword: "CAFÉ CRÈME" });
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.error.code).toBe("invalid_state");
    const other = (await write("/keywords", "POST", { keyword: "straße" })).body;
    expect((await write(`/keywords/${other.id}`, "PATCH", { keyword: "CAFÉ crème" })).status).toBe(409);
    expect((await write(`/keywords/${other.id}`, "PATCH", { keyword: "STRASSE" })).status).toBe(200);
    expect((await write("/competitors", "POST", { name: "Ökoplan" })).status).toBe(201);
    expect((await write("/competitors", "POST", { name: "ÖKOPLAN" })).status).toBe(409);
  });

  it("the same keyword may exist in another workspace", async () => {
    const other = await createTestWorkspace("other");
    const res = await callJson("/api/v1/keywords", {
      key: other.writeKey,
      method: "POST",
      body: { keyword: "helpdesk" },
    });
    expect(res.status).toBe(201);
  });

  it("patches text and flags, and refuses renaming onto another keyword", async () => {
    const a = (await write("/keywords", "POST", { keyword: "ticketing" })).body;
    await write("/keywords", "POST", { keyword: "live chat" });
    const patched = await write(`/keywords/${a.id}`, "PATCH", { keyword: "Ticketing", active: false });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({ ...a, keyword: "Ticketing", active: false });
    const clash = await write(`/keywords/${a.id}`, "PATCH", { keyword: "LIVE CHAT" });
    expect(clash.status).toBe(409);
    expect(clash.body.error.code).toBe("invalid_state");
    expect((await list("/keywords")).data.find((k) => k.id === a.id)).toEqual(patched.body);
  });

  it("validates bodies: required text, types, unknown fields, empty patch", async () => {
    expectValidation(await write("/keywords", "POST", {}), "body.keyword");
    expectValidation(await write("/keywords", "POST", { keyword: "   " }), "body.keyword");
    expectValidation(await write("/keywords", "POST", { keyword: "x".repeat(201) }), "body.keyword");
    expectValidation(await write("/keywords", "POST", { keyword: "ok", active: "yes" }), "body.active");
    expectValidation(await write("/keywords", "POST", { keyword: "ok", search_volume: 5 }), "body.search_volume");
    const k = (await write("/keywords", "POST", { keyword: "patchable" })).body;
    expectValidation(await write(`/keywords/${k.id}`, "PATCH", {}), "body");
    expectValidation(await write(`/keywords/${k.id}`, "PATCH", { id: 5 }), "body.id");
    expectValidation(await write("/keywords/0", "PATCH", { active: true }), "path.id");
    expect((await list("/keywords")).data.some((x) => x.keyword === "ok")).toBe(false);
  });

  it("renaming another workspace's keyword onto one of mine is 404, not 409", async () => {
    const other = await createTestWorkspace("rename other");
    const theirs = await callJson("/api/v1/keywords", {
      key: other.writeKey,
      method: "POST",
      body: { keyword: "theirs" },
    });
    await write("/keywords", "POST", { keyword: "already mine" });
    const res = await write(`/keywords/${theirs.body.id}`, "PATCH", { keyword: "Already Mine" });
    expect(res.status).toBe(404);
    expect((await callJson("/api/v1/keywords", { key: other.readKey })).body.data[0].keyword).toBe("theirs");
  });

  it("is 404 for unknown ids", async () => {
    for (const [method, body] of [
      ["PATCH", { active: false }],
      ["DELETE", undefined],
    ] as const) {
      const res = await write("/keywords/424242", method, body);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("not_found");
    }
  });

  it("deleting a keyword keeps its posts and drops it from their matched_keywords", async () => {
    const own = await createTestWorkspace("delete keyword");
    const seeded: SeededWorkspace = await seedWorkspace(own.id, { count: 30, seed: 3 });
    const victim = seeded.keywords[0]!;
    const linked = seeded.posts.filter((p) => p.keywordIds.includes(victim.id));
    expect(linked.length).toBeGreaterThan(0);

    // The delete queues a re-match of the posts (kept here, not sent): the seeded posts' links are made up, and
    // the real matcher would relink them under the reads below. What the delete does at once is checked here;
    // test/monitor/api.test.ts checks the re-match.
    const del = await callJsonKeepingMonitorQueue(`/api/v1/keywords/${victim.id}`, {
      key: own.writeKey,
      method: "DELETE",
    });
    expect(del.status).toBe(204);
    // A term change re-matches the stored posts and backfills what is new (docs/monitoring.md, "Backfill").
    expect(del.queued).toEqual([
      { type: "monitor.rematch", workspace_id: own.id, after_post_id: 0 },
      { type: "monitor.pass", workspace_id: own.id },
    ]);
    expect(del.res.headers.get("x-request-id")).toMatch(/^req_/);
    const again = await callJson(`/api/v1/keywords/${victim.id}`, { key: own.writeKey, method: "DELETE" });
    expect(again.status).toBe(404);

    const keywords = await callJson("/api/v1/keywords", { key: own.readKey });
    expect(keywords.body.data.map((k: { id: number }) => k.id)).not.toContain(victim.id);
    const posts = await callJson("/api/v1/posts?include_archived=true&limit=500", { key: own.readKey });
    expect(posts.body.count).toBe(seeded.posts.length);
    const expected = seeded.posts.map((p) => ({
      ...toApiPost(p),
      matched_keywords: p.matched_keywords.filter((k) => k !== victim.keyword),
    }));
    expect([...posts.body.data].sort((a, b) => a.id - b.id)).toEqual(expected.sort((a, b) => a.id - b.id));
    const filtered = await callJson(`/api/v1/posts?keyword_id=${victim.id}`, { key: own.readKey });
    expect(filtered.body).toEqual({ data: [], count: 0, next_offset: null, count_is_estimate: false });
  });
});

describe("competitors", () => {
  it("creates with defaults and lists every field docs/api.md gives a competitor", async () => {
    const created = await write("/competitors", "POST", { name: "Zendesk" });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: "Zendesk",
      website_url: null,
      keywords: [],
      active: true,
      is_ambiguous: false,
      subreddits: [],
      created_at: expect.stringMatching(ISO),
    });
    const full = await write("/competitors", "POST", {
      name: "Freshdesk",
      website_url: "https://freshdesk.example/",
      keywords: ["fresh desk", "freshworks"],
      is_ambiguous: true,
    });
    expect(full.body).toMatchObject({
      name: "Freshdesk",
      website_url: "https://freshdesk.example/",
      keywords: ["fresh desk", "freshworks"],
      is_ambiguous: true,
      active: true,
    });
    const body = await list("/competitors");
    expect(body.count).toBe(body.data.length);
    expect(body.data).toEqual(expect.arrayContaining([created.body, full.body]));
  });

  it("refuses duplicate names case-insensitively", async () => {
    const res = await write("/competitors", "POST", { name: "zendesk" });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("invalid_state");
  });

  it("patches fields, clears the website with null, and validates", async () => {
    const c = (await write("/competitors", "POST", { name: "Intercom", website_url: "https://intercom.example/" }))
      .body;
    const patched = await write(`/competitors/${c.id}`, "PATCH", {
      website_url: null,
      keywords: ["intercom.io"],
      active: false,
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({ ...c, website_url: null, keywords: ["intercom.io"], active: false });
    expectValidation(
      await write(`/competitors/${c.id}`, "PATCH", { website_url: "ftp://intercom.example/" }),
      "body.website_url",
    );
    expectValidation(await write(`/competitors/${c.id}`, "PATCH", { keywords: "intercom" }), "body.keywords");
    expectValidation(await write(`/competitors/${c.id}`, "PATCH", { keywords: [""] }), "body.keywords.0");
    expectValidation(await write(`/competitors/${c.id}`, "PATCH", { nickname: "x" }), "body.nickname");
    expectValidation(await write("/competitors", "POST", { website_url: "https://x.example/" }), "body.name");
    expect((await list("/competitors")).data.find((x) => x.id === c.id)).toEqual(patched.body);
  });

  it("deleting a competitor keeps its posts and drops it from mentioned_competitors", async () => {
    const own = await createTestWorkspace("delete competitor");
    const seeded = await seedWorkspace(own.id, { count: 30, seed: 4 });
    const victim = seeded.competitors[0]!;
    expect(seeded.posts.some((p) => p.competitorIds.includes(victim.id))).toBe(true);
    // Its re-match is kept, not sent, as in the keyword's case above.
    const del = await callJsonKeepingMonitorQueue(`/api/v1/competitors/${victim.id}`, {
      key: own.writeKey,
      method: "DELETE",
    });
    expect(del.status).toBe(204);
    // A term change re-matches the stored posts and backfills what is new (docs/monitoring.md, "Backfill").
    expect(del.queued).toEqual([
      { type: "monitor.rematch", workspace_id: own.id, after_post_id: 0 },
      { type: "monitor.pass", workspace_id: own.id },
    ]);
    const posts = await callJson("/api/v1/posts?include_archived=true&limit=500", { key: own.readKey });
    expect(posts.body.count).toBe(seeded.posts.length);
    for (const post of posts.body.data) expect(post.mentioned_competitors).not.toContain(victim.name);
    const none = await callJson("/api/v1/posts?has_competitors=false&include_archived=true&limit=500", {
      key: own.readKey,
    });
    expect(none.body.count).toBe(seeded.posts.filter((p) => p.competitorIds.every((id) => id === victim.id)).length);
  });

  it("lists take no query parameters", async () => {
    for (const path of ["/keywords?active=true", "/competitors?limit=5"]) {
      const res = await callJson(`/api/v1${path}`, { key: ws.readKey });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("validation_failed");
    }
  });
});
