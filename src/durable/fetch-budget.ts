// The workspace's outbound fetch budget: how many requests to the open web (blogs: feeds, sitemaps, pages,
// robots.txt, redirects; every request safeFetch sends) its sync runs and previews may make per minute,
// so the service cannot be used to flood a blog. A fixed one-minute window counted in the coordinator's
// memory: the object is single-threaded, so the count is exact while it lives, and an object evicted
// after being idle has nothing worth counting (its window is over by then). No storage write per fetch.

/** Outbound requests per workspace per minute. A run of 50 posts needs about 55 to 75. */
export const FETCHES_PER_MINUTE = 300;
const WINDOW_MS = 60_000;

export type TakeFetchResult = { ok: true } | { ok: false; retryAfterSeconds: number };

export class FetchBudget {
  private windowStart = 0;
  private used = 0;

  constructor(private readonly limit = FETCHES_PER_MINUTE) {}

  take(now: number): TakeFetchResult {
    if (now - this.windowStart >= WINDOW_MS) {
      this.windowStart = now;
      this.used = 0;
    }
    if (this.used >= this.limit)
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((this.windowStart + WINDOW_MS - now) / 1000)) };
    this.used++;
    return { ok: true };
  }
}
