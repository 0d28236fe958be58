// robots.txt (RFC 9309): parsed for our group, matched longest-rule-first, fetched once per origin and
// cached, and checked before every hop of a fetch within that fetch's deadline.
import { decodeSafe } from "../lib/percent-decoding";
import { SIZE_LIMITS } from "./capped-body";
import { FetchError } from "./fetch-error";
import { type FetchPolicy, USER_AGENT } from "./fetch-policy";
import { fetchResource } from "./fetch-resource";

/** The token robots.txt groups are matched against. */
export const ROBOTS_TOKEN = "threadwatch";

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

const robotsCache = new Map<string, { robots: Robots; expires: number }>();
const ROBOTS_TTL_MS = 10 * 60_000;

/** robots.txt of `origin` (cached for ten minutes per isolate). 4xx means no rules; unreachable means none allowed. */
export async function getRobots(origin: string, policy: FetchPolicy): Promise<Robots> {
  const key = `${origin} ${policy.userAgent ?? USER_AGENT}`;
  const cached = robotsCache.get(key);
  if (cached && cached.expires > Date.now()) return cached.robots;
  let robots: Robots;
  try {
    const res = await fetchResource(`${origin}/robots.txt`, {
      policy,
      kind: "robots",
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
 * Refuses `target` when its host's robots.txt disallows it. That robots.txt is fetched within what is left
 * of the whole fetch's deadline (a later hop's robots.txt must not get a deadline of its own). When the
 * host cannot be reached for it (network error, timeout), that is what happened to the address asked for:
 * the error names that address, not robots.txt's, and a timeout names the whole fetch's deadline.
 */
export async function assertRobotsAllow(
  target: URL,
  policy: FetchPolicy,
  deadline: number,
  timeoutMs: number,
): Promise<void> {
  let robots: Robots;
  try {
    robots = await getRobots(target.origin, { ...policy, timeoutMs: Math.max(1, deadline - Date.now()) });
  } catch (err) {
    if (!(err instanceof FetchError) || (err.code !== "network" && err.code !== "timeout")) throw err;
    const what =
      err.code === "timeout"
        ? `no answer from ${target.host} within ${timeoutMs} ms`
        : err.message.replace(/^could not fetch \S+: /, "");
    throw new FetchError(err.code, `could not fetch ${target.href}: ${what}`, undefined, target.href);
  }
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
