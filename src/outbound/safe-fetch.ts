// Fetching the open web safely (docs/extraction.md, "Safe fetching"): http/https only, no credentials, no private or metadata
// addresses unless the policy allows them, at most 5 redirects each re-checked, size caps enforced while
// the body streams in, one deadline for the whole fetch, a descriptive User-Agent, robots.txt honoured.
import { messageOf } from "../lib/log";
import { ipv4ToAddress, ipv6ToAddress, refusedBlock } from "./special-addresses";

export type FetchErrorCode =
  | "bad_url"
  | "blocked_address"
  | "too_large"
  | "timeout"
  | "http_status"
  | "too_many_redirects"
  | "robots_disallowed"
  | "network"
  | "parse"
  | "not_a_blog";

export class FetchError extends Error {
  override readonly name = "FetchError";
  constructor(
    readonly code: FetchErrorCode,
    message: string,
    readonly status?: number,
    readonly url?: string,
  ) {
    super(message);
  }
}

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
/** The token robots.txt groups are matched against. */
export const ROBOTS_TOKEN = "threadwatch";
export const DEFAULT_TIMEOUT_MS = 15_000;
export const MAX_REDIRECTS = 5;
const DEFAULT_DOH = "https://cloudflare-dns.com/dns-query";

export type ResourceKind = "html" | "feed" | "sitemap" | "image" | "robots";

const MB = 1024 * 1024;
export const SIZE_LIMITS: Record<ResourceKind, number> = {
  html: 5 * MB,
  feed: 5 * MB,
  sitemap: 20 * MB,
  image: 20 * MB,
  robots: 512 * 1024,
};

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

export interface SafeFetchOptions {
  policy: FetchPolicy;
  kind: ResourceKind;
  /** Skip the robots.txt check (robots.txt itself, or a fetch the caller already checked). */
  skipRobots?: boolean;
  /** Accept these non-2xx statuses instead of throwing (robots.txt uses 4xx = no rules). */
  acceptStatus?: (status: number) => boolean;
  /** Keep the first bytes of a body over the kind's cap instead of failing (robots.txt: RFC 9309 2.5). */
  truncate?: boolean;
}

// ---------------------------------------------------------------------------------------------------------
// Addresses

function parseIPv4(host: string): number[] | null {
  const parts = host.split(".");
  if (parts.length !== 4) return null;
  const nums = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : NaN));
  return nums.every((n) => n >= 0 && n <= 255) ? nums : null;
}

/** Refused: the address falls in a block of the special-purpose table (special-addresses.ts). */
function isBlockedIPv4(quad: number[]): boolean {
  return refusedBlock(ipv4ToAddress(quad)) !== null;
}

/** Expands an IPv6 literal (without brackets) to eight 16-bit groups, or null. */
function parseIPv6(host: string): number[] | null {
  let text = host.toLowerCase();
  const v4 = text.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (v4?.[1]) {
    const quad = parseIPv4(v4[1]);
    if (!quad) return null;
    text =
      text.slice(0, -v4[1].length) +
      `${((quad[0]! << 8) | quad[1]!).toString(16)}:${((quad[2]! << 8) | quad[3]!).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  const nums = groups.map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN));
  return nums.every((n) => !Number.isNaN(n)) ? nums : null;
}

function isBlockedIPv6(groups: number[]): boolean {
  return refusedBlock(ipv6ToAddress(groups)) !== null;
}

/** True when `address` is a literal IP address that must not be fetched (loopback, private, metadata...). */
export function isBlockedAddress(address: string): boolean {
  const host = address.replace(/^\[|\]$/g, "");
  const v4 = parseIPv4(host);
  if (v4) return isBlockedIPv4(v4);
  const v6 = parseIPv6(host);
  return v6 ? isBlockedIPv6(v6) : false;
}

function isIpLiteral(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "");
  return parseIPv4(bare) !== null || parseIPv6(bare) !== null;
}

/** Names that only mean something inside a private network (or this machine). */
function isLocalName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  if (!name.includes(".")) return true; // single-label: resolved by the local search domain
  return /(^|\.)(localhost|local|internal|intranet|lan|home|corp|private|localdomain|home\.arpa)$/.test(name);
}

/**
 * Parses and checks a URL before any request: absolute http(s), no credentials, and (unless allowed) no
 * literal private address and no local-style hostname. Throws FetchError("bad_url" | "blocked_address").
 */
export function assertFetchableUrl(url: string, allowPrivate: boolean): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new FetchError("bad_url", `not a valid absolute URL: ${url}`, undefined, url);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    throw new FetchError("bad_url", `only http and https URLs are fetched, not ${parsed.protocol}`, undefined, url);
  if (parsed.username || parsed.password)
    throw new FetchError("bad_url", "URLs with credentials are not fetched", undefined, url);
  if (!allowPrivate) {
    const host = parsed.hostname;
    if (isIpLiteral(host) ? isBlockedAddress(host) : isLocalName(host))
      throw new FetchError(
        "blocked_address",
        `refusing to fetch a private, loopback or local address: ${host}`,
        undefined,
        url,
      );
  }
  return parsed;
}

interface DohAnswer {
  Status?: number;
  Answer?: { type: number; data: string }[];
}

const dnsCache = new Map<string, { blocked: string | null; expires: number }>();

/** Resolves A and AAAA through DNS-over-HTTPS; returns the first blocked address, or null when all are public. */
async function resolvesToBlocked(host: string, dohUrl: string, signal: AbortSignal): Promise<string | null> {
  const cached = dnsCache.get(host);
  if (cached && cached.expires > Date.now()) return cached.blocked;
  let blocked: string | null = null;
  for (const type of ["A", "AAAA"]) {
    const query = new URL(dohUrl);
    query.searchParams.set("name", host);
    query.searchParams.set("type", type);
    const res = await fetch(query, { headers: { accept: "application/dns-json" }, signal });
    if (!res.ok) throw new FetchError("network", `DNS lookup of ${host} failed (${res.status})`);
    const body = (await res.json()) as DohAnswer;
    for (const answer of body.Answer ?? []) {
      if ((answer.type === 1 || answer.type === 28) && isBlockedAddress(answer.data)) blocked ??= answer.data;
    }
  }
  if (dnsCache.size > 1000) dnsCache.clear();
  dnsCache.set(host, { blocked, expires: Date.now() + 60_000 });
  return blocked;
}

/** Refuses a hostname that resolves to a refused address (unless private fetches are allowed); webhooks use it too. */
export async function assertPublicHost(url: URL, policy: FetchPolicy, signal: AbortSignal): Promise<void> {
  if (policy.allowPrivate || isIpLiteral(url.hostname)) return;
  const dohUrl = policy.dohUrl === undefined ? DEFAULT_DOH : policy.dohUrl;
  if (!dohUrl) return;
  let blocked: string | null;
  try {
    blocked = await resolvesToBlocked(url.hostname, dohUrl, signal);
  } catch (err) {
    if (err instanceof FetchError) throw err;
    throw new FetchError("network", `DNS lookup of ${url.hostname} failed: ${messageOf(err)}`, undefined, url.href);
  }
  if (blocked)
    throw new FetchError(
      "blocked_address",
      `refusing to fetch ${url.hostname}: it resolves to ${blocked}`,
      undefined,
      url.href,
    );
}

// ---------------------------------------------------------------------------------------------------------
// Bodies

/** Reads a stream into memory, failing as soon as it passes `limit` bytes (or keeping those, with `truncate`). */
export async function readCapped(
  stream: ReadableStream<Uint8Array>,
  limit: number,
  what: string,
  truncate = false,
): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (total + value.byteLength > limit) {
        await reader.cancel().catch(() => {});
        if (!truncate) throw new FetchError("too_large", `${what} is larger than ${limit} bytes`);
        chunks.push(value.subarray(0, limit - total));
        total = limit;
        break;
      }
      total += value.byteLength;
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

export function isGzip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** Gunzips in the runtime's DecompressionStream; the decompressed size is capped too (gzip bombs). */
export async function gunzipCapped(bytes: Uint8Array, limit: number): Promise<Uint8Array> {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  try {
    return await readCapped(stream, limit, "decompressed body");
  } catch (err) {
    if (err instanceof FetchError) throw err;
    throw new FetchError("parse", `not valid gzip data: ${messageOf(err)}`);
  }
}

// ---------------------------------------------------------------------------------------------------------
// robots.txt (RFC 9309)

interface RobotsRule {
  allow: boolean;
  pattern: string;
}

export interface Robots {
  /** Rules of the group that applies to us. */
  rules: RobotsRule[];
  sitemaps: string[];
  /** Everything is disallowed (robots.txt answered 5xx: RFC 9309 says assume complete disallow). */
  disallowAll: boolean;
  /** Why everything is disallowed, for the error message. */
  reason?: string;
}

/** Parses robots.txt and keeps the group for `token` (else `*`), plus every `Sitemap:` line. */
export function parseRobots(text: string, token = ROBOTS_TOKEN): Robots {
  const groups: { agents: string[]; rules: RobotsRule[] }[] = [];
  const sitemaps: string[] = [];
  let current: { agents: string[]; rules: RobotsRule[] } | null = null;
  let lastWasAgent = false;
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const line = raw.replace(/#.*$/, "").trim();
    const match = line.match(/^([A-Za-z-]+)\s*:\s*(.*)$/);
    if (!match) continue;
    const key = match[1]!.toLowerCase();
    const value = match[2]!.trim();
    if (key === "user-agent") {
      if (!current || !lastWasAgent) {
        current = { agents: [], rules: [] };
        groups.push(current);
      }
      current.agents.push(value.toLowerCase());
      lastWasAgent = true;
      continue;
    }
    lastWasAgent = false;
    if (key === "sitemap") {
      if (value) sitemaps.push(value);
    } else if ((key === "allow" || key === "disallow") && current) {
      // An empty Disallow allows everything; it adds no rule.
      if (value) current.rules.push({ allow: key === "allow", pattern: value });
    }
  }
  // RFC 9309 2.2.1: a group is ours when a line's product token (its leading letters, '_' and '-', so
  // 'threadwatch/1.0' names us) equals ours, case-insensitively; a crawler named 'thread' is another one.
  const ours = groups.filter((g) => g.agents.some((a) => /^[a-z_-]*/.exec(a)![0] === token.toLowerCase()));
  const chosen = ours.length ? ours : groups.filter((g) => g.agents.includes("*"));
  return { rules: chosen.flatMap((g) => g.rules), sitemaps, disallowAll: false };
}

function patternMatches(pattern: string, path: string): number {
  // Longest-match semantics: returns the pattern length when it matches, -1 otherwise.
  const anchored = pattern.endsWith("$");
  const body = anchored ? pattern.slice(0, -1) : pattern;
  const regex = new RegExp(
    "^" +
      body
        .split("*")
        .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
        .join(".*") +
      (anchored ? "$" : ""),
  );
  return regex.test(path) ? pattern.length : -1;
}

/** Whether robots rules allow `url` (path and query); the longest matching rule wins, Allow on ties. */
export function robotsAllows(robots: Robots, url: URL): boolean {
  if (robots.disallowAll) return false;
  const path = decodeSafe(url.pathname) + url.search;
  let best = -1;
  let allowed = true;
  for (const rule of robots.rules) {
    const length = patternMatches(decodeSafe(rule.pattern), path);
    if (length > best || (length === best && rule.allow)) {
      best = length;
      allowed = rule.allow;
    }
  }
  return allowed;
}

/** `decodeURIComponent`, or the text as it is when it is not valid percent-encoding. */
export function decodeSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

const robotsCache = new Map<string, { robots: Robots; expires: number }>();
const ROBOTS_TTL_MS = 10 * 60_000;

/** robots.txt of `origin` (cached for ten minutes per isolate). 4xx means no rules; unreachable means none allowed. */
export async function getRobots(origin: string, policy: FetchPolicy): Promise<Robots> {
  const key = `${origin} ${policy.userAgent ?? USER_AGENT}`;
  const cached = robotsCache.get(key);
  if (cached && cached.expires > Date.now()) return cached.robots;
  let robots: Robots;
  try {
    const res = await safeFetch(`${origin}/robots.txt`, {
      policy,
      kind: "robots",
      skipRobots: true,
      acceptStatus: (s) => s >= 400 && s < 500,
      // RFC 9309 2.5: a longer file is parsed up to the limit (its cut last line left out), not ignored.
      truncate: true,
    });
    let text = new TextDecoder().decode(res.bytes);
    if (res.bytes.byteLength >= SIZE_LIMITS.robots) text = text.slice(0, text.lastIndexOf("\n") + 1);
    robots = res.status >= 400 ? { rules: [], sitemaps: [], disallowAll: false } : parseRobots(text);
  } catch (err) {
    if (!(err instanceof FetchError)) throw err;
    // A host that cannot be reached at all: that is the error to report (and nothing is cached).
    if (err.code !== "http_status" && err.code !== "too_many_redirects") throw err;
    // A server error means nothing may be fetched (RFC 9309).
    robots = {
      rules: [],
      sitemaps: [],
      disallowAll: true,
      // RFC 9309: a server error on robots.txt means "retry later", not "never": say so.
      reason: `${new URL(origin).host} answered its robots.txt with an error (${err.message}), which means "try again later"; nothing was fetched, and a later run retries`,
    };
  }
  if (robotsCache.size > 500) robotsCache.clear();
  // A server error is remembered only briefly, so a retry soon after can succeed.
  robotsCache.set(key, { robots, expires: Date.now() + (robots.disallowAll ? 60_000 : ROBOTS_TTL_MS) });
  return robots;
}

/**
 * The robots.txt of `target`'s host, fetched within what is left of the whole fetch's deadline (a later
 * hop's robots.txt must not get a deadline of its own). When the host cannot be reached for it (network
 * error, timeout), that is what happened to the address asked for: the error names that address, not
 * robots.txt's, and a timeout names the whole fetch's deadline.
 */
async function robotsFor(target: URL, policy: FetchPolicy, deadline: number, timeoutMs: number): Promise<Robots> {
  try {
    return await getRobots(target.origin, { ...policy, timeoutMs: Math.max(1, deadline - Date.now()) });
  } catch (err) {
    if (!(err instanceof FetchError) || (err.code !== "network" && err.code !== "timeout")) throw err;
    const what =
      err.code === "timeout"
        ? `no answer from ${target.host} within ${timeoutMs} ms`
        : err.message.replace(/^could not fetch \S+: /, "");
    throw new FetchError(err.code, `could not fetch ${target.href}: ${what}`, undefined, target.href);
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

// ---------------------------------------------------------------------------------------------------------
// The fetch

/**
 * Fetches `url` under the fetch policy of docs/extraction.md. Redirects are followed by hand (each target re-checked, robots
 * included), the body is read with the size cap of `kind`, and one deadline covers the whole exchange.
 * Non-2xx answers throw FetchError("http_status") unless `acceptStatus` takes them.
 */
export async function safeFetch(url: string, options: SafeFetchOptions): Promise<FetchedResource> {
  const { policy, kind } = options;
  const timeoutMs = policy.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let current = url;
  try {
    for (let hop = 0; ; hop++) {
      const target = assertFetchableUrl(current, policy.allowPrivate);
      await assertPublicHost(target, policy, controller.signal);
      if (!options.skipRobots) {
        const robots = await robotsFor(target, policy, deadline, timeoutMs);
        if (!robotsAllows(robots, target))
          throw new FetchError(
            "robots_disallowed",
            robots.reason
              ? `could not fetch ${target.href}: ${robots.reason}`
              : `robots.txt of ${target.host} disallows ${target.pathname}`,
            undefined,
            target.href,
          );
      }
      await policy.beforeRequest?.(target);
      let res: Response;
      try {
        res = await fetch(target.href, {
          redirect: "manual",
          signal: controller.signal,
          headers: { "user-agent": policy.userAgent ?? USER_AGENT, accept: ACCEPT[kind] },
        });
      } catch (err) {
        if (controller.signal.aborted)
          throw new FetchError(
            "timeout",
            `no answer from ${target.host} within ${timeoutMs} ms`,
            undefined,
            target.href,
          );
        throw new FetchError(
          "network",
          `could not fetch ${target.href}: ${networkFailure(err)}`,
          undefined,
          target.href,
        );
      }
      if (res.status >= 300 && res.status < 400 && res.headers.has("location")) {
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
          current = new URL(location, target).href;
        } catch {
          throw new FetchError(
            "bad_url",
            `${target.href} redirects to ${location}, which is not a valid URL`,
            res.status,
            target.href,
          );
        }
        continue;
      }
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
        if (controller.signal.aborted)
          throw new FetchError(
            "timeout",
            `${target.href} did not finish within ${timeoutMs} ms`,
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
  } finally {
    clearTimeout(timer);
  }
}
