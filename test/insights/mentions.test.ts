// GET /insights/mentions (docs/insights.md): buckets (days, weeks from Monday, UTC), every bucket present,
// counts by created_utc from the day counts the triggers of migration 0081 keep (archived and skipped posts
// included), share of voice, validation, and the counts following links and posts as they come and go.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { writeContent } from "../../scripts/seed/workspace";
import { callJson, createTestWorkspace, type TestWorkspace } from "../helpers/api";
import { forumComment, ingestComments } from "../helpers/comments";

let ws: TestWorkspace;
let other: TestWorkspace;
let postIds: number[];

const post = (
  forumId: string,
  createdUtc: string,
  subreddit: string,
  keywords: string[],
  competitors: string[],
  flags: { archived?: boolean; skipped?: boolean } = {},
) => ({
  forumId,
  subreddit,
  title: `thread ${forumId}`,
  selftext: "",
  author: "someone",
  url: `https://www.reddit.com/r/${subreddit}/comments/${forumId}/t/`,
  score: 1,
  numComments: 0,
  createdUtc,
  permalink: `/r/${subreddit}/comments/${forumId}/t/`,
  isAnswered: false,
  archived: flags.archived ?? false,
  skipped: flags.skipped ?? false,
  priority: null,
  urgency: null,
  keywords,
  competitors,
});

const tracked = {
  keywords: [{ keyword: "email marketing" }, { keyword: "open rate" }, { keyword: "never mentioned" }],
  competitors: [{ name: "Mailchimp" }, { name: "Klaviyo" }, { name: "Brevo" }],
};

beforeAll(async () => {
  ws = await createTestWorkspace("mentions");
  other = await createTestWorkspace("mentions elsewhere");
  // 2026-11-02 is a Monday. Week of 11-02: p1..p4; week of 11-09: p5; 11-16: nothing; 11-23: p6.
  const written = await writeContent(env, ws.id, {
    ...tracked,
    posts: [
      post("p1", "2026-11-02T00:00:00.000Z", "SaaS", ["email marketing"], ["Mailchimp"]),
      post("p2", "2026-11-03T23:59:59.000Z", "SaaS", ["email marketing", "open rate"], ["Mailchimp", "Klaviyo"]),
      post("p3", "2026-11-08T23:59:59.000Z", "marketing", ["open rate"], ["Klaviyo"], { archived: true }),
      post("p4", "2026-11-08T12:00:00.000Z", "marketing", [], ["Mailchimp"], { skipped: true }),
      post("p5", "2026-11-09T00:00:00.000Z", "SaaS", ["email marketing"], []),
      post("p6", "2026-11-25T08:00:00.000Z", "emailmarketing", ["email marketing"], ["Brevo"]),
    ],
  });
  postIds = written.postIds;
  // Another workspace's posts on the same days count for it alone.
  await writeContent(env, other.id, {
    ...tracked,
    posts: [post("o1", "2026-11-02T10:00:00.000Z", "SaaS", ["email marketing"], ["Mailchimp"])],
  });
});

const mentions = (query: string, key = ws.readKey) => callJson(`/api/v1/insights/mentions?${query}`, { key });
const RANGE = "since=2026-11-02&until=2026-11-29T12:00:00Z";
const WEEKS = ["2026-11-02", "2026-11-09", "2026-11-16", "2026-11-23"].map((d) => `${d}T00:00:00.000Z`);

type Point = { t: string; posts: number; comments: number; share?: number | null };
const series = (body: { data: { key: string; points: Point[] }[] }) =>
  Object.fromEntries(body.data.map((s) => [s.key, s.points]));
const postsOf = (points: Point[]) => points.map((p) => p.posts);

describe("GET /insights/mentions", () => {
  it("counts each keyword's posts per week from Monday, every bucket present, archived and skipped included", async () => {
    const res = await mentions(`group_by=keyword&interval=week&${RANGE}`);
    expect(res.status).toBe(200);
    expect(res.body.interval).toBe("week");
    expect(res.body.since).toBe("2026-11-02T00:00:00.000Z");
    // The range ends where the bucket holding `until` ends (the next Monday).
    expect(res.body.until).toBe("2026-11-30T00:00:00.000Z");
    const s = series(res.body);
    // Most mentioned first; a keyword without a mention is there, all zeros.
    expect(res.body.data.map((d: { key: string }) => d.key)).toEqual([
      "email marketing",
      "open rate",
      "never mentioned",
    ]);
    expect(s["email marketing"]!.map((p) => p.t)).toEqual(WEEKS);
    expect(postsOf(s["email marketing"]!)).toEqual([2, 1, 0, 1]);
    expect(postsOf(s["open rate"]!)).toEqual([2, 0, 0, 0]); // p3 is archived: still counted
    expect(postsOf(s["never mentioned"]!)).toEqual([0, 0, 0, 0]);
    expect(s["email marketing"]!.every((p) => p.comments === 0 && !("share" in p))).toBe(true);
  });

  it("gives competitors their share of voice in each bucket, null where none is mentioned", async () => {
    const res = await mentions(`group_by=competitor&interval=week&${RANGE}`);
    const s = series(res.body);
    // Week 1: Mailchimp p1, p2, p4 (skipped) = 3, Klaviyo p2, p3 = 2: 0.6 and 0.4.
    expect(s.Mailchimp!.map((p) => [p.posts, p.share])).toEqual([
      [3, 0.6],
      [0, null],
      [0, null],
      [0, 0],
    ]);
    expect(s.Klaviyo!.map((p) => p.share)).toEqual([0.4, null, null, 0]);
    expect(s.Brevo!.map((p) => [p.posts, p.share])).toEqual([
      [0, 0],
      [0, null],
      [0, null],
      [1, 1],
    ]);
  });

  it("counts by UTC day, and lists only subreddits with a mention", async () => {
    const res = await mentions("group_by=subreddit&interval=day&since=2026-11-02T10:00:00Z&until=2026-11-09T00:00:00Z");
    expect(res.body.since).toBe("2026-11-02T00:00:00.000Z");
    expect(res.body.until).toBe("2026-11-10T00:00:00.000Z");
    const s = series(res.body);
    expect(Object.keys(s)).toEqual(["SaaS", "marketing"]);
    expect(postsOf(s.SaaS!)).toEqual([1, 1, 0, 0, 0, 0, 0, 1]); // p1 at 00:00, p2 at 23:59:59, p5 on the 9th
    expect(postsOf(s.marketing!)).toEqual([0, 0, 0, 0, 0, 0, 2, 0]);
  });

  it("reads offsets as UTC and defaults to the 90 days before until, by week", async () => {
    // 2026-11-09T01:00+02:00 is 2026-11-08T23:00Z: the bucket of the 8th.
    const res = await mentions("group_by=subreddit&interval=day&since=2026-11-09T01:00:00%2B02:00&until=2026-11-08");
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe("query.since");
    const day = await mentions("group_by=subreddit&interval=day&since=2026-11-09T01:00:00%2B02:00&until=2026-11-09");
    expect(day.body.since).toBe("2026-11-08T00:00:00.000Z");
    const byDefault = await mentions("until=2026-11-29T12:00:00Z");
    expect(byDefault.body.interval).toBe("week");
    // 90 days before 2026-11-29T12:00Z is 2026-08-31T12:00Z, a Monday.
    expect(byDefault.body.since).toBe("2026-08-31T00:00:00.000Z");
    expect(byDefault.body.data[0].points).toHaveLength(13);
    expect(byDefault.body.data[0].key).toBe("email marketing");
  });

  it("follows links and posts as they come and go", async () => {
    const before = postsOf(series((await mentions(`interval=week&${RANGE}`)).body)["open rate"]!);
    expect(before).toEqual([2, 0, 0, 0]);
    await env.DB.prepare(
      "INSERT INTO post_keywords (workspace_id, post_id, keyword_id) SELECT ?, ?, id FROM keywords WHERE workspace_id = ? AND keyword = 'open rate'",
    )
      .bind(ws.id, postIds[5], ws.id)
      .run();
    await env.DB.prepare("DELETE FROM post_keywords WHERE post_id = ?").bind(postIds[2]).run();
    const moved = series((await mentions(`interval=week&${RANGE}`)).body);
    expect(postsOf(moved["open rate"]!)).toEqual([1, 0, 0, 1]);
    // A post deleted takes all its counts (its subreddit, its keywords, its competitors), once.
    await env.DB.prepare("DELETE FROM posts WHERE id = ?").bind(postIds[1]).run();
    const gone = series((await mentions(`interval=week&${RANGE}`)).body);
    expect(postsOf(gone["email marketing"]!)).toEqual([1, 1, 0, 1]);
    expect(postsOf(gone["open rate"]!)).toEqual([0, 0, 0, 1]);
    const competitors = series((await mentions(`group_by=competitor&interval=week&${RANGE}`)).body);
    expect(postsOf(competitors.Mailchimp!)).toEqual([2, 0, 0, 0]);
    expect(postsOf(competitors.Klaviyo!)).toEqual([1, 0, 0, 0]);
    const subreddits = series((await mentions(`group_by=subreddit&interval=week&${RANGE}`)).body);
    expect(postsOf(subreddits.SaaS!)).toEqual([1, 1, 0, 0]);
    // The other workspace never saw any of it.
    const elsewhere = series((await mentions(`group_by=competitor&interval=week&${RANGE}`, other.readKey)).body);
    expect(postsOf(elsewhere.Mailchimp!)).toEqual([1, 0, 0, 0]);
  });

  it("refuses bad parameters, since after until and ranges over 366 days", async () => {
    const cases: [string, string][] = [
      ["group_by=post", "query.group_by"],
      ["interval=month", "query.interval"],
      ["since=yesterday", "query.since"],
      ["since=2026-02-30", "query.since"],
      ["until=2026-11-02T25:00:00Z", "query.until"],
      ["since=2026-11-02T10:00:00", "query.since"], // no zone: not a UTC time
      ["since=2026-11-10&until=2026-11-09", "query.since"],
      ["since=2025-01-01&until=2026-01-03", "query.since"],
      ["sort=asc", "query.sort"],
    ];
    for (const [query, path] of cases) {
      const res = await mentions(query);
      expect([query, res.status, res.body.error.code, res.body.error.details?.[0]?.path]).toEqual([
        query,
        400,
        "validation_failed",
        path,
      ]);
    }
    // 366 days exactly is allowed.
    expect((await mentions("since=2025-01-01&until=2026-01-02&interval=week")).status).toBe(200);
    expect((await callJson("/api/v1/insights/mentions")).status).toBe(401);
  });

  it("counts stored comments beside posts, in share of voice too, and forgets a deleted one (migration 0082)", async () => {
    const at = Date.parse("2026-11-24T12:00:00.000Z") / 1000;
    const stored = await ingestComments(
      ws.id,
      [
        forumComment("c1", "Moving our email marketing off Mailchimp", { subreddit: "SaaS", created_utc: at }),
        forumComment("c2", "Klaviyo does this better", { subreddit: "marketing", created_utc: at + 60 }),
      ],
      (at + 3600) * 1000,
    );
    expect(stored).toBeDefined();
    const keywords = series((await mentions(`interval=week&${RANGE}`)).body);
    expect(keywords["email marketing"]!.map((p) => p.comments)).toEqual([0, 0, 0, 1]);
    const competitors = series((await mentions(`group_by=competitor&interval=week&${RANGE}`)).body);
    // Week of 11-23: Brevo's post p6, Mailchimp's comment c1, Klaviyo's comment c2: a third each.
    expect(competitors.Mailchimp!.at(-1)).toEqual({ t: WEEKS[3], posts: 0, comments: 1, share: 0.3333 });
    expect(competitors.Brevo!.at(-1)).toEqual({ t: WEEKS[3], posts: 1, comments: 0, share: 0.3333 });
    const subreddits = series((await mentions(`group_by=subreddit&interval=week&${RANGE}`)).body);
    expect(subreddits.marketing!.at(-1)).toMatchObject({ posts: 0, comments: 1 });
    await env.DB.prepare("DELETE FROM comments WHERE workspace_id = ? AND forum_id = 'c1'").bind(ws.id).run();
    const after = series((await mentions(`group_by=competitor&interval=week&${RANGE}`)).body);
    expect(after.Mailchimp!.at(-1)).toMatchObject({ comments: 0, share: 0 });
    expect(after.Klaviyo!.at(-1)).toMatchObject({ comments: 1, share: 0.5 });
    const kwAfter = series((await mentions(`interval=week&${RANGE}`)).body);
    expect(kwAfter["email marketing"]!.map((p) => p.comments)).toEqual([0, 0, 0, 0]);
  });
});
