import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { workspaceDb } from "../../src/db/client";
import { isDomainError } from "../../src/lib/domain-errors";
import { runMonitorPass } from "../../src/monitor/pass";
import { monitoringStatus } from "../../src/monitor/status";
import { callJson } from "../helpers/api";
import { forum, newClient, nowSeconds, postsAbout, trackingWorkspace } from "../helpers/monitor";

const pass = (wsId: number, config: ReturnType<typeof newClient>, budgetMs = 20_000, now?: () => number) =>
  runMonitorPass(env, workspaceDb(env, wsId), { trigger: "api", config, budgetMs, now });

async function listPosts(key: string, query = "") {
  const { status, body } = await callJson(`/api/v1/posts?limit=500${query}`, { key });
  expect(status).toBe(200);
  return body as { data: Record<string, any>[]; count: number };
}

describe("a monitoring pass", () => {
  it("stores what our matcher accepts (not the forum's fuzzy hits), seven days back, with reasons", async () => {
    const client = newClient("first");
    await forum.reset(client);
    const now = nowSeconds();
    await forum.addPosts(client, [
      {
        id: "m1",
        title: "Best email marketing tool?",
        selftext: "Looking for a recommendation",
        // A fraction of a second is stored as the whole second (the full-text index keys posts by it).
        created_utc: now - 600 + 0.75,
      },
      { id: "m2", title: "Weekly thread", selftext: "We moved off Mailchimp last month", created_utc: now - 7200 },
      {
        id: "d1",
        title: "Emailing marketing teams",
        selftext: "decoy: a term inside another word",
        created_utc: now - 900,
      },
      { id: "d2", title: "A link post", url: "https://example.com/email-marketing", created_utc: now - 950 },
      { id: "o1", title: "Old email marketing post", created_utc: now - 8 * 86_400 },
    ]);
    const ws = await trackingWorkspace("first pass", ["email marketing"], [{ name: "Mailchimp" }]);

    const run = await pass(ws.id, client);
    expect(run).toMatchObject({ status: "completed", queries: 1, matched: 2, created: 2, updated: 0, error: null });
    const stats = await forum.stats(client);
    // first pass: t=week, newest first, 100 a page
    expect(stats.searches).toHaveLength(1);
    expect(stats.searches[0]).toMatchObject({ q: '"email marketing" OR "mailchimp"', t: "week", limit: 100 });
    expect(run.fetched).toBe(4); // the forum's fuzzy search found 4 within the week (not the old one)
    expect(run.requests).toBe(stats.requests);
    expect(stats.userAgents).toEqual([client.userAgent]);

    const { data } = await listPosts(ws.writeKey);
    expect(data.map((p) => p.forum_id).sort()).toEqual(["m1", "m2"]);
    const m1 = data.find((p) => p.forum_id === "m1")!;
    expect(m1).toMatchObject({
      subreddit: "testing",
      title: "Best email marketing tool?",
      author: "someone",
      permalink: "/r/testing/comments/m1/best_email_marketing_tool/",
      matched_keywords: ["email marketing"],
      mentioned_competitors: [],
      priority: "high",
      urgency: "urgent",
      created_utc: new Date((now - 600) * 1000).toISOString(),
    });
    expect(m1.score_reasons.some((r: string) => r.includes("buying intent"))).toBe(true);
    const m2 = data.find((p) => p.forum_id === "m2")!;
    expect(m2.matched_keywords).toEqual([]);
    expect(m2.mentioned_competitors).toEqual(["Mailchimp"]);
  });

  it("a link the forum answers without a field it needs is skipped and logged; the pass stores the others", async () => {
    const client = newClient("malformed");
    await forum.reset(client);
    const now = nowSeconds();
    await forum.addPosts(client, [
      { id: "g1", title: "Email marketing for a shop", created_utc: now - 600 },
      { id: "b1", title: "Email marketing, broken", created_utc: now - 700, without: ["permalink", "score"] },
      { id: "g2", title: "Email marketing advice", created_utc: now - 800 },
    ]);
    const ws = await trackingWorkspace("malformed link", ["email marketing"], []);
    const logged: string[] = [];
    const spy = vi.spyOn(console, "warn").mockImplementation((line: unknown) => void logged.push(String(line)));
    try {
      const first = await pass(ws.id, client);
      expect(first).toMatchObject({ status: "completed", fetched: 2, created: 2, error: null });
      // The next pass is not stopped by it either (the link stays in the forum's answers).
      expect(await pass(ws.id, client)).toMatchObject({ status: "completed", error: null });
    } finally {
      spy.mockRestore();
    }
    expect((await listPosts(ws.writeKey)).data.map((p) => p.forum_id).sort()).toEqual(["g1", "g2"]);
    const skipped = logged.map((l) => JSON.parse(l)).filter((l) => l.msg === "forum link skipped");
    expect(skipped[0]).toMatchObject({ level: "warn", answer: "search", link: "t3_b1", field: "permalink" });
  });

  it("pages with `after` to the end of the week, never duplicates, and searches every term again when asked", async () => {
    const client = newClient("paging");
    await forum.reset(client);
    await forum.addPosts(client, postsAbout("deliverability", 250, "p", 3600));
    const ws = await trackingWorkspace("paging", ["deliverability"]);

    const first = await pass(ws.id, client);
    expect(first).toMatchObject({ status: "completed", created: 250, requests: 3 });
    let stats = await forum.stats(client);
    expect(stats.searches.map((s) => s.after)).toEqual([null, "t3_p2r", "t3_p5j"]); // after the 100th and 200th
    expect(stats.searches.every((s) => s.t === "week")).toBe(true);

    await forum.addPosts(client, postsAbout("deliverability", 3, "n", 5));
    const second = await pass(ws.id, client);
    stats = await forum.stats(client);
    // A backfill reads the whole week again (new posts come from the ingester; this fills what it could not see)
    expect(stats.searches.slice(3).map((s) => s.t)).toEqual(["week", "week", "week"]);
    expect(second).toMatchObject({ status: "completed", created: 3, updated: 250 });
    expect(stats.infoIds.flat()).toHaveLength(0);
    expect((await listPosts(ws.writeKey)).count).toBe(253);
  });

  it("refreshes young posts through api/info and keeps triage flags", async () => {
    const client = newClient("refresh");
    await forum.reset(client);
    await forum.addPosts(client, postsAbout("open rate", 2, "r"));
    const ws = await trackingWorkspace("refresh", ["open rate"]);
    await pass(ws.id, client);
    const before = (await listPosts(ws.writeKey)).data;
    const target = before.find((p) => p.forum_id === "r0")!;
    const patched = await callJson(`/api/v1/posts/${target.id}`, {
      key: ws.writeKey,
      method: "PATCH",
      body: { is_answered: true, archived: true, skipped: true },
    });
    expect(patched.status).toBe(200);

    // the thread gets votes, comments and an edit on the forum
    const [r0] = postsAbout("open rate", 1, "r");
    await forum.addPosts(client, [{ ...r0!, title: "Edited: open rate question", score: 42, num_comments: 7 }]);
    const run = await pass(ws.id, client);
    expect(run).toMatchObject({ status: "completed", created: 0 });
    expect(run.updated).toBeGreaterThanOrEqual(1);

    const after = (await listPosts(ws.writeKey, "&include_archived=true")).data;
    expect(after).toHaveLength(2);
    const refreshed = after.find((p) => p.forum_id === "r0")!;
    expect(refreshed).toMatchObject({
      id: target.id,
      title: "Edited: open rate question",
      score: 42,
      num_comments: 7,
      is_answered: true,
      archived: true,
      skipped: true,
    });
  });

  it("caches the token until it expires, then fetches a new one", async () => {
    const client = newClient("token");
    await forum.reset(client, { tokenTtl: 2 });
    await forum.addPosts(client, postsAbout("autoresponder", 1, "t"));
    const ws = await trackingWorkspace("token", ["autoresponder"]);
    // The passes read a clock the test moves: the token's 2 s run out without sleeping.
    let skipped = 0;
    const now = () => Date.now() + skipped;
    await pass(ws.id, client, 20_000, now);
    await pass(ws.id, client, 20_000, now);
    expect((await forum.stats(client)).tokenRequests).toBe(1);
    skipped += 2_100;
    const run = await pass(ws.id, client, 20_000, now);
    expect(run.status).toBe("completed");
    expect((await forum.stats(client)).tokenRequests).toBe(2);
  });

  it("answers a 429 by waiting for the reset, counting the refused request", async () => {
    const client = newClient("throttle");
    await forum.reset(client, { force429: 1, force429Reset: 1 });
    await forum.addPosts(client, postsAbout("drip campaign", 2, "q"));
    const ws = await trackingWorkspace("throttle", ["drip campaign"]);
    const started = Date.now();
    const run = await pass(ws.id, client);
    expect(run).toMatchObject({ status: "completed", created: 2, requests: 2 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect((await forum.stats(client)).throttled).toBe(1);
  });

  it("stops as partial when the quota runs out; the next backfill of new terms searches the ones not done", async () => {
    const client = newClient("partial");
    // two requests per 10-second window: a 1.5 s backfill cannot read the pages of both queries
    await forum.reset(client, { limit: 2, windowMs: 10_000 });
    await forum.addPosts(client, postsAbout("mailing list", 450, "z", 600));
    const ws = await trackingWorkspace("partial", ["mailing list"]);

    const first = await pass(ws.id, client, 1_500);
    expect(first.status).toBe("partial");
    expect(first.error).toMatch(/quota|budget/);
    expect(first.created).toBeLessThan(450);

    await forum.configure(client, { limit: 100 });
    const second = await runMonitorPass(env, workspaceDb(env, ws.id), {
      trigger: "schedule",
      config: client,
      budgetMs: 25_000,
      onlyNew: true,
    });
    expect(second).toMatchObject({ status: "completed", queries: 1 });
    expect((await listPosts(ws.writeKey)).count).toBe(450);
    const third = await runMonitorPass(env, workspaceDb(env, ws.id), {
      trigger: "schedule",
      config: client,
      onlyNew: true,
    });
    expect(third).toMatchObject({ status: "completed", queries: 0, requests: 0 });
    expect((await forum.stats(client)).throttled).toBe(0);
  });

  it("a forum that holds its answer does not hold the pass past its time budget: partial, and the next pass reads its posts", async () => {
    const client = newClient("stall");
    await forum.reset(client, { stallMs: 6_000 });
    await forum.addPosts(client, postsAbout("drip sequence", 2, "st"));
    const ws = await trackingWorkspace("stall", ["drip sequence"]);
    const started = Date.now();
    const first = await pass(ws.id, client, 1_000);
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(first).toMatchObject({ status: "partial", requests: 1, created: 0 });
    expect(first.error).toMatch(/time budget ran out waiting for the forum's answer/);
    await forum.configure(client, { stallMs: 0 });
    expect(await pass(ws.id, client)).toMatchObject({ status: "completed", created: 2 });
  });

  it("the quota shown stays known once the forum answered: a request after its reset does not blank it", async () => {
    const client = newClient("quota-status");
    await forum.reset(client);
    await forum.addPosts(client, postsAbout("drip flows", 1, "qs"));
    const ws = await trackingWorkspace("quota status", ["drip flows"]);
    await pass(ws.id, client);
    const quota = env.FORUM_QUOTA.get(env.FORUM_QUOTA.idFromName(client.clientId));
    const answered = await quota.status();
    expect(answered).not.toBeNull();
    // A request starts after the forum's reset: until its answer comes (or if none comes), GET
    // /actions/monitoring shows the window as reset, not `quota: null` ("null until the first answer").
    const later = Date.parse(answered!.reset_at) + 1_000;
    expect(await quota.acquire(later)).toMatchObject({ ok: true });
    expect(await quota.status(later)).toEqual({ remaining: 1000, reset_at: answered!.reset_at });
  });

  it("keeps three workspaces' simultaneous passes inside one quota", async () => {
    const client = newClient("shared");
    await forum.reset(client, { limit: 4, windowMs: 2_000 });
    await forum.addPosts(client, postsAbout("alpha", 250, "a"));
    await forum.addPosts(client, postsAbout("beta", 250, "b"));
    const one = await trackingWorkspace("quota one", ["alpha"]);
    const two = await trackingWorkspace("quota two", ["beta"]);
    const three = await trackingWorkspace("quota three", ["alpha", "beta"]);
    const runs = await Promise.all([pass(one.id, client), pass(two.id, client), pass(three.id, client)]);
    for (const run of runs) expect(run.status).toBe("completed");
    const stats = await forum.stats(client);
    expect(stats.throttled).toBe(0);
    expect(stats.peakPerWindow).toBeLessThanOrEqual(4);
    expect(stats.requests).toBe(runs.reduce((n, r) => n + r.requests, 0));
    expect(stats.requests).toBeGreaterThan(8); // more than two windows' worth: the quota really was shared out

    // each workspace sees its own posts only
    expect((await listPosts(one.readKey)).data.every((p) => p.title.includes("alpha"))).toBe(true);
    expect((await listPosts(two.readKey)).data.every((p) => p.title.includes("beta"))).toBe(true);
    expect((await listPosts(one.readKey)).count).toBe(250);
    expect((await listPosts(three.readKey)).count).toBe(500);
    const foreign = (await listPosts(two.readKey)).data[0]!;
    const poke = await callJson(`/api/v1/posts/${foreign.id}`, {
      key: one.writeKey,
      method: "PATCH",
      body: { archived: true },
    });
    expect(poke.status).toBe(404);
  });

  it("a pass's lease outlasts its budget, however long one is configured", async () => {
    const client = newClient("long budget");
    await forum.reset(client);
    const ws = await trackingWorkspace("long budget", ["email marketing"], []);
    const leaseOf = async (budgetMs: number) => {
      await pass(ws.id, client, budgetMs);
      const run = await env.DB.prepare(
        "SELECT started_at, lease_until FROM monitor_runs WHERE workspace_id = ? ORDER BY id DESC LIMIT 1",
      )
        .bind(ws.id)
        .first<{ started_at: string; lease_until: string }>();
      return Date.parse(run!.lease_until) - Date.parse(run!.started_at);
    };
    // The default budget: the five-minute lease.
    expect(await leaseOf(20_000)).toBeGreaterThanOrEqual(5 * 60_000);
    // Ten minutes of budget: the lease runs past them, so no second pass starts beside a live one.
    expect(await leaseOf(10 * 60_000)).toBeGreaterThan(10 * 60_000);
  });

  it("refuses a second pass of the same workspace while one runs", async () => {
    const client = newClient("busy");
    await forum.reset(client, { force429: 1, force429Reset: 1 });
    await forum.addPosts(client, postsAbout("welcome sequence", 1, "w"));
    const ws = await trackingWorkspace("busy", ["welcome sequence"]);
    const results = await Promise.allSettled([pass(ws.id, client), pass(ws.id, client)]);
    const refused = results.filter((r) => r.status === "rejected");
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(isDomainError((refused[0] as PromiseRejectedResult).reason, "run_in_progress")).toBe(true);
  });

  it("is off without a client id: the status says so and nothing fails", async () => {
    const ws = await trackingWorkspace("off", ["anything"]);
    const off = { ...env, REDDIT_CLIENT_ID: undefined };
    const status = await monitoringStatus(off, workspaceDb(env, ws.id));
    expect(status).toEqual({ enabled: false, last_run: null, quota: null, ingest: null });
    await expect(runMonitorPass(off, workspaceDb(env, ws.id), { trigger: "schedule" })).rejects.toSatisfy((e) =>
      isDomainError(e, "invalid_state"),
    );
  });

  it("a pass stopped by an error of ours says so without SQL in the API; the log has the cause", async () => {
    const client = newClient("broken");
    await forum.reset(client);
    await forum.addPosts(client, postsAbout("drip flows", 1, "br"));
    const ws = await trackingWorkspace("broken", ["drip flows"]);
    const logged: string[] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((line: unknown) => void logged.push(String(line)));
    // A table the pass reads is lost (given back afterwards, for the next tests of this file).
    await env.DB.prepare("ALTER TABLE monitor_backfilled_terms RENAME TO monitor_backfilled_terms_lost_in_test").run();
    try {
      const run = await pass(ws.id, client);
      expect(run.status).toBe("failed");
      const status = await callJson("/api/v1/actions/monitoring", { key: ws.readKey });
      expect(status.body.last_run).toEqual(run);
      expect(run.error).toMatch(/^an unexpected error stopped the pass \(logged with run id \d+\)$/);
      const entry = logged.map((l) => JSON.parse(l)).find((l) => l.msg === "monitoring pass failed");
      expect(`${entry.error} ${entry.cause}`).toContain("no such table: monitor_backfilled_terms");
      expect(entry).toMatchObject({ level: "error", workspaceId: ws.id });
    } finally {
      spy.mockRestore();
      await env.DB.prepare(
        "ALTER TABLE monitor_backfilled_terms_lost_in_test RENAME TO monitor_backfilled_terms",
      ).run();
    }
  });
});
