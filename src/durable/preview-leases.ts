// Dry runs (previews) in progress, one per config at a time, kept in the coordinator's SQLite storage. A
// preview writes nothing, so it needs no fingerprint and no run record; the lease only bounds how many
// previews can fetch one blog at once. Its deadline works like a run's: renewed by every sign of life (each
// outbound fetch, each source post), and a preview whose Worker died frees the config at its deadline.
import { RENEW_EVERY_MS, RUN_LEASE_MS } from "./run-leases";

export type BeginPreviewResult = { ok: true; token: string } | { ok: false; reason: "busy" };

export class PreviewLeases {
  constructor(private readonly sql: SqlStorage) {}

  private held(configId: number): { token: string; deadline: number } | undefined {
    return this.sql
      .exec<{ token: string; deadline: number }>(
        "SELECT token, deadline FROM preview_leases WHERE config_id = ?",
        configId,
      )
      .toArray()[0];
  }

  /** Claims the config for one preview; `busy` while another live preview holds it (an expired one is replaced). */
  begin(configId: number, now: number, leaseMs = RUN_LEASE_MS): BeginPreviewResult {
    const held = this.held(configId);
    if (held && held.deadline > now) return { ok: false, reason: "busy" };
    const token = crypto.randomUUID();
    this.sql.exec(
      `INSERT INTO preview_leases (config_id, token, deadline) VALUES (?, ?, ?)
       ON CONFLICT (config_id) DO UPDATE SET token = excluded.token, deadline = excluded.deadline`,
      configId,
      token,
      now + Math.max(1, Math.min(RUN_LEASE_MS, leaseMs)),
    );
    return { ok: true, token };
  }

  /** A sign of life: extends the lease (once RENEW_EVERY_MS of it is used); false when it was lost. */
  renew(configId: number, token: string, now: number): boolean {
    const held = this.held(configId);
    if (!held || held.token !== token || held.deadline <= now) return false;
    if (held.deadline - now < RUN_LEASE_MS - RENEW_EVERY_MS)
      this.sql.exec("UPDATE preview_leases SET deadline = ? WHERE config_id = ?", now + RUN_LEASE_MS, configId);
    return true;
  }

  end(configId: number, token: string): boolean {
    return (
      this.sql.exec("DELETE FROM preview_leases WHERE config_id = ? AND token = ?", configId, token).rowsWritten > 0
    );
  }
}
