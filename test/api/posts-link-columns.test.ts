// The columns GET /posts reads instead of joining the links, kept by triggers: posts.has_competitors (on
// post_competitors, migration 0004; the has_competitors filter reads only it), and posts.matched_keywords
// and posts.mentioned_competitors (migration 0061). Every way a link or a name changes must keep them right:
// a link added, removed or moved, a keyword or competitor renamed, or deleted through the API (its links go by
// ON DELETE CASCADE), a post deleted; and the migration's backfill must give what the links say.
import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { beforeAll, describe, expect, it } from "vitest";
import { workspaceDb } from "../../src/db/client";
import * as schema from "../../src/db/schema";
import { updateCompetitor, updateKeyword } from "../../src/db/tracking";
import { callJson, callJsonKeepingMonitorQueue, createTestWorkspace, type TestWorkspace } from "../helpers/api";
import { insertBarePost, seedWorkspace } from "../helpers/seeded-posts";

const db = drizzle(env.DB, { schema });

let ws: TestWorkspace;

const addPost = async (forumId: string) => ({ id: await insertBarePost(env.DB, ws.id, forumId) });

/** Three new posts of the workspace, t3_a, t3_b and t3_c: their ids. */
const threePosts = async (): Promise<[number, number, number]> => [
  (await addPost("t3_a")).id,
  (await addPost("t3_b")).id,
  (await addPost("t3_c")).id,
];

const addKeyword = async (keyword: string) =>
  (await db.insert(schema.keywords).values({ workspaceId: ws.id, keyword }).returning().get()).id;
const addCompetitor = async (name: string) =>
  (await db.insert(schema.competitors).values({ workspaceId: ws.id, name }).returning().get()).id;
const linkKeyword = (postId: number, keywordId: number) =>
  db.insert(schema.postKeywords).values({ workspaceId: ws.id, postId, keywordId }).run();
const linkCompetitor = (postId: number, competitorId: number) =>
  db.insert(schema.postCompetitors).values({ workspaceId: ws.id, postId, competitorId }).run();

/** Each post's [matched_keywords, mentioned_competitors] as GET /posts/{id} answers them. */
async function names(...ids: number[]) {
  const out: [string[], string[]][] = [];
  for (const id of ids) {
    const res = await callJson(`/api/v1/posts/${id}`, { key: ws.readKey });
    expect(res.status).toBe(200);
    out.push([res.body.matched_keywords, res.body.mentioned_competitors]);
  }
  return out;
}

/** What the links say, built as GET /posts built it before migration 0061, for every post of a workspace. */
async function fromLinks(workspaceId: number) {
  const { results } = await env.DB.prepare(
    `SELECT p.id,
       (SELECT json_group_array(keyword) FROM (SELECT k.keyword FROM post_keywords pk JOIN keywords k ON k.id = pk.keyword_id
          WHERE pk.post_id = p.id ORDER BY k.keyword)) AS matched_keywords,
       (SELECT json_group_array(name) FROM (SELECT c.name FROM post_competitors pc JOIN competitors c ON c.id = pc.competitor_id
          WHERE pc.post_id = p.id ORDER BY c.name)) AS mentioned_competitors
     FROM posts p WHERE p.workspace_id = ? ORDER BY p.id`,
  )
    .bind(workspaceId)
    .all();
  return results;
}

const stored = async (workspaceId: number) =>
  (
    await env.DB.prepare(
      "SELECT id, matched_keywords, mentioned_competitors FROM posts WHERE workspace_id = ? ORDER BY id",
    )
      .bind(workspaceId)
      .all()
  ).results;

describe("posts.matched_keywords / mentioned_competitors follow the links and the names", () => {
  let a: number, b: number, c: number;
  let pricing: number, onboarding: number, zebra: number;
  let acme: number, globex: number;

  beforeAll(async () => {
    ws = await createTestWorkspace("link names triggers");
    [a, b, c] = await threePosts();
    pricing = await addKeyword("pricing");
    onboarding = await addKeyword("onboarding");
    zebra = await addKeyword("Zebra");
    acme = await addCompetitor("acme");
    globex = await addCompetitor("Globex");
  });

  it("a new post has none; links add their names, sorted by the name's bytes (upper case first)", async () => {
    expect(await names(a)).toEqual([[[], []]]);
    await linkKeyword(a, pricing);
    await linkKeyword(a, zebra);
    await linkKeyword(a, onboarding);
    await linkCompetitor(a, acme);
    await linkCompetitor(a, globex);
    await linkKeyword(b, pricing);
    expect(await names(a, b, c)).toEqual([
      [
        ["Zebra", "onboarding", "pricing"],
        ["Globex", "acme"],
      ],
      [["pricing"], []],
      [[], []],
    ]);
  });

  it("removing a link removes its name; removing the last leaves an empty list", async () => {
    await db
      .delete(schema.postKeywords)
      .where(and(eq(schema.postKeywords.postId, a), eq(schema.postKeywords.keywordId, zebra)))
      .run();
    await db.delete(schema.postKeywords).where(eq(schema.postKeywords.postId, b)).run();
    await db.delete(schema.postCompetitors).where(eq(schema.postCompetitors.competitorId, globex)).run();
    expect(await names(a, b)).toEqual([
      [["onboarding", "pricing"], ["acme"]],
      [[], []],
    ]);
  });

  it("a link moved to another post or to another keyword updates both posts", async () => {
    await db.update(schema.postKeywords).set({ postId: c }).where(eq(schema.postKeywords.postId, a)).run();
    await db.update(schema.postCompetitors).set({ postId: c }).where(eq(schema.postCompetitors.postId, a)).run();
    expect(await names(a, c)).toEqual([
      [[], []],
      [["onboarding", "pricing"], ["acme"]],
    ]);
    await db
      .update(schema.postKeywords)
      .set({ keywordId: zebra })
      .where(and(eq(schema.postKeywords.postId, c), eq(schema.postKeywords.keywordId, onboarding)))
      .run();
    await db
      .update(schema.postCompetitors)
      .set({ competitorId: globex })
      .where(eq(schema.postCompetitors.postId, c))
      .run();
    expect(await names(c)).toEqual([[["Zebra", "pricing"], ["Globex"]]]);
  });

  // Renamed through src/db/tracking.ts, the code PATCH /keywords/{id} and /competitors/{id} run: the route
  // also queues a re-match of the workspace's posts against the new text, which would rewrite these
  // made-up links while the test reads them.
  it("renaming a keyword or a competitor renames it on every post that has it, re-sorted", async () => {
    const w = workspaceDb(env, ws.id);
    await linkKeyword(a, pricing);
    expect((await updateKeyword(w, pricing, { keyword: "Annual pricing" }))?.keyword.keyword).toBe("Annual pricing");
    expect((await updateCompetitor(w, globex, { name: "Initech" }))?.name).toBe("Initech");
    expect(await names(a, b, c)).toEqual([
      [["Annual pricing"], []],
      [[], []],
      [["Annual pricing", "Zebra"], ["Initech"]],
    ]);
    // A change that leaves the text as it was changes nothing.
    expect((await updateKeyword(w, zebra, { active: false }))?.keyword.active).toBe(false);
    expect(await names(c)).toEqual([[["Annual pricing", "Zebra"], ["Initech"]]]);
  });

  // The deletes' re-match of the posts (which would drop these made-up links) is kept, not sent.
  it("deleting a keyword or a competitor through the API takes its name off the posts; the posts stay", async () => {
    for (const path of [`/api/v1/keywords/${zebra}`, `/api/v1/competitors/${globex}`])
      expect((await callJsonKeepingMonitorQueue(path, { method: "DELETE", key: ws.writeKey })).status).toBe(204);
    expect(await names(a, c)).toEqual([
      [["Annual pricing"], []],
      [["Annual pricing"], []],
    ]);
  });

  it("deleting a post cascades its links without disturbing the other posts", async () => {
    await linkCompetitor(a, acme);
    await linkCompetitor(c, acme);
    await db.delete(schema.posts).where(eq(schema.posts.id, c)).run();
    expect(await names(a)).toEqual([[["Annual pricing"], ["acme"]]]);
    const list = await callJson("/api/v1/posts?include_archived=true", { key: ws.readKey });
    expect(list.body.data.map((p: { id: number }) => p.id).sort()).toEqual([a, b].sort());
  });
});

describe("the stored names equal the links' names", () => {
  let seeded: TestWorkspace;

  beforeAll(async () => {
    seeded = await createTestWorkspace("link names seeded");
    await seedWorkspace(seeded.id, {
      count: 120,
      seed: 1606,
      keywordNames: ["pricing", "Migration tool", "onboarding", "API"],
      competitorNames: ["acme", "Globex", "Initech"],
      forumPrefix: "t3_names_",
    });
  });

  it("for every post written by the seeding module (links inserted in bulk)", async () => {
    const expected = await fromLinks(seeded.id);
    expect(expected.some((r) => r.matched_keywords !== "[]")).toBe(true);
    expect(expected.some((r) => r.mentioned_competitors !== "[]")).toBe(true);
    expect(await stored(seeded.id)).toEqual(expected);
  });

  it("after migration 0061's backfill of posts whose columns were never filled", async () => {
    const expected = await fromLinks(seeded.id);
    await env.DB.prepare(
      "UPDATE posts SET matched_keywords = '[]', mentioned_competitors = '[]' WHERE workspace_id = ?",
    )
      .bind(seeded.id)
      .run();
    const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith("0061_"));
    const backfill = (migration?.queries ?? []).filter((q) => q.includes("UPDATE `posts` SET"));
    expect(backfill).toHaveLength(2);
    for (const q of backfill) await env.DB.prepare(q).run();
    expect(await stored(seeded.id)).toEqual(expected);
  });
});

// post_keywords.archived / created_utc follow their post (migration 0062): GET /posts?keyword_id lists and
// counts a keyword's posts from the links alone.
describe("the links carry their post's archived and created_utc", () => {
  let lw: TestWorkspace;
  let kw: number;
  let x: number, y: number, z: number;

  const linkFields = async () =>
    (
      await env.DB.prepare(
        "SELECT post_id, archived, created_utc FROM post_keywords WHERE keyword_id = ? ORDER BY post_id",
      )
        .bind(kw)
        .all()
    ).results;
  const listedIds = async (query = "") => {
    const res = await callJson(`/api/v1/posts?keyword_id=${kw}${query}`, { key: lw.readKey });
    expect(res.status).toBe(200);
    return { ids: (res.body.data as { id: number }[]).map((p) => p.id), count: res.body.count as number };
  };

  beforeAll(async () => {
    lw = await createTestWorkspace("link post fields");
    const post = (forumId: string, createdUtc: string) => insertBarePost(env.DB, lw.id, forumId, createdUtc);
    x = await post("t3_lx", "2026-11-01T10:00:00.000Z");
    y = await post("t3_ly", "2026-11-03T10:00:00.000Z");
    z = await post("t3_lz", "2026-11-02T10:00:00.000Z");
    kw = (await db.insert(schema.keywords).values({ workspaceId: lw.id, keyword: "deliverability" }).returning().get())
      .id;
    for (const postId of [x, y, z])
      await db.insert(schema.postKeywords).values({ workspaceId: lw.id, postId, keywordId: kw }).run();
  });

  it("a new link takes its post's values; the keyword's posts come in date order", async () => {
    expect(await linkFields()).toEqual([
      { post_id: x, archived: 0, created_utc: "2026-11-01T10:00:00.000Z" },
      { post_id: y, archived: 0, created_utc: "2026-11-03T10:00:00.000Z" },
      { post_id: z, archived: 0, created_utc: "2026-11-02T10:00:00.000Z" },
    ]);
    expect(await listedIds()).toEqual({ ids: [y, z, x], count: 3 });
    expect(await listedIds("&sort_order=asc")).toEqual({ ids: [x, z, y], count: 3 });
  });

  it("archiving a post through the API takes it out of the keyword's list and count; unarchiving brings it back", async () => {
    const archived = await callJson(`/api/v1/posts/${y}`, {
      method: "PATCH",
      key: lw.writeKey,
      body: { archived: true },
    });
    expect(archived.status).toBe(200);
    expect(await listedIds()).toEqual({ ids: [z, x], count: 2 });
    expect((await listedIds("&include_archived=true")).ids).toEqual([y, z, x]);
    await callJson(`/api/v1/posts/${y}`, { method: "PATCH", key: lw.writeKey, body: { archived: false } });
    expect(await listedIds()).toEqual({ ids: [y, z, x], count: 3 });
  });

  it("a post's new date moves it in the keyword's list; a link moved to another post takes that post's values", async () => {
    await db.update(schema.posts).set({ createdUtc: "2026-11-04T10:00:00.000Z" }).where(eq(schema.posts.id, x)).run();
    expect((await listedIds()).ids).toEqual([x, y, z]);
    await db.update(schema.posts).set({ archived: true }).where(eq(schema.posts.id, z)).run();
    const other = (
      await db
        .insert(schema.posts)
        .values({
          workspaceId: lw.id,
          forumId: "t3_lw",
          subreddit: "SaaS",
          title: "post t3_lw",
          author: "someone",
          url: "https://www.reddit.com/r/SaaS/comments/t3_lw/",
          permalink: "/r/SaaS/comments/t3_lw/",
          createdUtc: "2026-10-30T10:00:00.000Z",
        })
        .returning({ id: schema.posts.id })
        .get()
    ).id;
    await db
      .update(schema.postKeywords)
      .set({ postId: other })
      .where(and(eq(schema.postKeywords.postId, z), eq(schema.postKeywords.keywordId, kw)))
      .run();
    expect(await listedIds()).toEqual({ ids: [x, y, other], count: 3 });
  });

  it("migration 0062's backfill gives every link its post's values", async () => {
    await env.DB.prepare("UPDATE post_keywords SET archived = 1, created_utc = '' WHERE workspace_id = ?")
      .bind(lw.id)
      .run();
    const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith("0062_"));
    const backfill = (migration?.queries ?? []).filter((q) => q.includes("UPDATE `post_keywords` SET"));
    expect(backfill).toHaveLength(1);
    for (const q of backfill) await env.DB.prepare(q).run();
    const { results } = await env.DB.prepare(
      `SELECT count(*) AS n FROM post_keywords pk JOIN posts p ON p.id = pk.post_id
       WHERE pk.workspace_id = ? AND (pk.archived IS NOT p.archived OR pk.created_utc IS NOT p.created_utc)`,
    )
      .bind(lw.id)
      .all<{ n: number }>();
    expect(results[0]!.n).toBe(0);
    expect(await listedIds()).toEqual({ ids: [x, y, expect.any(Number)], count: 3 });
  });
});

/** The ids GET /posts lists for has_competitors=true and =false. */
async function listedByHasCompetitors() {
  const ids = async (value: string) => {
    const res = await callJson(`/api/v1/posts?has_competitors=${value}&limit=100`, { key: ws.readKey });
    expect(res.status).toBe(200);
    return (res.body.data as { id: number }[]).map((p) => p.id).sort((a, b) => a - b);
  };
  return { with: await ids("true"), without: await ids("false") };
}

const storedHasCompetitors = async (postId: number) =>
  (await db.select({ v: schema.posts.hasCompetitors }).from(schema.posts).where(eq(schema.posts.id, postId)).get())?.v;

describe("posts.has_competitors follows post_competitors", () => {
  let a: number, b: number, c: number;
  let acme: number, globex: number;

  beforeAll(async () => {
    ws = await createTestWorkspace("has_competitors triggers");
    [a, b, c] = await threePosts();
    acme = await addCompetitor("Acme");
    globex = await addCompetitor("Globex");
  });

  it("a new post mentions nobody; adding a link sets it", async () => {
    expect(await listedByHasCompetitors()).toEqual({ with: [], without: [a, b, c] });
    await linkCompetitor(a, acme);
    await linkCompetitor(b, acme);
    await linkCompetitor(b, globex);
    expect(await storedHasCompetitors(a)).toBe(true);
    expect(await listedByHasCompetitors()).toEqual({ with: [a, b], without: [c] });
  });

  it("removing one of two links keeps it; removing the last clears it", async () => {
    await db
      .delete(schema.postCompetitors)
      .where(and(eq(schema.postCompetitors.postId, b), eq(schema.postCompetitors.competitorId, globex)))
      .run();
    expect(await storedHasCompetitors(b)).toBe(true);
    await db.delete(schema.postCompetitors).where(eq(schema.postCompetitors.postId, b)).run();
    expect(await storedHasCompetitors(b)).toBe(false);
    expect(await listedByHasCompetitors()).toEqual({ with: [a], without: [b, c] });
  });

  it("a link moved to another post updates both posts", async () => {
    await db.update(schema.postCompetitors).set({ postId: c }).where(eq(schema.postCompetitors.postId, a)).run();
    expect(await listedByHasCompetitors()).toEqual({ with: [c], without: [a, b] });
    await db.update(schema.postCompetitors).set({ postId: a }).where(eq(schema.postCompetitors.postId, c)).run();
    expect(await listedByHasCompetitors()).toEqual({ with: [a], without: [b, c] });
  });

  it("deleting a competitor through the API clears the posts that mentioned only it", async () => {
    await linkCompetitor(b, acme);
    await linkCompetitor(b, globex);
    expect(await listedByHasCompetitors()).toEqual({ with: [a, b], without: [c] });
    // Its re-match of the posts (which would drop these made-up links) is kept, not sent.
    const deleted = await callJsonKeepingMonitorQueue(`/api/v1/competitors/${acme}`, {
      method: "DELETE",
      key: ws.writeKey,
    });
    expect(deleted.status).toBe(204);
    // a mentioned only Acme; b still mentions Globex.
    expect(await listedByHasCompetitors()).toEqual({ with: [b], without: [a, c] });
    const after = await callJson("/api/v1/posts?has_competitors=true", { key: ws.readKey });
    expect(
      after.body.data.map((p: { id: number; mentioned_competitors: string[] }) => [p.id, p.mentioned_competitors]),
    ).toEqual([[b, ["Globex"]]]);
  });

  it("deleting a post cascades its links without disturbing the others", async () => {
    await db.delete(schema.posts).where(eq(schema.posts.id, b)).run();
    expect(await db.select().from(schema.postCompetitors).where(eq(schema.postCompetitors.postId, b)).all()).toEqual(
      [],
    );
    expect(await listedByHasCompetitors()).toEqual({ with: [], without: [a, c] });
    await linkCompetitor(c, globex);
    expect(await listedByHasCompetitors()).toEqual({ with: [c], without: [a] });
  });
});
