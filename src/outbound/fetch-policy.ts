// What a caller of the outbound fetcher decides (private addresses, identity, deadline, DNS check, a hook
// before each request), and the defaults when it does not.

export interface FetchPolicy {
  allowPrivate: boolean;
  userAgent?: string;
  timeoutMs?: number;
  /**
   * DNS-over-HTTPS endpoint (JSON API) used to check what a hostname resolves to before fetching it, when
   * private addresses are not allowed. Defaults to Cloudflare's resolver; `null` turns the lookup off
   * (literal addresses and local-style names are still refused).
   */
  dohUrl?: string | null;
  /**
   * Called before every request to the open web (robots.txt and each redirect hop included, DNS lookups
   * not): the caller's budget and sign of life. Whatever it throws ends the fetch as it is.
   */
  beforeRequest?: (url: URL) => Promise<void>;
}

export const USER_AGENT = "threadwatch/1.0 (blog-to-forum sync; +https://github.com/threadwatch/threadwatch)";
export const DEFAULT_TIMEOUT_MS = 15_000;
