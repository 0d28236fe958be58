// One fetch of the open web: redirects followed by hand with each target re-checked, one deadline for the
// whole exchange, a descriptive User-Agent and the Accept of the kind asked for, and the body read under
// that kind's size cap. robots.txt is the caller's step between the checks of a hop and its request
// (safe-fetch.ts), since fetching robots.txt is itself a fetch of this kind.
import { messageOf } from "../lib/log";
import { assertFetchableUrl, assertPublicHost } from "./address-policy";
import { type ResourceKind, readCapped, SIZE_LIMITS } from "./capped-body";
import { FetchError } from "./fetch-error";
import { DEFAULT_TIMEOUT_MS, type FetchPolicy, USER_AGENT } from "./fetch-policy";

export const MAX_REDIRECTS = 5;

const ACCEPT: Record<ResourceKind, string> = {
  html: "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5",
  feed: "application/rss+xml,application/atom+xml,application/feed+json,application/xml;q=0.9,text/xml;q=0.9,*/*;q=0.5",
  sitemap: "application/xml,text/xml;q=0.9,text/plain;q=0.8,*/*;q=0.5",
  image: "image/avif,image/webp,image/png,image/jpeg,image/gif,image/*;q=0.8",
  robots: "text/plain,*/*;q=0.5",
};

export interface FetchedResource {
  /** The URL that answered, after redirects. */
  url: string;
  status: number;
  headers: Headers;
  contentType: string;
  bytes: Uint8Array;
}

export interface FetchResourceOptions {
  policy: FetchPolicy;
  kind: ResourceKind;
  /** Accept these non-2xx statuses instead of throwing (robots.txt uses 4xx = no rules). */
  acceptStatus?: (status: number) => boolean;
  /** Keep the first bytes of a body over the kind's cap instead of failing (robots.txt: RFC 9309 2.5). */
  truncate?: boolean;
}

/** A check of each hop's target after its address checks, told the whole fetch's deadline and length. */
export type HopCheck = (target: URL, deadline: number, timeoutMs: number) => Promise<void>;

/** The abort signal of the whole fetch and the length of its deadline, for the error messages. */
interface Exchange {
  signal: AbortSignal;
  timeoutMs: number;
}

/**
 * Fetches `url`, following at most MAX_REDIRECTS redirects. Every hop's target passes the address policy,
 * then `checkHop`, then the policy's `beforeRequest`, before its request. Non-2xx answers throw
 * FetchError("http_status") unless `acceptStatus` takes them.
 */
export async function fetchResource(
  url: string,
  options: FetchResourceOptions,
  checkHop?: HopCheck,
): Promise<FetchedResource> {
  const { policy } = options;
  const timeoutMs = policy.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const exchange: Exchange = { signal: controller.signal, timeoutMs };
  let current = url;
  try {
    for (let hop = 0; ; hop++) {
      const target = assertFetchableUrl(current, policy.allowPrivate);
      await assertPublicHost(target, policy, controller.signal);
      await checkHop?.(target, deadline, timeoutMs);
      await policy.beforeRequest?.(target);
      const res = await request(target, options, exchange);
      const next = await redirectTarget(res, target, hop, url);
      if (next === null) return await readResource(res, target, options, exchange);
      current = next;
    }
  } finally {
    clearTimeout(timer);
  }
}

/** One request, redirects not followed; a failure to get an answer says why in words. */
async function request(target: URL, options: FetchResourceOptions, exchange: Exchange): Promise<Response> {
  try {
    return await fetch(target.href, {
      redirect: "manual",
      signal: exchange.signal,
      headers: { "user-agent": options.policy.userAgent ?? USER_AGENT, accept: ACCEPT[options.kind] },
    });
  } catch (err) {
    if (exchange.signal.aborted)
      throw new FetchError(
        "timeout",
        `no answer from ${target.host} within ${exchange.timeoutMs} ms`,
        undefined,
        target.href,
      );
    throw new FetchError("network", `could not fetch ${target.href}: ${networkFailure(err)}`, undefined, target.href);
  }
}

/** What a failed connection means, in words: the runtime's own messages are terse or opaque. */
function networkFailure(err: unknown): string {
  const message = messageOf(err);
  if (/refused/i.test(message)) return "connection refused (nothing answers at that host and port)";
  if (/ENOTFOUND|getaddrinfo|dns|resolv|name not known/i.test(message))
    return "the host name could not be resolved (DNS lookup failed; check the address)";
  if (/internal error|connection lost|network connection|disconnected|reset/i.test(message))
    return `the connection failed (the host refused or dropped it, or cannot be reached): ${message}`;
  return message;
}

/** Where a redirect answer leads (its body dropped), or null when `res` is no redirect. */
async function redirectTarget(res: Response, target: URL, hop: number, url: string): Promise<string | null> {
  if (!(res.status >= 300 && res.status < 400 && res.headers.has("location"))) return null;
  await res.body?.cancel();
  if (hop >= MAX_REDIRECTS)
    throw new FetchError(
      "too_many_redirects",
      `more than ${MAX_REDIRECTS} redirects from ${url}`,
      res.status,
      target.href,
    );
  const location = res.headers.get("location")!;
  try {
    return new URL(location, target).href;
  } catch {
    throw new FetchError(
      "bad_url",
      `${target.href} redirects to ${location}, which is not a valid URL`,
      res.status,
      target.href,
    );
  }
}

/** The final answer: its status accepted, its body read under the kind's cap before the deadline. */
async function readResource(
  res: Response,
  target: URL,
  options: FetchResourceOptions,
  exchange: Exchange,
): Promise<FetchedResource> {
  const { kind } = options;
  if (!res.ok && !options.acceptStatus?.(res.status)) {
    await res.body?.cancel();
    throw new FetchError("http_status", `${target.href} answered HTTP ${res.status}`, res.status, target.href);
  }
  const limit = SIZE_LIMITS[kind];
  const declared = Number(res.headers.get("content-length"));
  if (!options.truncate && Number.isFinite(declared) && declared > limit) {
    await res.body?.cancel();
    throw new FetchError(
      "too_large",
      `${target.href} is ${declared} bytes, over the ${kind} limit of ${limit}`,
      res.status,
      target.href,
    );
  }
  let bytes: Uint8Array;
  try {
    bytes = res.body ? await readCapped(res.body, limit, target.href, options.truncate) : new Uint8Array();
  } catch (err) {
    if (err instanceof FetchError)
      throw new FetchError(
        err.code,
        `${target.href} is over the ${kind} limit of ${limit} bytes`,
        res.status,
        target.href,
      );
    if (exchange.signal.aborted)
      throw new FetchError(
        "timeout",
        `${target.href} did not finish within ${exchange.timeoutMs} ms`,
        undefined,
        target.href,
      );
    throw new FetchError("network", `reading ${target.href} failed: ${messageOf(err)}`, undefined, target.href);
  }
  return {
    url: target.href,
    status: res.status,
    headers: res.headers,
    contentType: res.headers.get("content-type") ?? "",
    bytes,
  };
}
