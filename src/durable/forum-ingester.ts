import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";
import { type ForumApiConfig, forumApiConfig } from "../forum/app-client";
import { log, messageOf } from "../lib/log";
import type { ItemKind } from "../monitor/forum-ids";
import {
  DEFAULT_COMMENT_BUDGET,
  type IngestStore,
  ingestRound,
  MatcherCache,
  REFRESH_AGES_MS,
  type RefreshEntry,
  type RoundCounts,
} from "../monitor/ingest";
import { emptyWalk, type RoundClock, type WalkState, walkStatus } from "../monitor/walk";
import { applyStorageMigrations, type StorageMigration } from "./storage-migrations";

/** Seconds between rounds by default (MONITOR_INGEST_INTERVAL_S). */
export const DEFAULT_INGEST_INTERVAL_S = 30;

/** The ingester's storage schema, version by version (append only, as coordinator-migrations.ts). */
export const INGESTER_MIGRATIONS: readonly StorageMigration[] = [
  {
    version: 1,
    name: "walk states, refresh schedule",
    statements: [
      // One row per walk (t3 posts, t1 comments): the WalkState of src/monitor/walk.ts as JSON.
      "CREATE TABLE IF NOT EXISTS walks (kind TEXT PRIMARY KEY, state TEXT NOT NULL)",
      // Stored items and when each is re-read next (stage: which of the refresh ages comes next).
      `CREATE TABLE IF NOT EXISTS refresh (
         kind TEXT NOT NULL,
         id TEXT NOT NULL,
         created_ms INTEGER NOT NULL,
         stage INTEGER NOT NULL,
         due INTEGER NOT NULL,
         workspaces TEXT NOT NULL,
         PRIMARY KEY (kind, id)
       )`,
      "CREATE INDEX IF NOT EXISTS refresh_due ON refresh (due)",
    ],
  },
];

const intervalOf = (env: Env): number => {
  const n = Number.parseInt(env.MONITOR_INGEST_INTERVAL_S ?? "", 10);
  return Number.isFinite(n) && n >= 0 ? n : DEFAULT_INGEST_INTERVAL_S;
};

const commentBudgetOf = (env: Env): number => {
  const n = Number.parseInt(env.MONITOR_COMMENT_BUDGET ?? "", 10);
  return Number.isFinite(n) && n >= 0 ? n : DEFAULT_COMMENT_BUDGET;
};

/** The first refresh stage still ahead of `now` from `from` on, or null when the item is past the last. */
function nextStage(createdMs: number, from: number, now: number): number | null {
  for (let i = from; i < REFRESH_AGES_MS.length; i++) if (createdMs + REFRESH_AGES_MS[i]! > now) return i;
  return null;
}

const REAL_CLOCK: RoundClock = {
  now: () => Date.now(),
  wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * One per forum API client id (idFromName(client id)), as the quota: walks the forum's post and comment ids
 * for every workspace, driven by its alarm every MONITOR_INGEST_INTERVAL_S seconds (docs/monitoring.md,
 * "The ingester"). `ensureRunning` starts it; 0 seconds turns the alarm off (rounds only by `round`).
 */
export class ForumIngester extends DurableObject<Env> implements IngestStore {
  private running = false;
  private readonly matchers = new MatcherCache();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    void ctx.blockConcurrencyWhile(async () => {
      applyStorageMigrations(ctx.storage, INGESTER_MIGRATIONS, Date.now());
    });
  }

  /** Makes sure a round is scheduled: the first one at once when none is. */
  async ensureRunning(intervalS = intervalOf(this.env)): Promise<boolean> {
    if (intervalS <= 0 || !forumApiConfig(this.env)) return false;
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now());
    return true;
  }

  override async alarm(): Promise<void> {
    const config = forumApiConfig(this.env);
    const intervalS = intervalOf(this.env);
    if (!config || intervalS <= 0) return;
    // The next round first: a round that fails or outlives its Worker never stops the ingester.
    await this.ctx.storage.setAlarm(Date.now() + intervalS * 1000);
    try {
      await this.round(config);
    } catch (err) {
      log("error", "ingest round failed", { error: messageOf(err) });
    }
  }

  /**
   * One round now (the alarm's on the real clock, or a test's with its own client and clock: a fixed time, or a
   * clock that moves on while the round works and can wait on it); null while another runs.
   */
  async round(
    config: ForumApiConfig | null = forumApiConfig(this.env),
    now?: number | RoundClock,
    intervalS = intervalOf(this.env) || DEFAULT_INGEST_INTERVAL_S,
  ): Promise<RoundCounts | null> {
    if (!config || this.running) return null;
    this.running = true;
    try {
      const clock: RoundClock = now === undefined ? REAL_CLOCK : typeof now === "number" ? { now: () => now } : now;
      return await ingestRound(this.env, this, {
        config,
        now: clock.now,
        wait: clock.wait,
        intervalS,
        commentBudget: commentBudgetOf(this.env),
        matchers: this.matchers,
      });
    } finally {
      this.running = false;
    }
  }

  /** The walks as GET /actions/monitoring shows them. */
  status(now = Date.now()) {
    return { posts: walkStatus(this.walk("t3"), now), comments: walkStatus(this.walk("t1"), now) };
  }

  /** A walk's whole state (its counts too), for tests and the benchmark. */
  walkState(kind: ItemKind): WalkState {
    return this.walk(kind);
  }

  /** Items waiting for a refresh, for tests and the benchmark. */
  refreshCount(): number {
    return this.ctx.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM refresh").one().n;
  }

  walk(kind: ItemKind): WalkState {
    const row = this.ctx.storage.sql
      .exec<{ state: string }>("SELECT state FROM walks WHERE kind = ?", kind)
      .toArray()[0];
    return row ? (JSON.parse(row.state) as WalkState) : emptyWalk();
  }

  saveWalk(kind: ItemKind, state: WalkState): void {
    this.ctx.storage.sql.exec(
      "INSERT INTO walks (kind, state) VALUES (?, ?) ON CONFLICT (kind) DO UPDATE SET state = excluded.state",
      kind,
      JSON.stringify(state),
    );
  }

  stored(entries: RefreshEntry[], now: number): void {
    for (const e of entries) {
      const known = this.ctx.storage.sql
        .exec<{ workspaces: string; stage: number; due: number }>(
          "SELECT workspaces, stage, due FROM refresh WHERE kind = ? AND id = ?",
          e.kind,
          e.id,
        )
        .toArray()[0];
      const workspaces = [...new Set([...(known ? (JSON.parse(known.workspaces) as number[]) : []), ...e.workspaces])];
      const stage = known ? known.stage : nextStage(e.createdMs, 0, now);
      if (stage === null) continue;
      this.ctx.storage.sql.exec(
        `INSERT INTO refresh (kind, id, created_ms, stage, due, workspaces) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (kind, id) DO UPDATE SET workspaces = excluded.workspaces`,
        e.kind,
        e.id,
        e.createdMs,
        stage,
        e.createdMs + REFRESH_AGES_MS[stage]!,
        JSON.stringify(workspaces.sort((a, b) => a - b)),
      );
    }
  }

  dueRefresh(now: number, limit: number): RefreshEntry[] {
    return this.ctx.storage.sql
      .exec<{ kind: ItemKind; id: string; created_ms: number; stage: number; workspaces: string }>(
        "SELECT kind, id, created_ms, stage, workspaces FROM refresh WHERE due <= ? ORDER BY due LIMIT ?",
        now,
        limit,
      )
      .toArray()
      .map((r) => ({
        kind: r.kind,
        id: r.id,
        createdMs: r.created_ms,
        stage: r.stage,
        workspaces: JSON.parse(r.workspaces) as number[],
      }));
  }

  refreshed(entry: RefreshEntry, now: number): void {
    const stage = nextStage(entry.createdMs, entry.stage + 1, now);
    if (stage === null)
      this.ctx.storage.sql.exec("DELETE FROM refresh WHERE kind = ? AND id = ?", entry.kind, entry.id);
    else
      this.ctx.storage.sql.exec(
        "UPDATE refresh SET stage = ?, due = ? WHERE kind = ? AND id = ?",
        stage,
        entry.createdMs + REFRESH_AGES_MS[stage]!,
        entry.kind,
        entry.id,
      );
  }
}
