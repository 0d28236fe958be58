// Active sync runs of one workspace, kept in the coordinator's SQLite storage: which run holds each config,
// the fingerprint it started with, the latest fingerprint the config has, and the deadline by which a run
// that stopped reporting loses its slot. Every function here is synchronous (SQLite in the object), so no
// other call can interleave inside one of them. The tables are made by the coordinator's storage migrations
// (coordinator-migrations.ts).

/**
 * How long a run may stay silent before it counts as dead. Generous: discovery alone may take 20 fetches of
 * up to 15 s each before the first question; between two questions there is one article fetch.
 */
export const RUN_LEASE_MS = 10 * 60_000;
/** Bounds of a caller-chosen lease (tests use short ones; nothing may hold a config for hours). */
const MIN_LEASE_MS = 1;
const MAX_LEASE_MS = 30 * 60_000;

export interface RunLease {
  configId: number;
  token: string;
  runId: number | null;
  startedFingerprint: string;
  deadline: number;
}

export type BeginRunResult =
  | { ok: true; token: string; deadline: number }
  /** `busy`: another run holds the config. `stale`: the config changed after the caller read it. */
  | { ok: false; reason: "busy" | "stale" };

export type CheckRunResult = { ok: true } | { ok: false; reason: "config_changed" | "lease_lost" };

interface LeaseRecord extends Record<string, SqlStorageValue> {
  config_id: number;
  token: string;
  run_id: number | null;
  started_fingerprint: string;
  deadline: number;
}

const toLease = (r: LeaseRecord): RunLease => ({
  configId: r.config_id,
  token: r.token,
  runId: r.run_id,
  startedFingerprint: r.started_fingerprint,
  deadline: r.deadline,
});

export class RunLeases {
  constructor(private readonly sql: SqlStorage) {}

  private lease(configId: number): RunLease | undefined {
    const row = this.sql.exec<LeaseRecord>("SELECT * FROM run_leases WHERE config_id = ?", configId).toArray()[0];
    return row ? toLease(row) : undefined;
  }

  private knownFingerprint(configId: number): { revision: number; fingerprint: string } | undefined {
    return this.sql
      .exec<{ revision: number; fingerprint: string }>(
        "SELECT revision, fingerprint FROM config_fingerprints WHERE config_id = ?",
        configId,
      )
      .toArray()[0];
  }

  /** True when the latest known fingerprint of the config is not the one the lease's run started with. */
  private changedSince(lease: RunLease): boolean {
    const current = this.knownFingerprint(lease.configId);
    return current !== undefined && current.fingerprint !== lease.startedFingerprint;
  }

  /** Records the config's fingerprint unless a newer revision is already known; returns what is current. */
  noteFingerprint(configId: number, revision: number, fingerprint: string): { revision: number; fingerprint: string } {
    const known = this.knownFingerprint(configId);
    if (known && known.revision > revision) return known;
    this.sql.exec(
      `INSERT INTO config_fingerprints (config_id, revision, fingerprint) VALUES (?, ?, ?)
       ON CONFLICT (config_id) DO UPDATE SET revision = excluded.revision, fingerprint = excluded.fingerprint`,
      configId,
      revision,
      fingerprint,
    );
    return { revision, fingerprint };
  }

  /** `replaced`: an expired lease this claim took over (its run record must be closed by the caller). */
  begin(
    configId: number,
    revision: number,
    fingerprint: string,
    now: number,
    leaseMs = RUN_LEASE_MS,
  ): BeginRunResult & { replaced?: RunLease } {
    const current = this.noteFingerprint(configId, revision, fingerprint);
    if (current.revision !== revision) return { ok: false, reason: "stale" };
    const held = this.lease(configId);
    if (held && held.deadline > now) return { ok: false, reason: "busy" };
    const token = crypto.randomUUID();
    const deadline = now + Math.min(MAX_LEASE_MS, Math.max(MIN_LEASE_MS, leaseMs));
    this.sql.exec(
      `INSERT INTO run_leases (config_id, token, run_id, started_fingerprint, deadline) VALUES (?, ?, NULL, ?, ?)
       ON CONFLICT (config_id) DO UPDATE SET token = excluded.token, run_id = NULL,
         started_fingerprint = excluded.started_fingerprint, deadline = excluded.deadline`,
      configId,
      token,
      fingerprint,
      deadline,
    );
    return { ok: true, token, deadline, ...(held ? { replaced: held } : {}) };
  }

  /** Ties the run's record to its lease, so an expired lease can close that record. */
  attach(configId: number, token: string, runId: number): boolean {
    return (
      this.sql.exec("UPDATE run_leases SET run_id = ? WHERE config_id = ? AND token = ?", runId, configId, token)
        .rowsWritten > 0
    );
  }

  /**
   * The question a run asks before every source post, write and queue message. A live answer also extends
   * the lease (a run that keeps asking is alive) once less than half of it is left, so most answers are
   * reads: a storage write makes the answer wait for it to be durable.
   */
  check(configId: number, token: string, now: number): CheckRunResult {
    const held = this.lease(configId);
    if (!held || held.token !== token || held.deadline <= now) return { ok: false, reason: "lease_lost" };
    if (this.changedSince(held)) return { ok: false, reason: "config_changed" };
    if (held.deadline - now < RUN_LEASE_MS / 2) {
      this.sql.exec("UPDATE run_leases SET deadline = ? WHERE config_id = ?", now + RUN_LEASE_MS, configId);
    }
    return { ok: true };
  }

  /** Whether a lease of the config (even one past its deadline, not yet expired) belongs to a run that started with another fingerprint than the latest known: that run aborts. */
  runWillAbort(configId: number): boolean {
    const held = this.lease(configId);
    return held !== undefined && this.changedSince(held);
  }

  end(configId: number, token: string): boolean {
    return this.sql.exec("DELETE FROM run_leases WHERE config_id = ? AND token = ?", configId, token).rowsWritten > 0;
  }

  /** Removes and returns the leases whose deadline has passed. */
  expire(now: number): RunLease[] {
    return this.sql
      .exec<LeaseRecord>("DELETE FROM run_leases WHERE deadline <= ? RETURNING *", now)
      .toArray()
      .map(toLease);
  }

  active(): RunLease[] {
    return this.sql.exec<LeaseRecord>("SELECT * FROM run_leases ORDER BY config_id").toArray().map(toLease);
  }

  nextDeadline(): number | null {
    const row = this.sql.exec<{ deadline: number | null }>("SELECT min(deadline) AS deadline FROM run_leases").one();
    return row.deadline ?? null;
  }
}
