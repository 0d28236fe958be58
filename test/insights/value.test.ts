// Opportunity value (docs/insights.md): the arithmetic of the worked examples, pinned through the API, and
// kept right by the triggers of migration 0081 whatever changes (links, metrics, triage), and
// GET /insights/opportunities: open posts with a value, highest first, paged like GET /posts.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { writeContent } from "../../scripts/seed/workspace";
import { workspaceDb } from "../../src/db/client";
import { saveKeywordMetrics } from "../../src/db/monitor";
import { callJson, callJsonKeepingMonitorQueue, createTestWorkspace, type TestWorkspace } from "../helpers/api";

let ws: TestWorkspace;
let ids: Record<string, number>;

const post = (forumId: string, keywords: string[], overrides: Record<string, unknown> = {}) => ({
  forumId,
  subreddit: "emailmarketing",
  title: `thread ${forumId}`,
  selftext: "",
  author: "someone",
  url: `https://www.reddit.com/r/emailmarketing/comments/${forumId}/t/`,
  score: 1,
  numComments: 0,
  createdUtc: "2026-11-20T10:00:00.000Z",
  permalink: `/r/emailmarketing/comments/${forumId}/t/`,
  isAnswered: false,
  archived: false,
  skipped: false,
  priority: "low" as const,
  urgency: "not_urgent" as const,
  scoreReasons: ["= 0 points: low priority (50+ high, 25+ medium); not urgent"],
  keywords,
  ...overrides,
});

beforeAll(async () => {
  ws = await createTestWorkspace("value");
  const written = await writeContent(env, ws.id, {
    keywords: [
      // Example 1's keyword: its search-engine forum result is thread r1 (position 2), written with the host.
      {
        keyword: "email marketing",
        searchVolume: 74000,
        cpc: "14.20",
        serpForumPosition: 2,
        serpForumUrl: "https://www.reddit.com/r/emailmarketing/comments/r1/t",
      },
      // Ranks with thread r1 too, past the table (position 35: 0.005).
      {
        keyword: "cold email",
        searchVolume: 22200,
        cpc: "12.30",
        serpForumPosition: 35,
        serpForumUrl: "https://old.reddit.com/r/emailmarketing/comments/r1/t/",
      },
      // Ranks with another thread only.
      {
        keyword: "open rate",
        searchVolume: 12100,
        cpc: "4.10",
        serpForumPosition: 6,
        serpForumUrl: "https://www.reddit.com/r/emailmarketing/comments/elsewhere/x/",
      },
      { keyword: "drip campaign", searchVolume: 3600, cpc: "8.70", serpForumPosition: null, serpForumUrl: null },
      { keyword: "deliverability", searchVolume: null, cpc: null, serpForumPosition: null, serpForumUrl: null },
    ],
    competitors: [],
    posts: [
      post("r1", ["email marketing", "cold email", "open rate"]),
      post("n1", ["open rate", "drip campaign"]),
      post("u1", ["deliverability"]),
      post("a1", ["drip campaign"], { isAnswered: true }),
      post("s1", ["drip campaign"], { skipped: true }),
      post("x1", ["drip campaign"], { archived: true }),
      post("d1", ["drip campaign"], { createdUtc: "2026-11-21T10:00:00.000Z" }),
    ],
  });
  ids = Object.fromEntries(["r1", "n1", "u1", "a1", "s1", "x1", "d1"].map((f, i) => [f, written.postIds[i]!]));
  ids.kwEmail = written.keywordIds[0]!;
  ids.kwOpen = written.keywordIds[2]!;
});

const getPost = async (id: number) => (await callJson(`/api/v1/posts/${id}`, { key: ws.readKey })).body;

describe("opportunity value", () => {
  it("sums volume x CTR(position) x CPC over the keywords whose forum result is this thread", async () => {
    // 74,000 x 0.2471 (position 2) x 14.20 = 259,652.68; 22,200 x 0.005 (position 35) x 12.30 = 1,365.30.
    // "open rate" ranks another thread and adds nothing.
    const p = await getPost(ids.r1!);
    expect(p.value).toBe(261017.98);
    expect(p.score_reasons.at(-1)).toBe("worth about $261,018 a month in search traffic");
  });

  it("takes the best keyword's volume x CPC x 0.005 when no keyword ranks with this thread", async () => {
    // open rate 12,100 x 4.10 = 49,610; drip campaign 3,600 x 8.70 = 31,320; best 49,610 x 0.005 = 248.05.
    const p = await getPost(ids.n1!);
    expect(p.value).toBe(248.05);
    expect(p.score_reasons.at(-1)).toBe("worth about $248 a month in search traffic");
  });

  it("is null, with no reason, when no matched keyword has both a volume and a CPC", async () => {
    const p = await getPost(ids.u1!);
    expect(p.value).toBeNull();
    expect(p.score_reasons.some((r: string) => r.startsWith("worth about"))).toBe(false);
  });

  it("follows new metrics, a link removed and a link added (the triggers of migration 0081)", async () => {
    const w = workspaceDb(env, ws.id);
    const email = { id: ids.kwEmail!, keyword: "email marketing" };
    const metrics = {
      searchVolume: 74000,
      cpc: "14.20",
      serpForumPosition: 1,
      serpForumUrl: "https://www.reddit.com/r/emailmarketing/comments/r1/t",
    };
    // The forum result moves to position 1 (the weekly measurement): 74,000 x 0.3173 x 14.20 = 333,418.84, + 1,365.30.
    expect(await saveKeywordMetrics(w, email, metrics)).toBe(true);
    expect((await getPost(ids.r1!)).value).toBe(334784.14);
    // Without the ranking keywords' links, the best keyword of those left: open rate, 248.05.
    await env.DB.prepare("DELETE FROM post_keywords WHERE post_id = ? AND keyword_id != ?")
      .bind(ids.r1, ids.kwOpen)
      .run();
    expect((await getPost(ids.r1!)).value).toBe(248.05);
    await env.DB.prepare("INSERT INTO post_keywords (workspace_id, post_id, keyword_id) VALUES (?, ?, ?)")
      .bind(ws.id, ids.r1, ids.kwEmail)
      .run();
    expect((await getPost(ids.r1!)).value).toBe(333418.84);
    // No volume measured: the keyword counts for nothing.
    await saveKeywordMetrics(w, email, { ...metrics, searchVolume: null });
    expect((await getPost(ids.r1!)).value).toBe(248.05);
  });
});

describe("GET /insights/opportunities", () => {
  it("lists the open posts with a value, highest first (ties newer first), paged like GET /posts", async () => {
    const res = await callJson("/api/v1/insights/opportunities?limit=2", { key: ws.readKey });
    expect(res.status).toBe(200);
    // r1 and n1 are 248.05 (n1's and r1's best is open rate now), d1 is 3,600 x 8.70 x 0.005 = 156.60.
    expect(res.body.count).toBe(3);
    expect(res.body.count_is_estimate).toBe(false);
    expect(res.body.next_offset).toBe(2);
    expect(res.body.data.map((p: { id: number }) => p.id)).toEqual(
      [ids.r1!, ids.n1!].sort((a, b) => b - a), // same value and date: higher id first
    );
    const rest = await callJson("/api/v1/insights/opportunities?limit=2&offset=2", { key: ws.readKey });
    expect(rest.body.data.map((p: { id: number; value: number }) => [p.id, p.value])).toEqual([[ids.d1!, 156.6]]);
    expect(rest.body.next_offset).toBeNull();
    // Past the last page: no rows, the count still right.
    const past = await callJson("/api/v1/insights/opportunities?offset=10", { key: ws.readKey });
    expect(past.body).toEqual({ data: [], count: 3, next_offset: null, count_is_estimate: false });
  });

  it("drops a post once it is answered, archived or skipped", async () => {
    const res = await callJsonKeepingMonitorQueue(`/api/v1/posts/${ids.d1}`, {
      key: ws.writeKey,
      method: "PATCH",
      body: { is_answered: true },
    });
    expect(res.status).toBe(200);
    const after = await callJson("/api/v1/insights/opportunities", { key: ws.readKey });
    expect(after.body.data.map((p: { id: number }) => p.id)).not.toContain(ids.d1);
    expect(after.body.count).toBe(2);
  });

  it("refuses unknown parameters and bad paging", async () => {
    for (const q of ["limit=0", "limit=501", "offset=-1", "sort_by=value"]) {
      const res = await callJson(`/api/v1/insights/opportunities?${q}`, { key: ws.readKey });
      expect([q, res.status, res.body.error.code]).toEqual([q, 400, "validation_failed"]);
    }
  });
});
