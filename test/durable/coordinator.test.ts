import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getConfigRow, insertConfig } from "../../src/db/blog-sync-configs";
import { failAbandonedRun, finishRun, getRun, insertRun } from "../../src/db/blog-sync-runs";
import { workspaceDb } from "../../src/db/client";
import { BROWSER_LEASE_MS } from "../../src/durable/browser-slot";
import { RENEW_EVERY_MS, RUN_LEASE_MS } from "../../src/durable/run-leases";
import { coordinatorFor, type WorkspaceCoordinator, withBrowserSlot } from "../../src/durable/workspace-coordinator";
import { fromDomainError } from "../../src/errors";
import { DomainError } from "../../src/lib/domain-errors";
import { createTestWorkspace } from "../helpers/api";
import { until } from "../helpers/until";

const FP_A = "a".repeat(64);
const FP_B = "b".repeat(64);

/**
 * Gives the workspace's coordinator a clock the test moves by hand, so deadlines pass without sleeping. It
 * starts at the real time: the alarms the object schedules then lie minutes ahead in real time and never
 * fire by themselves; `runDurableObjectAlarm` runs them when the test says so.
 */
async function fakeClock(workspaceId: number) {
  let now = Date.now();
  const coordinator = coordinatorFor(env, workspaceId);
  await runInDurableObject(coordinator, (instance: WorkspaceCoordinator) => {
    instance.clock = () => now;
  });
  return {
    coordinator,
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

/** A test workspace with one stored sync config of fingerprint FP_A. */
async function workspaceWithConfig(label: string, blogUrl: string) {
  const ws = await createTestWorkspace(label);
  const w = workspaceDb(env, ws.id);
  const config = await insertConfig(w, {
    blogUrl,
    subreddit: "rust",
    personaId: null,
    includeMedia: false,
    active: true,
    publishImmediately: false,
    maxPosts: 5,
    fingerprint: FP_A,
  });
  if (!config) throw new Error("insert failed");
  return { ws, w, config };
}

describe("run leases", () => {
  it("one real run per config: a second claim is busy until the first ends; other configs are independent", async () => {
    const ws = await createTestWorkspace("leases");
    const coordinator = coordinatorFor(env, ws.id);
    const first = await coordinator.beginRun({ workspaceId: ws.id, configId: 1, revision: 1, fingerprint: FP_A });
    expect(first.ok).toBe(true);
    expect(await coordinator.beginRun({ workspaceId: ws.id, configId: 1, revision: 1, fingerprint: FP_A })).toEqual({
      ok: false,
      reason: "busy",
    });
    expect((await coordinator.beginRun({ workspaceId: ws.id, configId: 2, revision: 1, fingerprint: FP_B })).ok).toBe(
      true,
    );
    if (!first.ok) return;
    expect(await coordinator.endRun(1, "not-the-token")).toBe(false);
    expect(await coordinator.endRun(1, first.token)).toBe(true);
    expect((await coordinator.beginRun({ workspaceId: ws.id, configId: 1, revision: 1, fingerprint: FP_A })).ok).toBe(
      true,
    );
  });

  it("a config change makes the active run's next check fail; a claim with an older revision is stale", async () => {
    const ws = await createTestWorkspace("leases change");
    const coordinator = coordinatorFor(env, ws.id);
    const claim = await coordinator.beginRun({ workspaceId: ws.id, configId: 5, revision: 3, fingerprint: FP_A });
    if (!claim.ok) throw new Error("claim failed");
    expect(await coordinator.checkRun(5, claim.token)).toEqual({ ok: true });
    // A no-op update (same fingerprint) does not abort.
    expect(
      await coordinator.configChanged({ workspaceId: ws.id, configId: 5, revision: 4, fingerprint: FP_A }),
    ).toEqual({ runWillAbort: false });
    expect(await coordinator.checkRun(5, claim.token)).toEqual({ ok: true });
    expect(
      await coordinator.configChanged({ workspaceId: ws.id, configId: 5, revision: 5, fingerprint: FP_B }),
    ).toEqual({ runWillAbort: true });
    expect(await coordinator.checkRun(5, claim.token)).toEqual({ ok: false, reason: "config_changed" });
    // A late, out-of-order notice of an older revision does not undo the newer one.
    await coordinator.configChanged({ workspaceId: ws.id, configId: 5, revision: 4, fingerprint: FP_A });
    expect(await coordinator.checkRun(5, claim.token)).toEqual({ ok: false, reason: "config_changed" });
    await coordinator.endRun(5, claim.token);
    expect(await coordinator.beginRun({ workspaceId: ws.id, configId: 5, revision: 4, fingerprint: FP_A })).toEqual({
      ok: false,
      reason: "stale",
    });
    expect((await coordinator.beginRun({ workspaceId: ws.id, configId: 5, revision: 5, fingerprint: FP_B })).ok).toBe(
      true,
    );
  });

  it("a run that died frees its slot at the deadline (alarm) and its record is closed as failed", async () => {
    const { ws, w, config } = await workspaceWithConfig("leases deadline", "https://example.com/feed.xml");
    const { coordinator, advance } = await fakeClock(ws.id);
    const claim = await coordinator.beginRun({
      workspaceId: ws.id,
      configId: config.id,
      revision: 1,
      fingerprint: FP_A,
    });
    if (!claim.ok) throw new Error("claim failed");
    const run = await insertRun(w, {
      configId: config.id,
      trigger: "api",
      scheduleKey: null,
      publish: true,
      maxPosts: 5,
      fingerprint: FP_A,
    });
    expect(await coordinator.attachRun(config.id, claim.token, run.id)).toBe(true);
    expect(
      (await coordinator.beginRun({ workspaceId: ws.id, configId: config.id, revision: 1, fingerprint: FP_A })).ok,
    ).toBe(false);
    // The run never asks again: just before its deadline nothing happens, after it the alarm frees the slot.
    advance(RUN_LEASE_MS - 1);
    expect(await runDurableObjectAlarm(coordinator)).toBe(true);
    expect((await getRun(w, run.id))?.status).toBe("running");
    expect((await coordinator.activeRuns()).map((l) => l.configId)).toEqual([config.id]);
    advance(1);
    expect(await runDurableObjectAlarm(coordinator)).toBe(true);
    const closed = await getRun(w, run.id);
    expect(closed?.status).toBe("failed");
    expect(closed?.error).toMatch(/deadline/);
    expect(closed?.finishedAt).not.toBeNull();
    expect((await getConfigRow(w, config.id))?.lastError).toMatch(/deadline/);
    expect(await coordinator.activeRuns()).toEqual([]);
    expect(await coordinator.checkRun(config.id, claim.token)).toEqual({ ok: false, reason: "lease_lost" });
    expect(
      (await coordinator.beginRun({ workspaceId: ws.id, configId: config.id, revision: 1, fingerprint: FP_A })).ok,
    ).toBe(true);
  });

  it("closing an abandoned run touches neither a run that already finished nor its config", async () => {
    const { w, config } = await workspaceWithConfig("leases finished", "https://example.com/finished.xml");
    const run = await insertRun(w, {
      configId: config.id,
      trigger: "api",
      scheduleKey: null,
      publish: true,
      maxPosts: 5,
      fingerprint: FP_A,
    });
    await finishRun(w, run.id, config.id, {
      status: "completed",
      sourceKind: "feed",
      sourceUrl: "x",
      discovered: 0,
      created: 0,
      updated: 0,
      unchanged: 0,
      queued: 0,
      failed: 0,
      error: null,
      finishedAt: "2026-01-01T00:00:00.000Z",
    });
    const [runBefore, configBefore] = [await getRun(w, run.id), await getConfigRow(w, config.id)];
    expect(await failAbandonedRun(w, run.id, "abandoned")).toBe(false);
    expect(await getRun(w, run.id)).toEqual(runBefore);
    expect(await getConfigRow(w, config.id)).toEqual(configBefore);
    expect(configBefore?.lastRunAt).toBe("2026-01-01T00:00:00.000Z");
    expect(configBefore?.lastError).toBeNull();
    // Another workspace's accessor closes nothing either.
    const stranger = await createTestWorkspace("leases finished stranger");
    const live = await insertRun(w, {
      configId: config.id,
      trigger: "api",
      scheduleKey: null,
      publish: true,
      maxPosts: 5,
      fingerprint: FP_A,
    });
    expect(await failAbandonedRun(workspaceDb(env, stranger.id), live.id, "abandoned")).toBe(false);
    expect((await getRun(w, live.id))?.status).toBe("running");
    expect(await getConfigRow(w, config.id)).toEqual(configBefore);
  });

  it("asking extends the deadline: a run that keeps asking keeps its slot", async () => {
    const ws = await createTestWorkspace("leases heartbeat");
    const { coordinator, advance, now } = await fakeClock(ws.id);
    const claim = await coordinator.beginRun({ workspaceId: ws.id, configId: 9, revision: 1, fingerprint: FP_A });
    if (!claim.ok) throw new Error("claim failed");
    expect(claim.deadline).toBe(now() + RUN_LEASE_MS);
    // Less than RENEW_EVERY_MS of the lease used: the answer is a read, the deadline stays.
    advance(RENEW_EVERY_MS - 1);
    expect(await coordinator.checkRun(9, claim.token)).toEqual({ ok: true });
    expect((await coordinator.activeRuns())[0]?.deadline).toBe(claim.deadline);
    // Once RENEW_EVERY_MS of it is used: asking moves the deadline a whole lease ahead.
    advance(2);
    expect(await coordinator.checkRun(9, claim.token)).toEqual({ ok: true });
    expect((await coordinator.activeRuns())[0]?.deadline).toBe(now() + RUN_LEASE_MS);
    // Past the first deadline, the alarm keeps the lease and the run still holds it.
    advance(RUN_LEASE_MS - RENEW_EVERY_MS + 1);
    expect(now()).toBeGreaterThan(claim.deadline);
    await runDurableObjectAlarm(coordinator);
    expect(await coordinator.checkRun(9, claim.token)).toEqual({ ok: true });
  });
});

describe("browser slot", () => {
  it("serves one operation at a time, first come first served", async () => {
    const ws = await createTestWorkspace("browser fifo");
    const coordinator = coordinatorFor(env, ws.id);
    const first = await coordinator.acquireBrowserSlot("readiness");
    if (!first.ok) throw new Error("first acquire failed");
    const order: string[] = [];
    const waiting = (n: number) =>
      until(
        () => coordinator.browserStatus(),
        (s) => s.waiting === n,
      );
    const second = coordinator.acquireBrowserSlot("preflight", { waitMs: 5000 }).then((r) => {
      order.push("second");
      return r;
    });
    await waiting(1);
    const third = coordinator.acquireBrowserSlot("persona-check", { waitMs: 5000 }).then((r) => {
      order.push("third");
      return r;
    });
    expect(await waiting(2)).toMatchObject({ holder: { operation: "readiness" }, waiting: 2 });
    expect(await coordinator.releaseBrowserSlot("someone-else")).toBe(false);
    expect(await coordinator.releaseBrowserSlot(first.token)).toBe(true);
    const got2 = await second;
    if (!got2.ok) throw new Error("second should have the slot");
    expect(order).toEqual(["second"]);
    expect((await coordinator.browserStatus()).holder?.operation).toBe("preflight");
    await coordinator.releaseBrowserSlot(got2.token);
    const got3 = await third;
    expect(got3.ok).toBe(true);
    expect(order).toEqual(["second", "third"]);
  });

  it("a caller that waits too long is told the slot is busy, with a retry hint", async () => {
    const ws = await createTestWorkspace("browser busy");
    const { coordinator, advance } = await fakeClock(ws.id);
    const holder = await coordinator.acquireBrowserSlot("publish", { leaseMs: 10_000 });
    expect(holder.ok).toBe(true);
    // The hint is the holder's time left, in whole seconds rounded up.
    advance(2_500);
    const started = Date.now();
    const waited = await coordinator.acquireBrowserSlot("readiness", { waitMs: 150 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(waited).toEqual({ ok: false, holder: "publish", retryAfterSeconds: 8 });
    expect((await coordinator.browserStatus()).waiting).toBe(0);
  });

  it("a hung holder loses the slot at its deadline and the next caller gets it", async () => {
    const ws = await createTestWorkspace("browser deadline");
    const { coordinator, advance } = await fakeClock(ws.id);
    const hung = await coordinator.acquireBrowserSlot("publish");
    expect(hung.ok).toBe(true);
    const next = coordinator.acquireBrowserSlot("readiness", { waitMs: 5000 });
    await until(
      () => coordinator.browserStatus(),
      (s) => s.waiting === 1,
    );
    advance(BROWSER_LEASE_MS - 1);
    await runDurableObjectAlarm(coordinator);
    expect(await coordinator.browserStatus()).toMatchObject({ holder: { operation: "publish" }, waiting: 1 });
    advance(1);
    await runDurableObjectAlarm(coordinator);
    const got = await next;
    expect(got.ok).toBe(true);
    if (got.ok) expect(got.waitedMs).toBe(BROWSER_LEASE_MS);
    if (hung.ok) expect(await coordinator.releaseBrowserSlot(hung.token)).toBe(false);
  });

  it("lends the warm browser to the next holder only, takes it back with a new deadline, and closes it when it idles or its holder dies", async () => {
    const ws = await createTestWorkspace("warm browser");
    const { coordinator, advance, now } = await fakeClock(ws.id);
    const keepMs = Number(env.BROWSER_KEEP_WARM_SECONDS) * 1000;
    const first = await coordinator.acquireBrowserSlot("check");
    if (!first.ok) throw new Error("no slot");
    expect(first.browser).toEqual({ sessionId: undefined, keepWarmMs: keepMs });
    // The holder left its browser open: it idles until now + the warm period.
    await coordinator.releaseBrowserSlot(first.token, "session-1");
    expect((await coordinator.browserStatus()).warm).toEqual({
      sessionId: "session-1",
      lent: false,
      idleUntil: now() + keepMs,
    });

    // Lent to the next holder, and to nobody else meanwhile.
    const second = await coordinator.acquireBrowserSlot("readiness");
    if (!second.ok) throw new Error("no slot");
    expect(second.browser.sessionId).toBe("session-1");
    expect((await coordinator.browserStatus()).warm).toMatchObject({ sessionId: "session-1", lent: true });
    // Its browser had gone and it launched another: the new one is kept, the old one forgotten.
    await coordinator.releaseBrowserSlot(second.token, "session-2");
    expect((await coordinator.browserStatus()).warm).toMatchObject({ sessionId: "session-2", lent: false });

    // Idle past its deadline: the alarm closes it.
    advance(keepMs - 1);
    await runDurableObjectAlarm(coordinator);
    expect((await coordinator.browserStatus()).warm).toMatchObject({ sessionId: "session-2" });
    advance(1);
    await runDurableObjectAlarm(coordinator);
    expect((await coordinator.browserStatus()).warm).toBeNull();

    // A holder that dies with the warm browser loses both at its slot's deadline.
    const third = await coordinator.acquireBrowserSlot("check");
    if (!third.ok) throw new Error("no slot");
    await coordinator.releaseBrowserSlot(third.token, "session-3");
    const dying = await coordinator.acquireBrowserSlot("publish");
    if (!dying.ok) throw new Error("no slot");
    expect(dying.browser.sessionId).toBe("session-3");
    advance(BROWSER_LEASE_MS);
    await runDurableObjectAlarm(coordinator);
    expect(await coordinator.browserStatus()).toMatchObject({ holder: null, warm: null });
    // Too late to give it back: a holder whose slot went keeps nothing, whoever holds the slot now.
    const fourth = await coordinator.acquireBrowserSlot("check");
    if (!fourth.ok) throw new Error("no slot");
    expect(fourth.browser.sessionId).toBeUndefined();
    expect(await coordinator.releaseBrowserSlot(dying.token, "session-3")).toBe(false);
    expect((await coordinator.browserStatus()).warm).toBeNull();
    await coordinator.releaseBrowserSlot(fourth.token, null);
    expect(await coordinator.releaseBrowserSlot(dying.token, "session-3")).toBe(false);
    expect((await coordinator.browserStatus()).warm).toBeNull();
  });

  it("workspaces do not share a slot", async () => {
    const a = await createTestWorkspace("browser a");
    const b = await createTestWorkspace("browser b");
    expect((await coordinatorFor(env, a.id).acquireBrowserSlot("publish")).ok).toBe(true);
    const other = await coordinatorFor(env, b.id).acquireBrowserSlot("publish", { waitMs: 0 });
    expect(other.ok).toBe(true);
  });
});

describe("withBrowserSlot", () => {
  it("runs work in turn, releases after it (even when it throws), and answers 409 browser_busy with retry-after", async () => {
    const ws = await createTestWorkspace("with slot");
    const coordinator = coordinatorFor(env, ws.id);
    await expect(
      withBrowserSlot(env, ws.id, "readiness", async () => {
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect((await coordinator.browserStatus()).holder).toBeNull();

    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    // withBrowserSlot calls the work only once it holds the slot: that call is the signal, no polling.
    let holding!: () => void;
    const held = new Promise<void>((r) => (holding = r));
    const long = withBrowserSlot(env, ws.id, "publish", () => {
      holding();
      return gate.then(() => "published");
    });
    await held;
    expect((await coordinator.browserStatus()).holder).toMatchObject({ operation: "publish" });
    const busy = await withBrowserSlot(env, ws.id, "preflight", async () => "never", { waitMs: 100 }).catch(
      (e: unknown) => e,
    );
    // A domain error below the routes; the edge answers it as 409 browser_busy with retry-after.
    expect(busy).toBeInstanceOf(DomainError);
    const answered = fromDomainError(busy as DomainError);
    expect(answered.code).toBe("browser_busy");
    expect(Number(answered.headers?.["retry-after"])).toBeGreaterThanOrEqual(1);
    release();
    expect(await long).toBe("published");
    expect(await withBrowserSlot(env, ws.id, "preflight", async () => "ran")).toBe("ran");
  });
});
