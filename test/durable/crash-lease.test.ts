// A crash mid-run (docs/security.md, "A crash mid-run"): a run whose Worker died holds its config only until
// its short lease runs out (at most RUN_LEASE_MS, 60 s, after its last sign of life), while a run that is
// working (asking before each fetch and each post) keeps renewing it. bench/crash-recovery.mjs measures the same on a
// killed `wrangler dev`.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { RUN_LEASE_MS, RunLeases } from "../../src/durable/run-leases";
import { coordinatorFor, type WorkspaceCoordinator } from "../../src/durable/workspace-coordinator";
import { createTestWorkspace } from "../helpers/api";

const FP = "c".repeat(64);
const T0 = Date.UTC(2026, 10, 24, 1, 0, 0);

async function withLeases(label: string, body: (leases: RunLeases) => void) {
  const ws = await createTestWorkspace(label);
  await runInDurableObject(coordinatorFor(env, ws.id), (_: WorkspaceCoordinator, state: DurableObjectState) =>
    body(new RunLeases(state.storage.sql)),
  );
}

describe("run leases after a crash", () => {
  it("frees the config of a run that went silent one minute after its last sign of life, not ten", async () => {
    expect(RUN_LEASE_MS).toBeLessThanOrEqual(60_000);
    await withLeases("crash lease", (leases) => {
      const claim = leases.begin(7, 1, FP, T0);
      if (!claim.ok) throw new Error("claim failed");
      // The run works: it asks at 20 s (before a post), then its Worker dies.
      expect(leases.check(7, claim.token, T0 + 20_000)).toEqual({ ok: true });
      expect(leases.begin(7, 1, FP, T0 + 20_000 + 30_000)).toEqual({ ok: false, reason: "busy" });
      // 61 s after its last sign of life, a new run is accepted (it replaces the dead one's lease).
      const next = leases.begin(7, 1, FP, T0 + 20_000 + 61_000);
      expect(next.ok).toBe(true);
      expect(next.replaced?.token).toBe(claim.token);
    });
  });

  it("keeps the lease of a run that goes on working (signs of life before fetches and posts)", async () => {
    await withLeases("working lease", (leases) => {
      const claim = leases.begin(8, 1, FP, T0);
      if (!claim.ok) throw new Error("claim failed");
      // A sign of life every 40 s (one slow fetch after another) for ten minutes: never lost.
      for (let t = 40_000; t <= 600_000; t += 40_000) {
        expect(leases.renew(8, claim.token, T0 + t)).toBe(true);
        expect(leases.begin(8, 1, FP, T0 + t + 1).ok).toBe(false);
      }
      // Every renewal leaves at least 45 s, so a silence of 44 s between two signs of life is safe.
      expect(leases.check(8, claim.token, T0 + 600_000 + 44_000)).toEqual({ ok: true });
    });
  });

  it("renews a run's lease at every outbound fetch (the coordinator's fetch question)", async () => {
    const ws = await createTestWorkspace("fetch renews");
    const coordinator = coordinatorFor(env, ws.id);
    // The object's clock, moved by hand: the 200 ms claim runs out without the test sleeping.
    let now = Date.now();
    await runInDurableObject(coordinator, (instance: WorkspaceCoordinator) => {
      instance.clock = () => now;
    });
    const claim = await coordinator.beginRun({
      workspaceId: ws.id,
      configId: 9,
      revision: 1,
      fingerprint: FP,
      leaseMs: 200,
    });
    if (!claim.ok) throw new Error("claim failed");
    expect(await coordinator.beforeFetch({ configId: 9, token: claim.token, preview: false })).toEqual({ ok: true });
    now += 400;
    // Past the first 200 ms claim, still alive: the fetch question renewed it to a full lease.
    expect(await coordinator.checkRun(9, claim.token)).toEqual({ ok: true });
    await coordinator.endRun(9, claim.token);
  });
});
