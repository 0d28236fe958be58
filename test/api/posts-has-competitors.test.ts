// posts.has_competitors is kept by triggers on post_competitors (migration 0004). The has_competitors filter
// reads only that column, so every way a link appears or disappears must keep it right: a link added, a link
// removed, a competitor deleted through the API (its links go by ON DELETE CASCADE), a post deleted.
import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "../../src/db/schema";
import { callJson, callJsonKeepingMonitorQueue, createTestWorkspace, type TestWorkspace } from "../helpers/api";
import { insertBarePost } from "../helpers/seeded-posts";

const db = drizzle(env.DB, { schema });

let ws: TestWorkspace;

const addPost = async (forumId: string) => ({ id: await insertBarePost(env.DB, ws.id, forumId) });

async function addCompetitor(name: string) {
  return db
    .insert(schema.competitors)
    .values({ workspaceId: ws.id, name })
    .returning({ id: schema.competitors.id })
    .get();
}

const link = (postId: number, competitorId: number) =>
  db.insert(schema.postCompetitors).values({ workspaceId: ws.id, postId, competitorId }).run();

/** The ids GET /posts lists for has_competitors=true and =false. */
async function listed() {
  const ids = async (value: string) => {
    const res = await callJson(`/api/v1/posts?has_competitors=${value}&limit=100`, { key: ws.readKey });
    expect(res.status).toBe(200);
    return (res.body.data as { id: number }[]).map((p) => p.id).sort((a, b) => a - b);
  };
  return { with: await ids("true"), without: await ids("false") };
}

const stored = async (postId: number) =>
  (await db.select({ v: schema.posts.hasCompetitors }).from(schema.posts).where(eq(schema.posts.id, postId)).get())?.v;

describe("posts.has_competitors follows post_competitors", () => {
  let a: number, b: number, c: number;
  let acme: number, globex: number;

  beforeAll(async () => {
    ws = await createTestWorkspace("has_competitors triggers");
    [a, b, c] = [(await addPost("t3_a")).id, (await addPost("t3_b")).id, (await addPost("t3_c")).id];
    acme = (await addCompetitor("Acme")).id;
    globex = (await addCompetitor("Globex")).id;
  });

  it("a new post mentions nobody; adding a link sets it", async () => {
    expect(await listed()).toEqual({ with: [], without: [a, b, c] });
    await link(a, acme);
    await link(b, acme);
    await link(b, globex);
    expect(await stored(a)).toBe(true);
    expect(await listed()).toEqual({ with: [a, b], without: [c] });
  });

  it("removing one of two links keeps it; removing the last clears it", async () => {
    await db
      .delete(schema.postCompetitors)
      .where(and(eq(schema.postCompetitors.postId, b), eq(schema.postCompetitors.competitorId, globex)))
      .run();
    expect(await stored(b)).toBe(true);
    await db.delete(schema.postCompetitors).where(eq(schema.postCompetitors.postId, b)).run();
    expect(await stored(b)).toBe(false);
    expect(await listed()).toEqual({ with: [a], without: [b, c] });
  });

  it("a link moved to another post updates both posts", async () => {
    await db.update(schema.postCompetitors).set({ postId: c }).where(eq(schema.postCompetitors.postId, a)).run();
    expect(await listed()).toEqual({ with: [c], without: [a, b] });
    await db.update(schema.postCompetitors).set({ postId: a }).where(eq(schema.postCompetitors.postId, c)).run();
    expect(await listed()).toEqual({ with: [a], without: [b, c] });
  });

  it("deleting a competitor through the API clears the posts that mentioned only it", async () => {
    await link(b, acme);
    await link(b, globex);
    expect(await listed()).toEqual({ with: [a, b], without: [c] });
    // Its re-match of the posts (which would drop these made-up links) is kept, not sent.
    const deleted = await callJsonKeepingMonitorQueue(`/api/v1/competitors/${acme}`, {
      method: "DELETE",
      key: ws.writeKey,
    });
    expect(deleted.status).toBe(204);
    // a mentioned only Acme; b still mentions Globex.
    expect(await listed()).toEqual({ with: [b], without: [a, c] });
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
    expect(await listed()).toEqual({ with: [], without: [a, c] });
    await link(c, globex);
    expect(await listed()).toEqual({ with: [c], without: [a] });
  });
});
