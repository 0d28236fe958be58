// Workspace exclusions (docs/monitoring.md, "Exclusions"): GET/PUT /actions/monitoring/exclusions, what they keep
// out of storage (posts from a pass, comments from the ingester's store function), and the re-match that makes
// stored items they now exclude skipped, never deleted.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { workspaceDb } from "../../src/db/client";
import { runMonitorPass } from "../../src/monitor/pass";
import { rematchBatch, rematchCommentsBatch } from "../../src/monitor/rematch";
import { callJson, callJsonKeepingMonitorQueue } from "../helpers/api";
import { forumComment, ingestComments } from "../helpers/comments";
import { type FakePost, forum, newClient, nowSeconds, trackingWorkspace } from "../helpers/monitor";

const PATH = "/api/v1/actions/monitoring/exclusions";

describe("GET and PUT /actions/monitoring/exclusions", () => {
  it("starts empty, replaces all three lists, folds prefixes and duplicates, and queues a re-match only", async () => {
    const ws = await trackingWorkspace("exclusions api", ["crm"]);
    const empty = await callJson(PATH, { key: ws.readKey });
    expect(empty).toMatchObject({ status: 200, body: { terms: [], subreddits: [], authors: [] } });

    const put = await callJsonKeepingMonitorQueue(PATH, {
      key: ws.writeKey,
      method: "PUT",
      body: { terms: ["free trial", "Free Trial"], subreddits: ["r/Spam", "spam"], authors: ["u/Bot_1"] },
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ terms: ["free trial"], subreddits: ["Spam"], authors: ["Bot_1"] });
    // The re-match alone: exclusions add no term, so there is nothing for a backfill to search.
    expect(put.queued).toEqual([{ type: "monitor.rematch", workspace_id: ws.id, after_post_id: 0 }]);
    expect((await callJson(PATH, { key: ws.readKey })).body).toEqual(put.body);

    // The same lists again change nothing: nothing to re-match.
    const same = await callJsonKeepingMonitorQueue(PATH, { key: ws.writeKey, method: "PUT", body: put.body });
    expect(same.queued).toEqual([]);
  });

  it("refuses read keys, unknown fields, missing lists, bad names and more than 200 entries", async () => {
    const ws = await trackingWorkspace("exclusions refused", ["crm"]);
    const body = { terms: [], subreddits: [], authors: [] };
    expect((await callJson(PATH, { key: ws.readKey, method: "PUT", body })).status).toBe(403);
    const cases: [unknown, string][] = [
      [{ ...body, extra: 1 }, ""],
      [{ terms: [], subreddits: [] }, "body.authors"],
      [{ ...body, subreddits: ["has space"] }, "body.subreddits.0"],
      [{ ...body, authors: ["x".repeat(21)] }, "body.authors.0"],
      [{ ...body, terms: ["line\nbreak"] }, "body.terms.0"],
      [{ ...body, terms: Array.from({ length: 201 }, (_, i) => `t${i}`) }, "body.terms"],
    ];
    for (const [sent, path] of cases) {
      const res = await callJson(PATH, { key: ws.writeKey, method: "PUT", body: sent });
      expect(res.status, JSON.stringify(sent)).toBe(400);
      expect(res.body.error.code).toBe("validation_failed");
      if (path) expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    }
    const full = { terms: Array.from({ length: 200 }, (_, i) => `t${i}`), subreddits: [], authors: [] };
    expect((await callJson(PATH, { key: ws.writeKey, method: "PUT", body: full })).status).toBe(200);
  });
});

describe("what the exclusions keep out", () => {
  it("a pass stores no post with an excluded term, subreddit or author", async () => {
    const client = newClient("excl-pass");
    await forum.reset(client);
    const now = nowSeconds();
    await forum.addPosts(client, [
      { id: "e1", title: "Best crm for a small team", created_utc: now - 60 },
      { id: "e2", title: "Our crm free trial ended", created_utc: now - 70 },
      { id: "e3", title: "crm question", subreddit: "spam", created_utc: now - 80 },
      // The local forum takes an author beside FakePost's fields (test/fixtures/forum/fake-forum.ts).
      { id: "e4", title: "crm question two", created_utc: now - 90, author: "Bot_1" } as FakePost,
      { id: "e5", title: "Free trials of a crm", created_utc: now - 100 },
    ]);
    const ws = await trackingWorkspace("excl pass", ["crm"]);
    await callJson(PATH, {
      key: ws.writeKey,
      method: "PUT",
      body: { terms: ["free trial"], subreddits: ["Spam"], authors: ["bot_1"] },
    });
    const run = await runMonitorPass(env, workspaceDb(env, ws.id), { trigger: "api", config: client });
    expect(run.status).toBe("completed");
    const listed = await callJson("/api/v1/posts", { key: ws.readKey });
    // "free trials" is another word than "free trial": e5 is stored.
    expect(listed.body.data.map((p: { forum_id: string }) => p.forum_id).sort()).toEqual(["e1", "e5"]);
  });

  it("the store function keeps out comments with an excluded term, subreddit or author", async () => {
    const ws = await trackingWorkspace("excl comments", ["crm"]);
    await callJson(PATH, {
      key: ws.writeKey,
      method: "PUT",
      body: { terms: ["free trial"], subreddits: ["spam"], authors: ["Bot_1"] },
    });
    const stored = await ingestComments(ws.id, [
      forumComment("x1", "a crm I like"),
      forumComment("x2", "crm with a free trial"),
      forumComment("x3", "crm talk", { subreddit: "SPAM" }),
      forumComment("x4", "crm again", { author: "bot_1" }),
    ]);
    expect(stored).toEqual({ matched: 1, created: 1, updated: 0 });
  });

  it("stored posts and comments a new exclusion covers become skipped, never deleted", async () => {
    const client = newClient("excl-rematch");
    await forum.reset(client);
    await forum.addPosts(client, [
      { id: "r1", title: "crm with a free trial", created_utc: nowSeconds() - 60 },
      { id: "r2", title: "crm for agencies", created_utc: nowSeconds() - 70 },
    ]);
    const ws = await trackingWorkspace("excl rematch", ["crm"]);
    const w = workspaceDb(env, ws.id);
    await runMonitorPass(env, w, { trigger: "api", config: client });
    await ingestComments(ws.id, [forumComment("rc1", "crm free trial talk"), forumComment("rc2", "crm talk")]);

    await callJsonKeepingMonitorQueue(PATH, {
      key: ws.writeKey,
      method: "PUT",
      body: { terms: ["free trial"], subreddits: [], authors: [] },
    });
    expect(await rematchBatch(w, 0)).toMatchObject({ next: null, changed: 1 });
    expect(await rematchCommentsBatch(w, 0)).toMatchObject({ next: null, changed: 1 });

    const posts = (await callJson("/api/v1/posts", { key: ws.readKey })).body.data;
    expect(posts.map((p: { forum_id: string; skipped: boolean }) => [p.forum_id, p.skipped])).toEqual([
      ["r1", true],
      ["r2", false],
    ]);
    expect(posts[0].matched_keywords).toEqual(["crm"]);
    const comments = (await callJson("/api/v1/comments?sort_order=asc", { key: ws.readKey })).body.data;
    expect(comments.map((c: { forum_id: string; skipped: boolean }) => [c.forum_id, c.skipped])).toEqual([
      ["rc1", true],
      ["rc2", false],
    ]);
    // Run again: nothing more to change.
    expect(await rematchBatch(w, 0)).toMatchObject({ changed: 0 });
    expect(await rematchCommentsBatch(w, 0)).toMatchObject({ changed: 0 });
  });
});
