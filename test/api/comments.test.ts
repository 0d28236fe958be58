// GET/PATCH /comments and GET /comments/:id (docs/api.md, docs/monitoring.md "Comments"): comments stored by the
// function the ingester calls, listed with GET /posts's filters, sorts, search, paging and envelope.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { workspaceDb } from "../../src/db/client";
import { upsertForumPosts } from "../../src/db/matched-items";
import { callJson } from "../helpers/api";
import { forumComment, ingestComments } from "../helpers/comments";
import { trackingWorkspace } from "../helpers/monitor";

const fields = [
  "id",
  "forum_id",
  "post_forum_id",
  "subreddit",
  "thread_title",
  "body",
  "author",
  "permalink",
  "score",
  "created_utc",
  "matched_keywords",
  "mentioned_competitors",
  "is_answered",
  "archived",
  "skipped",
  "priority",
  "urgency",
  "score_reasons",
];

describe("comments stored for a workspace", () => {
  it("are listed by GET /comments with the fields of a comment, and never by GET /posts", async () => {
    const ws = await trackingWorkspace("comments list", ["drip campaign"], [{ name: "Mailchimp" }]);
    const stored = await ingestComments(ws.id, [
      forumComment("t1_c1", "Can anyone recommend a drip campaign tool?", {
        link_title: "Email tools in 2026",
        score: 7,
      }),
      forumComment("c2", "We moved off Mailchimp last year", { agoSeconds: 600 }),
      forumComment("c3", "Nothing tracked here", { agoSeconds: 30 }),
    ]);
    expect(stored).toEqual({ matched: 2, created: 2, updated: 0 });

    const list = await callJson("/api/v1/comments", { key: ws.readKey });
    expect(list.status).toBe(200);
    expect(Object.keys(list.body)).toEqual(["data", "count", "next_offset", "count_is_estimate"]);
    expect(list.body).toMatchObject({ count: 2, next_offset: null, count_is_estimate: false });
    const [first, second] = list.body.data;
    expect(Object.keys(first)).toEqual(fields);
    expect(first).toMatchObject({
      forum_id: "c1",
      post_forum_id: "thread1",
      subreddit: "testing",
      thread_title: "Email tools in 2026",
      body: "Can anyone recommend a drip campaign tool?",
      author: "someone",
      permalink: "/r/testing/comments/thread1/a_thread/t1_c1/",
      score: 7,
      matched_keywords: ["drip campaign"],
      mentioned_competitors: [],
      is_answered: false,
      archived: false,
      skipped: false,
      priority: "high",
      urgency: "urgent",
    });
    expect(first.score_reasons).toEqual([
      '+30 buying intent ("recommend")',
      "+10 the comment asks a question",
      "+15 posted under 6 hours ago",
      "= 55 points: high priority (50+ high, 25+ medium); urgent (under 24 hours old, medium or high)",
    ]);
    expect(second).toMatchObject({ forum_id: "c2", thread_title: "", mentioned_competitors: ["Mailchimp"] });

    const posts = await callJson("/api/v1/posts", { key: ws.readKey });
    expect(posts.body.count).toBe(0);
  });

  it("take the thread's title from the workspace's stored post when the forum's answer has none", async () => {
    const ws = await trackingWorkspace("comments title", ["newsletter"]);
    const w = workspaceDb(env, ws.id);
    await upsertForumPosts(w, [
      {
        forumId: "p9",
        subreddit: "testing",
        title: "Which newsletter platform?",
        selftext: "",
        author: "a",
        url: "https://www.reddit.com/r/testing/comments/p9/x/",
        permalink: "/r/testing/comments/p9/x/",
        score: 1,
        numComments: 1,
        createdUtc: new Date().toISOString(),
        priority: "low",
        urgency: "not_urgent",
        scoreReasons: [],
        keywordIds: [ws.keywordIds.newsletter!],
        competitorIds: [],
      },
    ]);
    await ingestComments(ws.id, [forumComment("k1", "our newsletter runs on it", { link_id: "t3_p9" })]);
    const list = await callJson("/api/v1/comments", { key: ws.readKey });
    expect(list.body.data[0]).toMatchObject({ post_forum_id: "p9", thread_title: "Which newsletter platform?" });
  });

  it("filter, sort, search and page as GET /posts does", async () => {
    const ws = await trackingWorkspace("comments filters", ["crm"], [{ name: "HubSpot" }]);
    await ingestComments(ws.id, [
      forumComment("f1", "Can anyone recommend a crm?", { score: 2, agoSeconds: 100 }),
      forumComment("f2", "Thoughts on this crm?", { score: 50, agoSeconds: 200, subreddit: "sales" }),
      forumComment("f3", "our crm notes, HubSpot mostly", { score: 9, agoSeconds: 30 * 3600 }),
    ]);
    const ids = async (query: string) => {
      const res = await callJson(`/api/v1/comments?${query}`, { key: ws.readKey });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data.map((c: { forum_id: string }) => c.forum_id);
    };
    expect(await ids("")).toEqual(["f1", "f2", "f3"]);
    expect(await ids("sort_by=score")).toEqual(["f2", "f3", "f1"]);
    expect(await ids("sort_by=date&sort_order=asc")).toEqual(["f3", "f2", "f1"]);
    expect(await ids("priority=high")).toEqual(["f1"]);
    // f1 55 points (high), f2 30 (medium: question, fresh, score 50), f3 20 (low: a competitor, 30 hours old).
    expect(await ids("sort_by=priority")).toEqual(["f1", "f2", "f3"]);
    expect(await ids("subreddit=r/Sales")).toEqual(["f2"]);
    expect(await ids("has_competitors=true")).toEqual(["f3"]);
    expect(await ids(`keyword_id=${ws.keywordIds.crm}`)).toEqual(["f1", "f2", "f3"]);
    expect(await ids("search=notes")).toEqual(["f3"]);
    expect(await ids("search=recommend&subreddit=testing")).toEqual(["f1"]);

    const page = await callJson("/api/v1/comments?limit=2", { key: ws.readKey });
    expect(page.body).toMatchObject({ count: 3, next_offset: 2 });
    const last = await callJson("/api/v1/comments?limit=2&offset=2", { key: ws.readKey });
    expect(last.body).toMatchObject({ count: 3, next_offset: null });
    expect(last.body.data.map((c: { forum_id: string }) => c.forum_id)).toEqual(["f3"]);

    const byComments = await callJson("/api/v1/comments?sort_by=comments", { key: ws.readKey });
    expect(byComments.status).toBe(400);
    expect(byComments.body.error.code).toBe("validation_failed");
    const malformed = await callJson(`/api/v1/comments?search=${encodeURIComponent('"unclosed')}`, {
      key: ws.readKey,
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.details[0].path).toBe("query.search");
  });

  it("GET and PATCH /comments/:id: triage kept when the comment is seen again, scoped to the workspace", async () => {
    const ws = await trackingWorkspace("comments triage", ["helpdesk"]);
    const other = await trackingWorkspace("comments other", ["helpdesk"]);
    await ingestComments(ws.id, [forumComment("t1", "which helpdesk do you use?")]);
    const [comment] = (await callJson("/api/v1/comments", { key: ws.readKey })).body.data;

    const got = await callJson(`/api/v1/comments/${comment.id}`, { key: ws.readKey });
    expect(got.body).toEqual(comment);
    expect((await callJson(`/api/v1/comments/${comment.id}`, { key: other.readKey })).status).toBe(404);

    const path = `/api/v1/comments/${comment.id}`;
    const readOnly = await callJson(path, { key: ws.readKey, method: "PATCH", body: { is_answered: true } });
    expect(readOnly.status).toBe(403);
    const unknown = await callJson(path, { key: ws.writeKey, method: "PATCH", body: { title: "x" } });
    expect(unknown.status).toBe(400);
    const empty = await callJson(path, { key: ws.writeKey, method: "PATCH", body: {} });
    expect(empty.status).toBe(400);
    const patched = await callJson(path, {
      key: ws.writeKey,
      method: "PATCH",
      body: { is_answered: true, archived: true },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ is_answered: true, archived: true, skipped: false });
    expect((await callJson(path, { key: other.writeKey, method: "PATCH", body: { skipped: true } })).status).toBe(404);

    // Seen again with a new score: the forum's fields change, triage does not, and it is not created twice.
    const again = await ingestComments(ws.id, [forumComment("t1", "which helpdesk do you use?", { score: 40 })]);
    expect(again).toEqual({ matched: 1, created: 0, updated: 1 });
    const after = await callJson(path, { key: ws.readKey });
    expect(after.body).toMatchObject({ score: 40, is_answered: true, archived: true });
    expect((await callJson("/api/v1/comments", { key: ws.readKey })).body.count).toBe(0);
    expect((await callJson("/api/v1/comments?include_archived=true", { key: ws.readKey })).body.count).toBe(1);
  });

  it("older than 7 days are not stored", async () => {
    const ws = await trackingWorkspace("comments old", ["zapier"]);
    const stored = await ingestComments(ws.id, [forumComment("o1", "zapier broke", { agoSeconds: 8 * 86_400 })]);
    expect(stored).toMatchObject({ created: 0 });
  });
});
