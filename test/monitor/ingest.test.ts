// The forum ingester against the local forum (test/fixtures/forum/): ids walked in order for every workspace,
// late items asked again, items never visible given up and counted, what matches stored once per workspace
// and listed by GET /posts, refreshed once for all, and the walk's status in GET /actions/monitoring.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { workspaceDb } from "../../src/db/client";
import { runMonitorPass } from "../../src/monitor/pass";
import { monitoringStatus } from "../../src/monitor/status";
import { callJson } from "../helpers/api";
import { localForum } from "../helpers/forum";
import { newClient, trackingWorkspace } from "../helpers/monitor";

/** A client whose forum clock stands still; rounds of its ingester run at the forum's time. */
async function world(options: Record<string, unknown> = {}) {
  const config = newClient("ingest");
  await localForum.resetClient(config.clientId, {
    secret: config.clientSecret,
    clock: { factor: 1e-9 },
    search_lag_s: 0,
    posts: { per_minute: 600, late_share: 0, never_share: 0, topic_share: 0 },
    comments: { per_minute: 0 },
    ...options,
  });
  const ingester = env.FORUM_INGESTER.get(env.FORUM_INGESTER.idFromName(config.clientId));
  const forumNow = async () => (await localForum.clientStats(config.clientId)).clock.now_ms;
  const advance = (s: number) => localForum.clock(config.clientId, { advance_s: s });
  const round = async () => {
    const counts = await ingester.round(config, await forumNow());
    expect(counts).not.toBeNull();
    return counts!;
  };
  return { config, ingester, advance, round, forumNow };
}

async function listed(key: string) {
  const { status, body } = await callJson("/api/v1/posts?limit=100", { key });
  expect(status).toBe(200);
  return (body as { data: Record<string, any>[] }).data;
}

describe("the forum ingester", () => {
  it("walks every id once for all workspaces, asks late ones again, gives up on the never visible", async () => {
    const w = await world();
    const a = await trackingWorkspace("ingest a", ["zorblatt widget"]);
    const b = await trackingWorkspace("ingest b", ["zorblatt widget", "quuxly"]);
    await w.advance(10);
    const first = await w.round();
    // /r/all/new and one /api/info of the newest 100 (no history walk), and /r/all/comments (none made here)
    expect(first.requests).toBe(3);
    const planted = await localForum.plant(w.config.clientId, [
      { kind: "t3", title: "Is the Zorblatt Widget any good?", selftext: "looking for one" },
      { kind: "t3", title: "quuxly late", selftext: "visible two minutes late", visible_after_s: 90 },
      { kind: "t3", title: "zorblatt widget, removed at once", never_visible: true },
      { kind: "t3", title: "zorblattwidget decoy", selftext: "a term inside another word: zorblatt widgets" },
    ]);
    await w.advance(30);
    await w.round();
    const stats = await localForum.clientStats(w.config.clientId);
    // Every id from the first one walked up to the newest was asked, in order, 100 a request.
    const asked = stats.infoIds.flat().filter((n) => n.startsWith("t3_"));
    expect(new Set(asked).size).toBe(asked.length);
    expect(stats.infoIds.every((ids) => ids.length <= 100)).toBe(true);
    expect(asked).toContain(planted[0]!.name);
    expect(asked).toContain(planted[3]!.name);

    expect((await listed(a.writeKey)).map((p) => p.title)).toEqual(["Is the Zorblatt Widget any good?"]);
    expect((await listed(b.writeKey)).map((p) => p.title)).toEqual(["Is the Zorblatt Widget any good?"]);

    // Two minutes later the late one is asked again and found (for b only: a does not track it).
    await w.advance(125);
    await w.round();
    expect((await listed(b.writeKey)).map((p) => p.title).sort()).toEqual([
      "Is the Zorblatt Widget any good?",
      "quuxly late",
    ]);
    expect((await listed(a.writeKey)).map((p) => p.title)).toEqual(["Is the Zorblatt Widget any good?"]);

    // Asked at about 2 and 30 minutes, then given up and counted; 31 minutes on, the walk's next id is older
    // than the retry window, so the round also jumps.
    await w.advance(31 * 60);
    await w.round();
    const walk = await w.ingester.walkState("t3");
    expect(walk.givenUp).toBeGreaterThanOrEqual(1);
    expect(walk.retries.map((r) => r[0]!.toString(36))).not.toContain(planted[2]!.id);
    const timesAsked = stats.infoIds.flat().filter((n) => n === planted[2]!.name).length;
    expect(timesAsked).toBe(1);
    const later = (await localForum.clientStats(w.config.clientId)).infoIds.flat();
    expect(later.filter((n) => n === planted[2]!.name)).toHaveLength(3);

    const status = await monitoringStatus(env, workspaceDb(env, a.id), w.config);
    // Half an hour at once is more than a round can walk: it jumped, and the coverage says so.
    expect(walk.skipped).toBeGreaterThan(0);
    expect(status.ingest?.posts?.coverage).toBeGreaterThan(0);
    expect(status.ingest?.posts?.coverage).toBeLessThan(1);
    // At the newest visible post (the newest allocated one may not be visible yet).
    const newest = Number.parseInt((await localForum.clientStats(w.config.clientId)).newest.t3!, 36);
    const walkedTo = Number.parseInt(status.ingest!.posts!.walked_to, 36);
    expect(walkedTo).toBeLessThanOrEqual(newest);
    expect(walkedTo).toBeGreaterThan(newest - 100);
    expect(status.ingest?.requests_last_minute).toBeGreaterThan(0);
  });

  it("spends in a late round what the rounds it missed did not, and never more than 20 in any 60 s", async () => {
    const w = await world({ posts: { per_minute: 1450, late_share: 0, never_share: 0, topic_share: 0 } });
    await trackingWorkspace("ingest budget", ["zorblatt widget"]);
    const postRequests = async () =>
      (await localForum.clientStats(w.config.clientId)).infoIds.filter((ids) => ids[0]?.startsWith("t3_")).length;
    await w.advance(10);
    await w.round();
    const start = (await w.ingester.walkState("t3")).walkedTo!;
    // A round 90 s later (the one between did not come): about 2,175 new ids, more than 20 requests hold.
    await w.advance(90);
    await w.round();
    const late = (await w.ingester.walkState("t3")).walkedTo!;
    // 1 head read + 19 batches of 100: the minute's whole budget, where a 30-second share would stop at 900.
    expect(late - start).toBe(1900);
    expect(await postRequests()).toBe(1 + 19);
    // 5 s later the last 60 s already hold 20 of the walk's requests: this round asks nothing of posts.
    await w.advance(5);
    await w.round();
    expect((await w.ingester.walkState("t3")).walkedTo).toBe(late);
    expect(await postRequests()).toBe(20);
    // Once those are a minute old, the walk goes on.
    await w.advance(56);
    await w.round();
    expect((await w.ingester.walkState("t3")).walkedTo).toBeGreaterThan(late);
  });

  it("re-reads a stored post at an hour of age once for every workspace that stores it", async () => {
    const w = await world();
    const a = await trackingWorkspace("refresh a", ["blorptastic"]);
    const b = await trackingWorkspace("refresh b", ["blorptastic"]);
    await w.advance(5);
    await w.round();
    const [p] = await localForum.plant(w.config.clientId, [{ kind: "t3", title: "blorptastic tools?", score: 1 }]);
    await w.advance(10);
    await w.round();
    expect((await listed(a.writeKey)).map((x) => x.score)).toEqual([1]);
    expect(await w.ingester.refreshCount()).toBe(1);
    // An hour on (the walk jumps: it is far behind its retry window now), the post is re-read once for both.
    await w.advance(3_600);
    const before = (await localForum.clientStats(w.config.clientId)).infoIds.flat().filter((n) => n === p!.name);
    await w.round();
    const after = (await localForum.clientStats(w.config.clientId)).infoIds.flat().filter((n) => n === p!.name);
    expect(after.length - before.length).toBe(1);
    expect((await w.ingester.walkState("t3")).skipped).toBeGreaterThan(0);
    const status = await monitoringStatus(env, workspaceDb(env, a.id), w.config);
    expect(status.ingest?.posts?.coverage).toBeLessThan(1);
    for (const ws of [a, b]) expect((await listed(ws.writeKey)).map((x) => x.title)).toEqual(["blorptastic tools?"]);
  });

  it("re-reads stored comments at 1, 6, 24 and 72 hours once for every workspace that stores them", async () => {
    const w = await world();
    const a = await trackingWorkspace("comment refresh a", ["frobnicator"]);
    const b = await trackingWorkspace("comment refresh b", ["frobnicator"]);
    const other = await trackingWorkspace("comment refresh other", ["quuxly"]);
    await w.advance(5);
    await w.round();
    const [post] = await localForum.plant(w.config.clientId, [{ kind: "t3", title: "Which frobnicator?" }]);
    const [kept, removed] = await localForum.plant(w.config.clientId, [
      { kind: "t1", link_id: post!.name, body: "The frobnicator from Acme never jams", score: 1 },
      { kind: "t1", link_id: post!.name, body: "Cheap frobnicator here, click", score: 1 },
    ]);
    await w.advance(10);
    await w.round();
    const comments = async (key: string) =>
      (await callJson("/api/v1/comments?limit=100&sort_order=asc", { key })).body.data as Record<string, any>[];
    for (const ws of [a, b]) expect((await comments(ws.readKey)).map((c) => c.score)).toEqual([1, 1]);
    expect(await comments(other.readKey)).toEqual([]);
    // The post and both comments wait for their refresh.
    expect(await w.ingester.refreshCount()).toBe(3);
    // A person answers the kept comment in workspace a: a refresh never writes the triage flags.
    const keptInA = (await comments(a.readKey))[0]!;
    const patched = await callJson(`/api/v1/comments/${keptInA.id}`, {
      key: a.writeKey,
      method: "PATCH",
      body: { is_answered: true },
    });
    expect(patched.status).toBe(200);

    const timesAsked = async (name: string) =>
      (await localForum.clientStats(w.config.clientId)).infoIds.flat().filter((n) => n === name).length;
    let asked = { kept: await timesAsked(kept!.name), removed: await timesAsked(removed!.name) };
    expect(asked).toEqual({ kept: 1, removed: 1 });
    // Votes come in, and a moderator removes the second comment: the forum answers it as "[removed]".
    const stages: [advanceS: number, keptScore: number, removedScore: number][] = [
      [3_600, 12, 3],
      [5 * 3_600, 40, 5],
      [18 * 3_600, 55, 6],
      [48 * 3_600, 61, 7],
    ];
    for (const [i, [advanceS, keptScore, removedScore]] of stages.entries()) {
      await localForum.change(w.config.clientId, kept!.name, { score: keptScore });
      await localForum.change(w.config.clientId, removed!.name, {
        score: removedScore,
        ...(i === 0 ? { removed: "moderator" as const } : {}),
      });
      await w.advance(advanceS);
      await w.round();
      // Asked once more at this age, for both workspaces together.
      const now = { kept: await timesAsked(kept!.name), removed: await timesAsked(removed!.name) };
      expect(now).toEqual({ kept: asked.kept + 1, removed: asked.removed + 1 });
      asked = now;
      for (const ws of [a, b]) {
        const [k, r] = await comments(ws.readKey);
        expect([k!.score, r!.score]).toEqual([keptScore, removedScore]);
        expect(k!.body).toBe("The frobnicator from Acme never jams");
        // The removed comment no longer matches: its score and text change, its links stay.
        expect(r!.body).toBe("[removed]");
        expect(r!.matched_keywords).toEqual(["frobnicator"]);
        expect(k!.is_answered).toBe(ws === a);
        expect(k!.thread_title).toBe("Which frobnicator?");
      }
    }
    // After the 72-hour read nothing is left to refresh, and a later round asks neither again.
    expect(await w.ingester.refreshCount()).toBe(0);
    await w.advance(24 * 3_600);
    await w.round();
    expect({ kept: await timesAsked(kept!.name), removed: await timesAsked(removed!.name) }).toEqual(asked);
    expect(await comments(other.readKey)).toEqual([]);
  });

  it("re-reads a post a backfill stored at an hour of age, as the walk's", async () => {
    const w = await world();
    await w.advance(5);
    await w.round();
    const ws = await trackingWorkspace("backfill refresh", ["snorkelwax"]);
    const [post] = await localForum.plant(w.config.clientId, [{ kind: "t3", title: "snorkelwax worth it?", score: 2 }]);
    // Found by the backfill's search before the walk reads it: the refresh schedule knows it all the same.
    const forumNow = await w.forumNow();
    const run = await runMonitorPass(env, workspaceDb(env, ws.id), {
      trigger: "api",
      config: w.config,
      now: () => forumNow,
    });
    expect(run).toMatchObject({ status: "completed", created: 1 });
    expect(await w.ingester.refreshCount()).toBe(1);
    await localForum.change(w.config.clientId, post!.name, { score: 77, num_comments: 4 });
    await w.advance(3_600);
    await w.round();
    expect((await listed(ws.writeKey)).map((p) => [p.score, p.num_comments])).toEqual([[77, 4]]);
  });

  it("is started by ensureRunning unless its interval is 0", async () => {
    const w = await world();
    expect(await w.ingester.ensureRunning(0)).toBe(false);
    expect(await w.ingester.ensureRunning(30)).toBe(true);
  });
});
