import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import worker from "../../src";
import { workspaceDb } from "../../src/db/client";
import { createKeyword } from "../../src/db/tracking";
import { enqueueStaleKeywordMetrics } from "../../src/jobs/monitor-fanout";
import { metricsProvider, refreshKeywordMetrics } from "../../src/monitor/keyword-metrics";
import { runMonitorPass } from "../../src/monitor/pass";
import { rematchBatch } from "../../src/monitor/rematch";
import { callJson, callJsonWith } from "../helpers/api";
import { forum, newClient, nowSeconds, postsAbout, trackingWorkspace } from "../helpers/monitor";

let counter = 0;
async function deliver(bodies: unknown[], withEnv: typeof env = env) {
  const batch = createMessageBatch(
    "threadwatch-monitor",
    bodies.map((body) => ({ id: `monitor-msg-${++counter}`, timestamp: new Date(), attempts: 1, body })),
  );
  const ctx = createExecutionContext();
  await (worker.queue as ExportedHandlerQueueHandler<typeof env>)(batch, withEnv, ctx);
  return getQueueResult(batch, ctx);
}

const WITH_METRICS = { ...env, DATAFORSEO_LOGIN: "dfs-login", DATAFORSEO_PASSWORD: "dfs-password" };

describe("monitoring endpoints", () => {
  it("POST /actions/monitoring/run runs a pass; GET /actions/monitoring shows it and the quota", async () => {
    // A client of its own, passed as the Worker's REDDIT_CLIENT_ID: the environment's client is the one personas
    // connect through, whose registration and counts other files use at the same time.
    const client = newClient("run");
    const own = { REDDIT_CLIENT_ID: client.clientId };
    await forum.reset(client);
    await forum.addPosts(client, postsAbout("spam folder", 3, "s"));
    const ws = await trackingWorkspace("api run", ["spam folder"]);

    const before = await callJsonWith("/api/v1/actions/monitoring", own, { key: ws.readKey });
    expect(before.status).toBe(200);
    expect(before.body.enabled).toBe(true);
    expect(before.body.last_run).toBeNull();

    const refused = await callJsonWith("/api/v1/actions/monitoring/run", own, { key: ws.readKey, method: "POST" });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("forbidden");
    const unknown = await callJsonWith("/api/v1/actions/monitoring/run", own, {
      key: ws.writeKey,
      method: "POST",
      body: { force: true },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe("validation_failed");

    const ran = await callJsonWith("/api/v1/actions/monitoring/run", own, { key: ws.writeKey, method: "POST" });
    expect(ran.status).toBe(200);
    expect(ran.body.run).toMatchObject({ status: "completed", queries: 1, fetched: 3, matched: 3, created: 3 });
    expect(Object.keys(ran.body.run).sort()).toEqual(
      [
        "status",
        "started_at",
        "finished_at",
        "requests",
        "queries",
        "fetched",
        "matched",
        "created",
        "updated",
        "error",
      ].sort(),
    );

    const after = await callJsonWith("/api/v1/actions/monitoring", own, { key: ws.readKey });
    expect(after.body.last_run).toEqual(ran.body.run);
    expect(after.body.quota.remaining).toBeGreaterThan(0);
    expect(after.body.quota.remaining).toBeLessThanOrEqual(100);
    expect(Date.parse(after.body.quota.reset_at)).toBeGreaterThan(Date.now());

    const posts = await callJson("/api/v1/posts", { key: ws.readKey });
    expect(posts.body.count).toBe(3);
    for (const p of posts.body.data) expect(p.score_reasons.length).toBeGreaterThan(0);
  });

  it("a backfill message searches the workspace's new terms once; a second finds nothing new to search", async () => {
    const ws = await trackingWorkspace("backfill message", ["backfill-only term"]);
    const idle = await trackingWorkspace("backfill idle", [{ keyword: "paused", active: false }]);
    const result = await deliver([{ type: "monitor.pass", workspace_id: ws.id }]);
    expect(result.explicitAcks).toHaveLength(1);
    const status = await callJson("/api/v1/actions/monitoring", { key: ws.readKey });
    expect(status.body.last_run).toMatchObject({ status: "completed", queries: 1 });
    const again = await deliver([{ type: "monitor.pass", workspace_id: ws.id }]);
    expect(again.explicitAcks).toHaveLength(1);
    const same = await callJson("/api/v1/actions/monitoring", { key: ws.readKey });
    expect(same.body.last_run).toEqual(status.body.last_run);
    await deliver([{ type: "monitor.pass", workspace_id: idle.id }]);
    const none = await callJson("/api/v1/actions/monitoring", { key: idle.readKey });
    expect(none.body.last_run).toBeNull();
  });
});

describe("re-matching stored posts when terms change", () => {
  it("a new keyword finds stored posts that contain it; deactivating it removes it again", async () => {
    const client = newClient("rematch");
    await forum.reset(client);
    const now = nowSeconds();
    await forum.addPosts(client, [
      {
        id: "x1",
        title: "Cold email that converts",
        selftext: "our welcome sequence is short",
        created_utc: now - 100,
      },
      { id: "x2", title: "Cold email tips", selftext: "nothing else", created_utc: now - 200 },
      {
        id: "x3",
        title: "Cold email and welcome sequences",
        selftext: "plural is another word",
        created_utc: now - 300,
      },
    ]);
    const ws = await trackingWorkspace("rematch", ["cold email"]);
    await runMonitorPass(env, workspaceDb(env, ws.id), { trigger: "api", config: client });

    const created = await callJson("/api/v1/keywords", {
      key: ws.writeKey,
      method: "POST",
      body: { keyword: "Welcome Sequence" },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    await deliver([{ type: "monitor.rematch", workspace_id: ws.id, after_post_id: 0 }]);
    const found = await callJson(`/api/v1/posts?keyword_id=${id}`, { key: ws.readKey });
    expect(found.body.data.map((p: { forum_id: string }) => p.forum_id)).toEqual(["x1"]);
    expect(found.body.data[0].matched_keywords).toEqual(["Welcome Sequence", "cold email"]);

    await callJson(`/api/v1/keywords/${id}`, { key: ws.writeKey, method: "PATCH", body: { active: false } });
    await deliver([{ type: "monitor.rematch", workspace_id: ws.id, after_post_id: 0 }]);
    const gone = await callJson(`/api/v1/posts?keyword_id=${id}`, { key: ws.readKey });
    expect(gone.body.count).toBe(0);
  });

  it("deleting a term re-matches the stored posts: an ambiguous term it gave context to no longer counts", async () => {
    const client = newClient("delete-context");
    await forum.reset(client);
    const now = nowSeconds();
    await forum.addPosts(client, [
      { id: "d1", title: "Apple Pay in our checkout", selftext: "works in Stripe too", created_utc: now - 100 },
      { id: "d2", title: "Notion or Coda for the wiki", selftext: "a long table", created_utc: now - 200 },
    ]);
    const ws = await trackingWorkspace(
      "delete context",
      [{ keyword: "apple pay", is_ambiguous: true }, "checkout"],
      [{ name: "Notion", is_ambiguous: true }, { name: "Coda" }],
    );
    await runMonitorPass(env, workspaceDb(env, ws.id), { trigger: "api", config: client });
    const matches = async () =>
      Object.fromEntries(
        ((await callJson("/api/v1/posts", { key: ws.readKey })).body.data as any[]).map((p) => [
          p.forum_id,
          [...p.matched_keywords, ...p.mentioned_competitors],
        ]),
      );
    expect(await matches()).toEqual({ d1: ["apple pay", "checkout"], d2: ["Coda", "Notion"] });

    // The non-ambiguous terms go: with no context left, "apple pay" and "Notion" no longer count (as when the
    // terms are switched off). The re-match runs from the queue, as after any change.
    for (const path of [`/api/v1/keywords/${ws.keywordIds.checkout}`, `/api/v1/competitors/${ws.competitorIds.Coda}`])
      expect((await callJson(path, { key: ws.writeKey, method: "DELETE" })).status).toBe(204);
    await vi.waitFor(async () => expect(await matches()).toEqual({ d1: [], d2: [] }), { timeout: 15_000 });
  });

  it("a term added while a pass runs is on the posts once the pass is done, though the pass re-linked them", async () => {
    const client = newClient("mid-pass");
    await forum.reset(client);
    await forum.addPosts(client, [
      { id: "m1", title: "Cold email with a welcome sequence", selftext: "", created_utc: nowSeconds() - 100 },
    ]);
    const ws = await trackingWorkspace("mid pass", ["cold email"]);
    const w = workspaceDb(env, ws.id);
    await runMonitorPass(env, w, { trigger: "api", config: client });
    const matched = async () => (await callJson("/api/v1/posts", { key: ws.readKey })).body.data[0].matched_keywords;
    expect(await matched()).toEqual(["cold email"]);

    // The next pass's search is held at the forum; meanwhile a keyword is added and its re-match runs to the end.
    const searches = async () => (await forum.stats(client)).paths["/search"] ?? 0;
    const before = await searches();
    await forum.configure(client, { hold: true });
    const running = runMonitorPass(env, w, { trigger: "api", config: client });
    await vi.waitFor(async () => expect(await searches()).toBe(before + 1), { timeout: 15_000 });
    await createKeyword(w, { keyword: "welcome sequence" });
    for (let after: number | null = 0; after !== null; ) after = (await rematchBatch(w, after)).next;
    expect(await matched()).toEqual(["cold email", "welcome sequence"]);
    await forum.configure(client, { hold: false });
    // The pass refreshes m1 with the terms it started with, then sees the terms changed and queues a re-match.
    expect(await running).toMatchObject({ status: "completed", updated: 1 });
    await vi.waitFor(async () => expect(await matched()).toEqual(["cold email", "welcome sequence"]), {
      timeout: 15_000,
    });
  });

  it("works through the posts in bounded batches, each message queuing the next", async () => {
    const client = newClient("batches");
    await forum.reset(client);
    await forum.addPosts(client, postsAbout("segmentation", 250, "g"));
    const ws = await trackingWorkspace("batches", ["segmentation"]);
    await runMonitorPass(env, workspaceDb(env, ws.id), { trigger: "api", config: client });
    const { rematchBatch, REMATCH_BATCH } = await import("../../src/monitor/rematch");
    const w = workspaceDb(env, ws.id);
    const first = await rematchBatch(w, 0);
    expect(first.changed).toBe(0); // nothing changed: nothing written
    expect(first.next).not.toBeNull();
    const second = await rematchBatch(w, first.next!);
    expect(second.next).toBeNull();
    expect(REMATCH_BATCH).toBe(200);
  });

  it("a competitor added later is mentioned on the stored posts that name it", async () => {
    const client = newClient("comp");
    await forum.reset(client);
    await forum.addPosts(client, [
      { id: "c1", title: "Klaviyo vs the rest for mailing list growth", created_utc: nowSeconds() - 50 },
    ]);
    const ws = await trackingWorkspace("competitor rematch", ["mailing list"]);
    await runMonitorPass(env, workspaceDb(env, ws.id), { trigger: "api", config: client });
    const created = await callJson("/api/v1/competitors", {
      key: ws.writeKey,
      method: "POST",
      body: { name: "Klaviyo" },
    });
    expect(created.status).toBe(201);
    await deliver([{ type: "monitor.rematch", workspace_id: ws.id, after_post_id: 0 }]);
    const posts = await callJson("/api/v1/posts?has_competitors=true", { key: ws.readKey });
    expect(posts.body.data.map((p: { mentioned_competitors: string[] }) => p.mentioned_competitors)).toEqual([
      ["Klaviyo"],
    ]);
    expect(posts.body.data[0].score_reasons).toContain("+20 mentions Klaviyo");
  });
});

/** Delivers one metrics message for every keyword of `ws` with credentials; the refusals it logged. */
async function measureAll(ws: { id: number; keywordIds: Record<string, number> }) {
  const logged: string[] = [];
  const spy = vi.spyOn(console, "warn").mockImplementation((line: unknown) => void logged.push(String(line)));
  try {
    await deliver(
      [{ type: "monitor.metrics", workspace_id: ws.id, keyword_ids: Object.values(ws.keywordIds) }],
      WITH_METRICS,
    );
  } finally {
    spy.mockRestore();
  }
  return logged.map((l) => JSON.parse(l)).filter((l) => l.msg === "keyword metrics: task refused");
}

describe("keyword metrics (DataForSEO)", () => {
  it("a metrics message measures volume, CPC and the forum's first organic result", async () => {
    const ws = await trackingWorkspace("metrics", ["email marketing", "nowhere to be found"]);
    await deliver(
      [
        {
          type: "monitor.metrics",
          workspace_id: ws.id,
          keyword_ids: [ws.keywordIds["email marketing"], ws.keywordIds["nowhere to be found"]],
        },
      ],
      WITH_METRICS,
    );
    const { body } = await callJson("/api/v1/keywords", { key: ws.readKey });
    const byText = Object.fromEntries(body.data.map((k: { keyword: string }) => [k.keyword, k]));
    expect(byText["email marketing"]).toMatchObject({
      search_volume: 15_000,
      cpc: "3.75",
      serp_forum_position: 3,
      serp_forum_url: "https://www.reddit.com/r/test/comments/k15/email_marketing/",
    });
    expect(byText["email marketing"].serp_checked_at).not.toBeNull();
    expect(byText["nowhere to be found"]).toMatchObject({
      search_volume: 19_000,
      serp_forum_position: null,
      serp_forum_url: null,
    });
  });

  it("a keyword whose task the provider refuses is left unmeasured; the others of its batch are measured", async () => {
    const ws = await trackingWorkspace("metrics refused", ["email marketing", "refused by ads", "refused by serp"]);
    const refusals = await measureAll(ws);
    const { body } = await callJson("/api/v1/keywords", { key: ws.readKey });
    const byText = Object.fromEntries(body.data.map((k: { keyword: string }) => [k.keyword, k]));
    // Asked again alone after the batch's refusal, and measured.
    expect(byText["email marketing"]).toMatchObject({ search_volume: 15_000, serp_forum_position: 3 });
    expect(byText["email marketing"].serp_checked_at).not.toBeNull();
    // Not measured: nothing stored, so the weekly run asks again (not "no forum result" for a week).
    for (const text of ["refused by ads", "refused by serp"])
      expect(byText[text], text).toMatchObject({
        search_volume: null,
        serp_forum_position: null,
        serp_checked_at: null,
      });
    expect(refusals.map((l) => [l.what, l.keywords])).toEqual([
      ["search volume", ["refused by ads"]],
      ["serp", ["refused by serp"]],
    ]);
  });

  it("a batch DataForSEO fails with an error of its own is not asked again keyword by keyword", async () => {
    const ws = await trackingWorkspace("metrics provider error", ["provider error", "click rate"]);
    const refusals = await measureAll(ws);
    const { body } = await callJson("/api/v1/keywords", { key: ws.readKey });
    expect(body.data.map((k: { serp_checked_at: unknown }) => k.serp_checked_at)).toEqual([null, null]);
    expect(refusals).toEqual([
      expect.objectContaining({
        what: "search volume",
        keywords: ["provider error", "click rate"],
        status: "50000 Internal Error.",
      }),
    ]);
  });

  it("a keyword's new text has no numbers until it is measured; switching it off keeps them", async () => {
    const ws = await trackingWorkspace("metrics rename", ["email marketing", "open rate"]);
    await deliver(
      [{ type: "monitor.metrics", workspace_id: ws.id, keyword_ids: Object.values(ws.keywordIds) }],
      WITH_METRICS,
    );
    const keyword = async (id: number) => (await callJson(`/api/v1/keywords/${id}`, { key: ws.readKey })).body;
    const measured = { search_volume: 15_000, cpc: "3.75", serp_forum_position: 3 };
    expect(await keyword(ws.keywordIds["email marketing"]!)).toMatchObject(measured);
    const patch = (id: number, body: unknown) =>
      callJson(`/api/v1/keywords/${id}`, { key: ws.writeKey, method: "PATCH", body });

    // Renamed (this environment has no metrics credentials, so its queued measurement stores nothing).
    const renamed = await patch(ws.keywordIds["email marketing"]!, { keyword: "email outreach" });
    expect(renamed.body).toMatchObject({
      keyword: "email outreach",
      search_volume: null,
      cpc: null,
      serp_forum_position: null,
      serp_forum_url: null,
      serp_checked_at: null,
    });
    // Switched off, or sent its own text again: the numbers still describe it.
    const openRate = ws.keywordIds["open rate"]!;
    const before = await keyword(openRate);
    expect(before.search_volume).toBe(9_000);
    expect((await patch(openRate, { active: false })).body).toMatchObject({ ...before, active: false });
    expect((await patch(openRate, { keyword: "open rate" })).body).toMatchObject({ ...before, active: false });
  });

  it("numbers measured for a keyword's old text are not stored once it is renamed during the measurement", async () => {
    const ws = await trackingWorkspace("metrics renamed meanwhile", ["email marketing"]);
    const id = ws.keywordIds["email marketing"]!;
    const dataforseo = metricsProvider(WITH_METRICS)!;
    // DataForSEO answers while a person renames the keyword.
    const slow = {
      name: dataforseo.name,
      measure: async (texts: string[]) => {
        const answer = await dataforseo.measure(texts);
        const renamed = await callJson(`/api/v1/keywords/${id}`, {
          key: ws.writeKey,
          method: "PATCH",
          body: { keyword: "email outreach" },
        });
        expect(renamed.status).toBe(200);
        return answer;
      },
    };
    // Nothing stored, and the count says so.
    expect(await refreshKeywordMetrics(WITH_METRICS, workspaceDb(env, ws.id), [id], slow)).toBe(0);
    const { body } = await callJson(`/api/v1/keywords/${id}`, { key: ws.readKey });
    expect(body).toMatchObject({ keyword: "email outreach", search_volume: null, serp_checked_at: null });
  });

  it("without credentials nothing is measured and nothing fails", async () => {
    const ws = await trackingWorkspace("no metrics", ["open rate"]);
    const result = await deliver([
      { type: "monitor.metrics", workspace_id: ws.id, keyword_ids: [ws.keywordIds["open rate"]] },
    ]);
    expect(result.explicitAcks).toHaveLength(1);
    const { body } = await callJson("/api/v1/keywords", { key: ws.readKey });
    expect(body.data[0]).toMatchObject({ search_volume: null, cpc: null, serp_checked_at: null });
    expect(await enqueueStaleKeywordMetrics(env, Date.now())).toBe(0);
  });

  it("the weekly cron queues the stale keywords in batches", async () => {
    await trackingWorkspace("weekly", ["weekly one", "weekly two"]);
    const queued = await enqueueStaleKeywordMetrics(WITH_METRICS, Date.now());
    expect(queued).toBeGreaterThanOrEqual(2);
  });
});
