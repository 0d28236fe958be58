// The post walk's budget on a clock that moves while a round works (src/monitor/walk.ts, docs/monitoring.md,
// "The ingester"): rounds 30 s apart whose requests take time. The budget is 20 requests in any 60 seconds,
// checked as each request is made, so the requests of the round two back leave the window as this round makes
// its own: the walk keeps up with the forum's peak (1,450 posts a minute) and no 60 s ever holds more than 20.
// A round that finds the window full waits on the clock for the oldest request to leave it (the round two back
// may have paced its requests slower). The walk reads the local forum (test/fixtures/forum/) through the
// service's own client; only the clock is the test's, moved by every request and by the walk's waits.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ForumApi } from "../../src/forum/app-client";
import { emptyWalk, walkRound } from "../../src/monitor/walk";
import { localForum } from "../helpers/forum";
import { newClient } from "../helpers/monitor";

const ROUND_S = 30;

describe("the walk's budget on a moving clock", () => {
  it("keeps up with the forum's peak after a late round, never more than 20 requests in any 60 s", async () => {
    const config = newClient("walk-budget");
    await localForum.resetClient(config.clientId, {
      secret: config.clientSecret,
      clock: { factor: 1e-9 },
      posts: { per_minute: 1450, late_share: 0, never_share: 0, topic_share: 0 },
      comments: { per_minute: 0 },
    });
    let now = (await localForum.clientStats(config.clientId)).clock.now_ms;
    const tick = async (s: number) => {
      await localForum.clock(config.clientId, { advance_s: s });
      now += s * 1000;
    };
    const api = new ForumApi(env, config, { deadline: Number.MAX_SAFE_INTEGER, now: () => now });
    const made: number[] = [];
    // Each request is made at the test's time, then takes `requestS` of it: 1 s in every third round, 0.2 s in
    // the others, so a quick round follows a slow one two back.
    let requestS = 1;
    // A round's first request waits 2 s for its permit before it leaves, as a token refresh would.
    let first = true;
    const timed = async <T>(sent: () => void, call: () => Promise<T>) => {
      if (first) await tick(2);
      first = false;
      made.push(now);
      sent();
      const answer = await call();
      await tick(requestS);
      return answer;
    };
    const forum = {
      newest: (_kind: string, sent: () => void) =>
        timed(sent, async () => (await api.newest("t3")).links.map((l) => l.name)),
      info: (names: string[], sent: () => void) =>
        timed(sent, async () => (await api.infoItems(names)).links.map((l) => l.name)),
    };
    const state = emptyWalk();
    const behind: number[] = [];
    const asked: number[] = [];
    // The third round comes 90 s after the second (the one between did not come), the rest 30 s apart.
    const gaps = [ROUND_S, 3 * ROUND_S, ...Array<number>(14).fill(ROUND_S)];
    const wait = (ms: number) => tick(ms / 1000);
    for (const [round, gap] of gaps.entries()) {
      const started = now;
      requestS = round % 3 === 0 ? 1 : 0.2;
      first = true;
      asked.push((await walkRound(state, "t3", forum, { perMinute: 20, now: () => now, wait })).requests);
      const newest = (await localForum.clientStats(config.clientId)).newest.t3!;
      behind.push(Number.parseInt(newest, 36) - state.walkedTo!);
      await tick(gap - (now - started) / 1000);
    }
    // The late round takes the whole minute's budget and the next finds the window full; from then on every
    // round takes about its half (9 or 10 of 10), none is starved by the requests of the round two back and
    // none takes the next one's share (without the share, 20, 0, 0, 20, ...: a burst every 90 s, 13 a minute),
    // and the walk catches up to what the forum made while it asked (1,450 a minute). Without the wait, the
    // quick round after a slow one two back asks 1 request: 10, 10, 1, ... and the walk falls behind.
    expect(asked[2]).toBe(20);
    expect(asked.slice(3).filter((n) => n === 0)).toHaveLength(1);
    for (const n of asked.slice(4)) expect(n).toBeGreaterThanOrEqual(8);
    for (const n of asked.slice(4)) expect(n).toBeLessThanOrEqual(10);
    for (const ids of behind.slice(10)) expect(ids).toBeLessThan(400);
    for (const at of made) expect(made.filter((t) => t >= at && t < at + 60_000).length).toBeLessThanOrEqual(20);
    // The budget counts each request when it left, not when the walk asked for it.
    expect(state.spent!.length).toBeGreaterThan(0);
    for (const at of state.spent!) expect(made).toContain(at);
  });
});
