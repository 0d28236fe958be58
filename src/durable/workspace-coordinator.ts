import { DurableObject } from "cloudflare:workers";
import { failAbandonedRun } from "../db/blog-sync-runs";
import { workspaceDb } from "../db/client";
import type { Env } from "../env";
import { DomainError } from "../lib/domain-errors";
import { type AcquireResult, type BrowserHolder, BrowserSlot } from "./browser-slot";
import { COORDINATOR_MIGRATIONS } from "./coordinator-migrations";
import { type BeginRunResult, type CheckRunResult, type RunLease, RunLeases } from "./run-leases";
import { applyStorageMigrations } from "./storage-migrations";

export type { AcquireResult, BeginRunResult, CheckRunResult };

const ABANDONED_RUN =
  "the run stopped reporting before it finished (its deadline passed); nothing after its last write was done";

/**
 * One per workspace (idFromName(`ws:${id}`)). The workspace's coordinator: it holds the fingerprint each
 * active sync run started with (docs/blog-sync.md: abort on change) and serializes the workspace's browser operations
 * (docs/blog-sync.md, "The workspace Durable Object"). Methods are typed RPC; deadlines are alarms. State changes happen in synchronous SQLite calls,
 * so no other call interleaves with them; the only awaits are the waits for the browser slot and the D1
 * write that closes an abandoned run, both after the object's own state is already consistent.
 */
export class WorkspaceCoordinator extends DurableObject<Env> {
  private readonly runs: RunLeases;
  private readonly browser: BrowserSlot;
  /**
   * Where the object reads the time: every lease and slot deadline is computed from it. Tests set a fake
   * one through `runInDurableObject` instead of sleeping; nothing else changes it.
   */
  clock: () => number = () => Date.now();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // Storage schema first, before any call can run (docs/architecture.md, "Durable Object storage").
    void ctx.blockConcurrencyWhile(async () => {
      applyStorageMigrations(ctx.storage, COORDINATOR_MIGRATIONS, Date.now());
    });
    const sql = ctx.storage.sql;
    this.runs = new RunLeases(sql);
    this.browser = new BrowserSlot(
      sql,
      () => void this.scheduleAlarm(),
      () => this.clock(),
    );
  }

  // --- sync runs -----------------------------------------------------------------------------------------

  /** Claims the config for a real run that starts with `fingerprint`; `busy` is 409 `run_in_progress`. */
  async beginRun(input: {
    workspaceId: number;
    configId: number;
    revision: number;
    fingerprint: string;
    leaseMs?: number;
  }): Promise<BeginRunResult> {
    this.rememberWorkspace(input.workspaceId);
    const { replaced, ...result } = this.runs.begin(
      input.configId,
      input.revision,
      input.fingerprint,
      this.clock(),
      input.leaseMs,
    );
    if (result.ok) await this.scheduleAlarm();
    // A dead run whose deadline passed before its alarm fired: close its record now.
    if (replaced) await this.closeAbandoned([replaced]);
    return result;
  }

  attachRun(configId: number, token: string, runId: number): boolean {
    return this.runs.attach(configId, token, runId);
  }

  /** Asked by a run before every write and queue message: is the config still what the run started with? */
  checkRun(configId: number, token: string): CheckRunResult {
    // An extended deadline needs no new alarm: the old one fires early, expires nothing and moves on.
    return this.runs.check(configId, token, this.clock());
  }

  endRun(configId: number, token: string): boolean {
    return this.runs.end(configId, token);
  }

  /** A config update tells the coordinator its new fingerprint; an active run started with another aborts. */
  configChanged(input: { workspaceId: number; configId: number; revision: number; fingerprint: string }): {
    runWillAbort: boolean;
  } {
    this.rememberWorkspace(input.workspaceId);
    this.runs.noteFingerprint(input.configId, input.revision, input.fingerprint);
    return { runWillAbort: this.runs.runWillAbort(input.configId) };
  }

  activeRuns(): RunLease[] {
    return this.runs.active();
  }

  // --- browser operations -------------------------------------------------------------------------------

  /**
   * Waits (up to 30 s) for the workspace's browser slot, first come first served. On `ok: false` the caller
   * answers 409 `browser_busy` with `retry-after`. The holder must release; if it never does, the slot
   * frees itself at the deadline.
   */
  acquireBrowserSlot(operation: string, options: { waitMs?: number; leaseMs?: number } = {}): Promise<AcquireResult> {
    return this.browser.acquire(operation, options);
  }

  releaseBrowserSlot(token: string): boolean {
    return this.browser.release(token);
  }

  browserStatus(): { holder: BrowserHolder | null; waiting: number } {
    return { holder: this.browser.holder() ?? null, waiting: this.browser.waiting };
  }

  // --- deadlines ----------------------------------------------------------------------------------------

  override async alarm(): Promise<void> {
    const now = this.clock();
    this.browser.expire(now);
    const expired = this.runs.expire(now);
    await this.scheduleAlarm();
    await this.closeAbandoned(expired);
  }

  /** Closes the run records of leases that expired (after the object's own state already moved on). */
  private async closeAbandoned(leases: RunLease[]): Promise<void> {
    const workspaceId = this.workspaceId();
    if (workspaceId === undefined) return;
    const w = workspaceDb(this.env, workspaceId);
    for (const lease of leases) {
      if (lease.runId !== null) await failAbandonedRun(w, lease.runId, ABANDONED_RUN);
    }
  }

  private async scheduleAlarm(): Promise<void> {
    const deadlines = [this.runs.nextDeadline(), this.browser.nextDeadline()].filter((d): d is number => d !== null);
    if (deadlines.length === 0) {
      await this.ctx.storage.deleteAlarm();
      return;
    }
    const next = Math.min(...deadlines);
    const scheduled = await this.ctx.storage.getAlarm();
    if (scheduled !== next) await this.ctx.storage.setAlarm(next);
  }

  private rememberWorkspace(workspaceId: number): void {
    this.ctx.storage.sql.exec(
      "INSERT OR IGNORE INTO meta (key, value) VALUES ('workspace_id', ?)",
      String(workspaceId),
    );
  }

  private workspaceId(): number | undefined {
    const row = this.ctx.storage.sql
      .exec<{ value: string }>("SELECT value FROM meta WHERE key = 'workspace_id'")
      .toArray()[0];
    return row ? Number(row.value) : undefined;
  }
}

export const coordinatorFor = (env: Pick<Env, "WORKSPACE">, workspaceId: number) =>
  env.WORKSPACE.get(env.WORKSPACE.idFromName(`ws:${workspaceId}`));

/**
 * Runs one browser operation of the workspace in its turn (docs/blog-sync.md, browser slot): waits up to 30 s for the slot, else
 * 409 `browser_busy` with `retry-after`. The slot is released when `operation` settles; if the Worker dies
 * first, the slot's deadline frees it.
 */
export async function withBrowserSlot<T>(
  env: Pick<Env, "WORKSPACE">,
  workspaceId: number,
  operation: string,
  work: () => Promise<T>,
  options: { waitMs?: number; leaseMs?: number } = {},
): Promise<T> {
  const coordinator = coordinatorFor(env, workspaceId);
  const slot = await coordinator.acquireBrowserSlot(operation, options);
  if (!slot.ok) {
    throw new DomainError(
      "browser_busy",
      `another browser operation of this workspace (${slot.holder}) is running; retry in ${slot.retryAfterSeconds} s`,
      { retryAfterSeconds: slot.retryAfterSeconds },
    );
  }
  try {
    return await work();
  } finally {
    await coordinator.releaseBrowserSlot(slot.token);
  }
}
