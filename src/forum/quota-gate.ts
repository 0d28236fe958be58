// The deployment's forum quota (src/durable/forum-quota.ts) for calls made with a person's bearer token
// (docs/publishing.md, "Forum API calls"): the forum counts every token of the client against the client's
// window, so these take a permit before each request and report the answer's X-Ratelimit-* headers after it,
// as the ingester and backfills do (src/forum/app-client.ts).
import type { ForumQuota } from "../durable/forum-quota";
import type { Env } from "../env";
import { ForumError } from "./errors";

/** How long a call waits for the deployment's quota before it gives up (ForumError `quota`). */
const QUOTA_WAIT_MS = 30_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const headerNumber = (headers: Headers, name: string): number | null => {
  const n = Number.parseFloat(headers.get(name) ?? "");
  return Number.isFinite(n) ? n : null;
};

export class QuotaGate {
  private readonly quota: DurableObjectStub<ForumQuota>;

  constructor(env: Env, clientId: string) {
    this.quota = env.FORUM_QUOTA.get(env.FORUM_QUOTA.idFromName(clientId));
  }

  /** A permit of the deployment's quota, waiting up to 30 s; then ForumError `quota`. */
  async permit(what: string): Promise<number> {
    const until = Date.now() + QUOTA_WAIT_MS;
    for (;;) {
      const p = await this.quota.acquire(Date.now());
      if (p.ok) return p.permit;
      if (Date.now() + p.waitMs > until)
        throw new ForumError(
          "quota",
          `${what}: the deployment's forum API quota has no request left for ${Math.ceil(p.waitMs / 1000)} s; try again then`,
          { retryAfterSeconds: Math.ceil(p.waitMs / 1000) },
        );
      await sleep(Math.max(50, p.waitMs));
    }
  }

  /** The forum's answer to the permitted request: its remaining count and reset, or its 429. */
  async report(permit: number, res: { status: number; headers: Headers }): Promise<void> {
    await this.quota.report(
      {
        permit,
        remaining: headerNumber(res.headers, "x-ratelimit-remaining"),
        resetSeconds: headerNumber(res.headers, "x-ratelimit-reset"),
        status: res.status,
      },
      Date.now(),
    );
  }
}
