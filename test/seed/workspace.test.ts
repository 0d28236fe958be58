// The seeding module (scripts/seed/workspace.ts): the one way seed, demo, benchmarks and tests make a
// workspace with data, through src/db.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { seedKeys, seedWorkspace, syntheticContent } from "../../scripts/seed/workspace";
import { valueReason } from "../../src/db/posts";
import { compileTerms, matchPost } from "../../src/monitor/match";
import { scorePost } from "../../src/monitor/score";
import { callJson } from "../helpers/api";

const count = async (sql: string, ...params: unknown[]) =>
  (await env.DB.prepare(sql)
    .bind(...params)
    .first<{ n: number }>())!.n;

describe("seedWorkspace", () => {
  it("makes a workspace with working keys, the synthetic keywords and competitors, posts and their links", async () => {
    const content = syntheticContent(60, 42, Date.UTC(2026, 10, 1));
    const seeded = await seedWorkspace(env, { name: "seeded", keys: seedKeys("t", 1), content });
    expect(seeded.keys).toHaveLength(3);
    expect(seeded.postIds).toHaveLength(60);
    const [write, read, extra] = seeded.keys;

    const keywords = await callJson("/api/v1/keywords", { key: read });
    expect(keywords.status).toBe(200);
    expect(keywords.body.data.map((k: { keyword: string }) => k.keyword).sort()).toEqual(
      content.keywords.map((k) => k.keyword).sort(),
    );
    expect((await callJson("/api/v1/competitors", { key: extra })).body.count).toBe(content.competitors.length);

    // Every post, with what it matched, as the API serves it.
    const all = await callJson("/api/v1/posts?include_archived=true&limit=500&sort_by=date&sort_order=asc", {
      key: read,
    });
    expect(all.body.count).toBe(60);
    const byForumId = new Map(
      all.body.data.map((p: { forum_id: string }) => [p.forum_id, p] as [string, Record<string, unknown>]),
    );
    for (const post of content.posts) {
      expect(byForumId.get(post.forumId)).toMatchObject({
        title: post.title,
        subreddit: post.subreddit,
        author: post.author,
        score: post.score,
        num_comments: post.numComments,
        is_answered: post.isAnswered,
        archived: post.archived,
        skipped: post.skipped,
        priority: post.priority,
        urgency: post.urgency,
        matched_keywords: [...(post.keywords ?? [])].sort(),
        mentioned_competitors: [...(post.competitors ?? [])].sort(),
      });
    }
    // Full-text search sees the seeded posts (the FTS triggers ran).
    const word = content.posts[0]!.title.split(" ").find((t) => /^[a-z]{5,}$/i.test(t))!;
    const found = await callJson(`/api/v1/posts?include_archived=true&search=${encodeURIComponent(word)}`, {
      key: read,
    });
    expect(found.status).toBe(200);
    expect(found.body.count).toBeGreaterThan(0);

    // The write key writes; the read key does not. Last: a new keyword queues a re-match of the workspace's
    // posts (monitor.rematch), which recomputes their matches and urgency with the real matcher, so the seeded
    // values above are read before it can run.
    expect((await callJson("/api/v1/keywords", { key: write, method: "POST", body: { keyword: "x" } })).status).toBe(
      201,
    );
    expect((await callJson("/api/v1/keywords", { key: read, method: "POST", body: { keyword: "y" } })).status).toBe(
      403,
    );
  });

  it("is deterministic for a seed, and covers every priority, urgency and triage state in a dozen posts", () => {
    const a = syntheticContent(12, 7, Date.UTC(2026, 0, 1));
    expect(syntheticContent(12, 7, Date.UTC(2026, 0, 1))).toEqual(a);
    expect(new Set(a.posts.map((p) => p.priority))).toEqual(new Set(["high", "medium", "low", null]));
    expect(new Set(a.posts.map((p) => p.urgency))).toEqual(new Set(["urgent", "not_urgent", null]));
    for (const flag of ["isAnswered", "archived", "skipped"] as const)
      expect(new Set(a.posts.map((p) => p[flag]))).toEqual(new Set([true, false]));
  });

  it("explains every seeded post as the product's matcher and scorer would: its matches, priority, urgency and reasons", async () => {
    const now = Date.UTC(2026, 10, 1);
    const content = syntheticContent(120, 42, now);
    const active = content.keywords.filter((k) => k.active);
    const terms = compileTerms([
      ...active.map((k, id) => ({ kind: "keyword" as const, id, text: k.keyword, ambiguous: k.isAmbiguous === true })),
      ...content.competitors.flatMap((c, id) =>
        [c.name, ...(c.keywords ?? [])].map((text) => ({
          kind: "competitor" as const,
          id,
          text,
          ambiguous: c.isAmbiguous === true,
        })),
      ),
    ]);
    let scored = 0;
    for (const post of content.posts) {
      const match = matchPost(post, terms);
      expect(post.keywords, post.title).toEqual(match.keywordIds.map((id) => active[id]!.keyword));
      expect(post.competitors, post.title).toEqual(match.competitorIds.map((id) => content.competitors[id]!.name));
      if (post.priority === null) {
        expect([post.urgency, post.scoreReasons]).toEqual([null, []]);
        continue;
      }
      scored++;
      const expected = scorePost(
        {
          ...post,
          keywords: match.keywordIds.map((id) => {
            const k = active[id]!;
            const cpc = k.cpc === null ? null : Number(k.cpc);
            return {
              text: k.keyword,
              searchVolume: k.searchVolume ?? null,
              cpc,
              serpForumPosition: k.serpForumPosition ?? null,
              serpForumUrl: k.serpForumUrl ?? null,
            };
          }),
          competitors: [...(post.competitors ?? [])],
        },
        now,
      );
      expect({ priority: post.priority, urgency: post.urgency, reasons: post.scoreReasons }, post.title).toEqual({
        priority: expected.priority,
        urgency: expected.urgency,
        reasons: expected.reasons,
      });
    }
    // Only the cycle's posts without a score (every fourth of the first twelve) have none.
    expect(scored).toBe(content.posts.length - 3);
    // The reasons are worded by the scorer ("+30 buying intent (...)", "= N points: ..."), also as served.
    const seeded = await seedWorkspace(env, { name: "explained", keys: seedKeys("e"), content });
    const served = await callJson("/api/v1/posts?include_archived=true&limit=500", { key: seeded.keys[1] });
    const byForumId = new Map(content.posts.map((p) => [p.forumId, p]));
    // Served, a post with an opportunity value carries one more reason, its worth (docs/insights.md).
    for (const post of served.body.data as { forum_id: string; score_reasons: string[]; value: number | null }[])
      expect(post.score_reasons).toEqual([
        ...byForumId.get(post.forum_id)!.scoreReasons!,
        ...(post.value === null ? [] : [valueReason(post.value)]),
      ]);
    expect(served.body.data.some((p: { value: number | null }) => p.value !== null)).toBe(true);
    expect(content.posts[0]!.scoreReasons!.at(-1)).toMatch(/^= -?\d+ points: \w+ priority/);
  });

  it("leaves nothing half written when a write fails: the workspace and its rows are gone", async () => {
    const content = syntheticContent(5, 1);
    content.posts[3] = { ...content.posts[3]!, keywords: ["a keyword nobody tracks"] };
    const before = await count("SELECT count(*) AS n FROM workspaces");
    await expect(seedWorkspace(env, { name: "broken seed", keys: seedKeys("t"), content })).rejects.toThrow(
      /unknown keyword/,
    );
    expect(await count("SELECT count(*) AS n FROM workspaces")).toBe(before);
    expect(await count("SELECT count(*) AS n FROM workspaces WHERE name = ?", "broken seed")).toBe(0);
    expect(await count("SELECT count(*) AS n FROM posts WHERE workspace_id NOT IN (SELECT id FROM workspaces)")).toBe(
      0,
    );
  });
});
