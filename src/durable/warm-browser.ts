// The workspace's warm browser (docs/publishing.md, "A warm browser"): after a browser operation the
// coordinator may keep its browser open for BROWSER_KEEP_WARM_SECONDS and lend it to the next holder of the
// browser slot, which then connects in milliseconds instead of launching for a second. At most one browser
// per workspace is ever kept; it is either idle (waiting for its deadline) or lent to the slot's holder.
// The record is stored so the alarm can close an idle browser after an eviction; its table is made by the
// coordinator's storage migrations (coordinator-migrations.ts).

export const DEFAULT_KEEP_WARM_SECONDS = 60;

interface WarmRecord extends Record<string, SqlStorageValue> {
  session_id: string;
  /** The token of the slot holder it is lent to, or null while it idles. */
  lent_to: string | null;
  /** When an idle browser is closed (ms); null while lent. */
  idle_until: number | null;
}

export class WarmBrowser {
  constructor(
    private readonly sql: SqlStorage,
    /** Closes a browser the workspace no longer keeps (fire and forget: it is gone either way). */
    private readonly close: (sessionId: string) => void,
    /** Called whenever the idle deadline changes, so the owner can move its alarm. */
    private readonly onDeadlineChange: () => void,
  ) {}

  private current(): WarmRecord | undefined {
    return this.sql
      .exec<WarmRecord>("SELECT session_id, lent_to, idle_until FROM warm_browser WHERE id = 1")
      .toArray()[0];
  }

  /** The idle browser's session id, now lent to the slot holder `token`; undefined when none is warm. */
  lend(token: string, now: number): string | undefined {
    const warm = this.current();
    if (!warm || warm.lent_to !== null) return undefined;
    if (warm.idle_until !== null && warm.idle_until <= now) {
      this.drop(warm.session_id);
      return undefined;
    }
    this.sql.exec("UPDATE warm_browser SET lent_to = ?, idle_until = NULL WHERE id = 1", token);
    this.onDeadlineChange();
    return warm.session_id;
  }

  /**
   * The slot's holder is done: `sessionId` is the browser it left open (kept warm until `now + keepMs`), or
   * null when it closed its browser. Any other browser the workspace still kept is closed: one is enough.
   */
  giveBack(sessionId: string | null, now: number, keepMs: number): void {
    const warm = this.current();
    // The lent browser was replaced (it had gone and the holder launched another), or an idle one is surplus.
    if (warm && warm.session_id !== sessionId) this.drop(warm.session_id);
    if (sessionId === null) return;
    if (keepMs <= 0) {
      this.close(sessionId);
      return;
    }
    this.sql.exec(
      `INSERT INTO warm_browser (id, session_id, lent_to, idle_until) VALUES (1, ?, NULL, ?)
       ON CONFLICT (id) DO UPDATE SET session_id = excluded.session_id, lent_to = NULL, idle_until = excluded.idle_until`,
      sessionId,
      now + keepMs,
    );
    this.onDeadlineChange();
  }

  /** A browser left open by a holder that no longer holds the slot: closed, never kept. */
  discard(sessionId: string): void {
    this.close(sessionId);
  }

  /** The slot holder `token` lost its slot at its deadline (crashed or hung): the browser lent to it goes. */
  forfeit(token: string): void {
    const warm = this.current();
    if (warm?.lent_to === token) this.drop(warm.session_id);
  }

  /** Alarm work: closes the idle browser past its deadline. */
  expire(now: number): void {
    const warm = this.current();
    if (warm && warm.lent_to === null && warm.idle_until !== null && warm.idle_until <= now) this.drop(warm.session_id);
  }

  nextDeadline(): number | null {
    const warm = this.current();
    return warm && warm.lent_to === null ? warm.idle_until : null;
  }

  /** The kept browser, for status and tests: its session id and whether it idles or is lent. */
  status(): { sessionId: string; lent: boolean; idleUntil: number | null } | null {
    const warm = this.current();
    return warm ? { sessionId: warm.session_id, lent: warm.lent_to !== null, idleUntil: warm.idle_until } : null;
  }

  private drop(sessionId: string): void {
    this.sql.exec("DELETE FROM warm_browser WHERE id = 1 AND session_id = ?", sessionId);
    this.close(sessionId);
    this.onDeadlineChange();
  }
}
