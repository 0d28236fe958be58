import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";

/**
 * The forum API's budget for one OAuth client (docs/monitoring.md, "The quota"): 1,000 requests in any 600
 * seconds, the forum's own window; a burst may use whatever the window has left.
 */
export const QUOTA_LIMIT = 1_000;
export const QUOTA_WINDOW_MS = 600_000;
/** Without an X-Ratelimit-Reset on a 429, everyone waits this long. */
const DEFAULT_BLOCK_MS = 60_000;
/**
 * A cached token is not handed out in its last minute (or last tenth of a short life): a request must not
 * start with a token about to expire.
 */
const tokenMarginMs = (lifeMs: number) => Math.min(60_000, lifeMs / 10);

export type Permit = { ok: true; permit: number } | { ok: false; waitMs: number };

export interface QuotaReport {
  permit: number;
  /** X-Ratelimit-Remaining, when the answer carried it. */
  remaining: number | null;
  /** X-Ratelimit-Reset in seconds (possibly fractional), when given. */
  resetSeconds: number | null;
  status: number;
}

export interface QuotaStatus {
  remaining: number;
  reset_at: string;
}

interface State {
  /** When each permit of the last window was granted, oldest first. */
  grants: number[];
  /** Sequence number of the next permit. */
  seq: number;
  /** The forum's last word: how many requests remain until `resetAt`, counted from permit `afterPermit`. */
  header: { remaining: number; resetAt: number; afterPermit: number; grantedSince: number } | null;
  blockedUntil: number;
  token: { value: string; expiresAt: number } | null;
}

const EMPTY: State = { grants: [], seq: 1, header: null, blockedUntil: 0, token: null };

/**
 * One per OAuth client id (idFromName(client id)): hands out request permits so that every workspace's
 * passes together stay inside the client's quota, follows the forum's X-Ratelimit-* headers, stops everyone
 * on a 429 until the reset, and caches the access token until it expires. Each method is synchronous apart
 * from its storage write, so calls never interleave inside the bookkeeping.
 */
export class ForumQuota extends DurableObject<Env> {
  private state: State = structuredClone(EMPTY);

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS quota (id INTEGER PRIMARY KEY, state TEXT NOT NULL)");
    const row = ctx.storage.sql.exec<{ state: string }>("SELECT state FROM quota WHERE id = 1").toArray()[0];
    if (row) this.state = JSON.parse(row.state) as State;
  }

  private save(): void {
    this.ctx.storage.sql.exec(
      "INSERT INTO quota (id, state) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET state = excluded.state",
      JSON.stringify(this.state),
    );
  }

  /** A permit for one request now, or how long to wait before asking again. */
  acquire(now = Date.now()): Permit {
    const s = this.state;
    s.grants = s.grants.filter((t) => t > now - QUOTA_WINDOW_MS);
    if (s.blockedUntil > now) return { ok: false, waitMs: s.blockedUntil - now };
    // The forum's last word limits only until its reset; it is kept after that for status() (null only
    // before the first answer), and the next answer replaces it.
    const header = s.header && s.header.resetAt > now ? s.header : null;
    if (header && header.grantedSince >= header.remaining) return { ok: false, waitMs: header.resetAt - now };
    if (s.grants.length >= QUOTA_LIMIT) return { ok: false, waitMs: s.grants[0]! + QUOTA_WINDOW_MS - now };
    s.grants.push(now);
    if (header) header.grantedSince++;
    const permit = s.seq++;
    this.save();
    return { ok: true, permit };
  }

  /**
   * The forum's answer to a permitted request. Its remaining count was taken when that request arrived, so
   * permits granted after it may not be in it yet: they are counted against it (never too generous).
   */
  report(r: QuotaReport, now = Date.now()): void {
    const s = this.state;
    const resetAt = r.resetSeconds !== null ? now + Math.ceil(r.resetSeconds * 1000) : null;
    if (r.status === 429) {
      s.blockedUntil = Math.max(s.blockedUntil, resetAt ?? now + DEFAULT_BLOCK_MS);
      s.header = { remaining: 0, resetAt: s.blockedUntil, afterPermit: r.permit, grantedSince: 0 };
    } else if (r.remaining !== null && resetAt !== null) {
      // An answer older than the one already known says less: keep the newer.
      if (!s.header || r.permit >= s.header.afterPermit || s.header.resetAt <= now) {
        s.header = {
          remaining: Math.floor(r.remaining),
          resetAt,
          afterPermit: r.permit,
          grantedSince: Math.max(0, s.seq - 1 - r.permit),
        };
      }
    }
    this.save();
  }

  /** What GET /actions/monitoring shows: the forum's last remaining count and reset, null before any answer. */
  status(now = Date.now()): QuotaStatus | null {
    const h = this.state.header;
    if (!h) return null;
    const remaining = h.resetAt <= now ? QUOTA_LIMIT : Math.max(0, h.remaining - h.grantedSince);
    return { remaining, reset_at: new Date(h.resetAt).toISOString() };
  }

  /** The requests granted in the window ending now (for the benchmark and tests). */
  peak(now = Date.now()): number {
    return this.state.grants.filter((t) => t > now - QUOTA_WINDOW_MS).length;
  }

  /** The requests granted in the last 60 seconds, to every caller of the client (GET /actions/monitoring). */
  lastMinute(now = Date.now()): number {
    return this.state.grants.filter((t) => t > now - 60_000).length;
  }

  cachedToken(now = Date.now()): string | null {
    const t = this.state.token;
    return t && t.expiresAt > now ? t.value : null;
  }

  storeToken(value: string, expiresInSeconds: number, now = Date.now()): void {
    const lifeMs = expiresInSeconds * 1000;
    this.state.token = { value, expiresAt: now + lifeMs - tokenMarginMs(lifeMs) };
    this.save();
  }

  /** A token the forum refused (401) is forgotten, so the next request fetches a new one. */
  dropToken(value: string): void {
    if (this.state.token?.value === value) {
      this.state.token = null;
      this.save();
    }
  }
}
