// The workspace's one browser slot (docs/blog-sync.md, "The workspace Durable Object"): one browser operation at a time, first come first served, a
// caller waits up to 30 s for its turn, and a holder that crashed or hung loses the slot at its deadline.
// The holder is stored (it must survive an eviction so the alarm can free it); the waiters are in memory
// because they are calls in flight: if the object goes away, so do they. Its table is made by the
// coordinator's storage migrations (coordinator-migrations.ts).

export const BROWSER_WAIT_MS = 30_000;
export const BROWSER_LEASE_MS = 3 * 60_000;
const MAX_BROWSER_LEASE_MS = 15 * 60_000;

export interface BrowserHolder {
  token: string;
  operation: string;
  acquiredAt: number;
  deadline: number;
}

export type AcquireResult =
  | { ok: true; token: string; deadline: number; waitedMs: number }
  | { ok: false; retryAfterSeconds: number; holder: string };

interface Waiter {
  operation: string;
  leaseMs: number;
  enqueuedAt: number;
  resolve(result: AcquireResult): void;
  timer: ReturnType<typeof setTimeout>;
}

interface HolderRecord extends Record<string, SqlStorageValue> {
  token: string;
  operation: string;
  acquired_at: number;
  deadline: number;
}

export class BrowserSlot {
  private readonly waiters: Waiter[] = [];

  constructor(
    private readonly sql: SqlStorage,
    /** Called whenever the holder's deadline changes, so the owner can move its alarm. */
    private readonly onDeadlineChange: () => void,
    /** Where the slot reads the time (the coordinator's clock, which tests can set). */
    private readonly now: () => number = Date.now,
  ) {}

  holder(): BrowserHolder | undefined {
    const row = this.sql
      .exec<HolderRecord>("SELECT token, operation, acquired_at, deadline FROM browser_slot WHERE id = 1")
      .toArray()[0];
    return row
      ? { token: row.token, operation: row.operation, acquiredAt: row.acquired_at, deadline: row.deadline }
      : undefined;
  }

  get waiting(): number {
    return this.waiters.length;
  }

  private grant(operation: string, leaseMs: number, now: number): { token: string; deadline: number } {
    const token = crypto.randomUUID();
    const deadline = now + Math.min(MAX_BROWSER_LEASE_MS, Math.max(1, leaseMs));
    this.sql.exec(
      `INSERT INTO browser_slot (id, token, operation, acquired_at, deadline) VALUES (1, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET token = excluded.token, operation = excluded.operation,
         acquired_at = excluded.acquired_at, deadline = excluded.deadline`,
      token,
      operation,
      now,
      deadline,
    );
    this.onDeadlineChange();
    return { token, deadline };
  }

  /** Hands the free slot to the longest-waiting caller. Synchronous: nothing can cut in line. */
  private handOver(now: number): boolean {
    const next = this.waiters.shift();
    if (!next) return false;
    clearTimeout(next.timer);
    const granted = this.grant(next.operation, next.leaseMs, now);
    next.resolve({ ok: true, ...granted, waitedMs: now - next.enqueuedAt });
    return true;
  }

  acquire(operation: string, options: { waitMs?: number; leaseMs?: number } = {}): Promise<AcquireResult> {
    const now = this.now();
    const leaseMs = options.leaseMs ?? BROWSER_LEASE_MS;
    this.expire(now);
    // Free and nobody queued before us: take it now. Otherwise wait in line, even if the slot just freed.
    if (!this.holder() && this.waiters.length === 0)
      return Promise.resolve({ ok: true, ...this.grant(operation, leaseMs, now), waitedMs: 0 });
    const waitMs = Math.max(0, Math.min(BROWSER_WAIT_MS, options.waitMs ?? BROWSER_WAIT_MS));
    return new Promise<AcquireResult>((resolve) => {
      const waiter: Waiter = {
        operation,
        leaseMs,
        enqueuedAt: now,
        resolve,
        timer: setTimeout(() => {
          const at = this.waiters.indexOf(waiter);
          if (at >= 0) this.waiters.splice(at, 1);
          const holder = this.holder();
          const remaining = holder ? holder.deadline - this.now() : 1000;
          resolve({
            ok: false,
            retryAfterSeconds: Math.min(60, Math.max(1, Math.ceil(remaining / 1000))),
            holder: holder?.operation ?? "none",
          });
        }, waitMs),
      };
      this.waiters.push(waiter);
    });
  }

  /** Frees the slot if `token` holds it, and hands it to the next caller in line. */
  release(token: string): boolean {
    const freed = this.sql.exec("DELETE FROM browser_slot WHERE id = 1 AND token = ?", token).rowsWritten > 0;
    // A hand-over grants the slot, which reschedules the deadline itself.
    if (freed && !this.handOver(this.now())) this.onDeadlineChange();
    return freed;
  }

  /** Alarm work: a holder past its deadline crashed or hung; its slot goes to the next caller. */
  expire(now: number): BrowserHolder | undefined {
    const current = this.holder();
    if (!current || current.deadline > now) return undefined;
    this.release(current.token);
    return current;
  }

  nextDeadline(): number | null {
    return this.holder()?.deadline ?? null;
  }
}
