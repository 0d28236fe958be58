import { DurableObject } from "cloudflare:workers";
import { type BrowserReuse, closeBrowserSession } from "../browser/forum-browser";
import { failAbandonedRun } from "../db/blog-sync-runs";
import { workspaceDb } from "../db/client";
import type { Env } from "../env";
import { DomainError } from "../lib/domain-errors";
import { type AcquireResult, BROWSER_WAIT_MS, type BrowserHolder, BrowserSlot } from "./browser-slot";
import { COORDINATOR_MIGRATIONS } from "./coordinator-migrations";
import { FetchBudget, type TakeFetchResult } from "./fetch-budget";
import { type BeginPreviewResult, PreviewLeases } from "./preview-leases";
import { type BeginRunResult, type CheckRunResult, type RunLease, RunLeases } from "./run-leases";
import { applyStorageMigrations } from "./storage-migrations";
import { DEFAULT_KEEP_WARM_SECONDS, WarmBrowser } from "./warm-browser";

export type { AcquireResult, BeginPreviewResult, BeginRunResult, CheckRunResult, TakeFetchResult };

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
  /**
   * The longest a caller waits in line for the browser slot. Tests shorten it through `runInDurableObject`
   * instead of waiting 30 s for a wait to run out; nothing else changes it.
   */
  maxBrowserWaitMs = BROWSER_WAIT_MS;
  private readonly previews: PreviewLeases;
  private readonly fetches = new FetchBudget();
  private readonly warm: WarmBrowser;

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
    this.previews = new PreviewLeases(sql);
    this.warm = new WarmBrowser(
      sql,
      // Closing takes a round trip to the browser; the object's own state is already consistent.
      (sessionId) => this.ctx.waitUntil(closeBrowserSession(this.env.BROWSER, sessionId)),
      () => void this.scheduleAlarm(),
    );
  }

  /** How long a browser stays open after an operation for the next one (BROWSER_KEEP_WARM_SECONDS; 0 = never). */
  private keepWarmMs(): number {
    const raw = this.env.BROWSER_KEEP_WARM_SECONDS;
    const seconds = raw === undefined || raw === "" ? DEFAULT_KEEP_WARM_SECONDS : Number(raw);
    return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 9 * 60) * 1000 : 0;
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

  /** Before a config is deleted: false while a run of it is active; otherwise no run of it can start. */
  retireConfig(configId: number): boolean {
    return this.runs.retire(configId, Date.now());
  }

  /** The deletion did not happen: runs of the config may start again. */
  restoreConfig(configId: number): void {
    this.runs.restore(configId);
  }

  activeRuns(): RunLease[] {
    return this.runs.active();
  }

  // --- previews and outbound fetches --------------------------------------------------------------------

  /** Claims the config for one dry run; `busy` (another preview of it is running) is 409 `run_in_progress`. */
  beginPreview(input: { configId: number; leaseMs?: number }): BeginPreviewResult {
    return this.previews.begin(input.configId, this.clock(), input.leaseMs);
  }

  /** A preview's sign of life before each source post: false when its lease was lost. */
  renewPreview(configId: number, token: string): boolean {
    return this.previews.renew(configId, token, this.clock());
  }

  endPreview(configId: number, token: string): boolean {
    return this.previews.end(configId, token);
  }

  /**
   * Asked before every outbound request of a run or preview: takes one from the workspace's fetch budget
   * (FETCHES_PER_MINUTE) and, as a sign of life, renews the asking run's or preview's lease.
   */
  beforeFetch(input: { configId: number; token: string; preview: boolean }): TakeFetchResult {
    const now = this.clock();
    if (input.preview) this.previews.renew(input.configId, input.token, now);
    else this.runs.renew(input.configId, input.token, now);
    return this.fetches.take(now);
  }

  // --- browser operations -------------------------------------------------------------------------------

  /**
   * Waits (up to 30 s) for the workspace's browser slot, first come first served. On `ok: false` the caller
   * answers 409 `browser_busy` with `retry-after`. The holder must release; if it never does, the slot
   * frees itself at the deadline.
   */
  async acquireBrowserSlot(
    operation: string,
    options: { waitMs?: number; leaseMs?: number } = {},
  ): Promise<BrowserTurnGrant> {
    const waitMs = Math.min(options.waitMs ?? this.maxBrowserWaitMs, this.maxBrowserWaitMs);
    const slot = await this.browser.acquire(operation, { ...options, waitMs });
    if (!slot.ok) return slot;
    // Synchronous from the grant on: the warm browser goes to exactly this holder.
    return { ...slot, browser: { sessionId: this.warm.lend(slot.token, this.clock()), keepWarmMs: this.keepWarmMs() } };
  }

  /**
   * Frees the slot of `token`. `keptSessionId` is the browser the holder left open for the next operation
   * (kept warm for BROWSER_KEEP_WARM_SECONDS, then closed), or null when it closed its browser.
   */
  releaseBrowserSlot(token: string, keptSessionId: string | null = null): boolean {
    // The browser first: a caller waiting in line gets the slot (and with it this browser) in the release.
    if (this.browser.holder()?.token === token) this.warm.giveBack(keptSessionId, this.clock(), this.keepWarmMs());
    // Too late: the slot went at its deadline, and the browser lent with it; one it kept goes too.
    else if (keptSessionId) this.warm.discard(keptSessionId);
    return this.browser.release(token);
  }

  browserStatus(): {
    holder: BrowserHolder | null;
    waiting: number;
    warm: { sessionId: string; lent: boolean; idleUntil: number | null } | null;
  } {
    return { holder: this.browser.holder() ?? null, waiting: this.browser.waiting, warm: this.warm.status() };
  }

  // --- deadlines ----------------------------------------------------------------------------------------

  override async alarm(): Promise<void> {
    const now = this.clock();
    const dead = this.browser.expire(now);
    if (dead) this.warm.forfeit(dead.token);
    this.warm.expire(now);
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
    const deadlines = [this.runs.nextDeadline(), this.browser.nextDeadline(), this.warm.nextDeadline()].filter(
      (d): d is number => d !== null,
    );
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

/** A turn of the browser slot, with the warm browser lent for it (see WarmBrowser). */
export type BrowserTurnGrant =
  | (Extract<AcquireResult, { ok: true }> & { browser: BrowserTurn })
  | Extract<AcquireResult, { ok: false }>;

export interface BrowserTurn {
  /** The browser kept open by the workspace's previous operation, to connect to instead of launching. */
  sessionId: string | undefined;
  /** How long the coordinator keeps a browser after this operation; 0 = close it. */
  keepWarmMs: number;
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
  work: (browser: BrowserReuse) => Promise<T>,
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
  // The browser the operation left open, handed back with the slot (null: it closed its browser). An operation
  // that opened no page (publishing: forum API calls only) hands back the warm browser it was lent, untouched.
  let kept: string | null = slot.browser.sessionId ?? null;
  const browser: BrowserReuse = {
    ...slot.browser,
    keep(sessionId) {
      kept = sessionId;
    },
  };
  try {
    return await work(browser);
  } finally {
    await coordinator.releaseBrowserSlot(slot.token, kept);
  }
}
