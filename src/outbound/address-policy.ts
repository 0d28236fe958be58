// Which addresses may be fetched (docs/security.md, "Fetching the open web"): absolute http(s) without
// credentials, and unless the policy allows private fetches, no literal address of the special-purpose table
// (special-addresses.ts), no local-style name, and no name that resolves to a refused address.
import { messageOf } from "../lib/log";
import { FetchError } from "./fetch-error";
import type { FetchPolicy } from "./fetch-policy";
import { ipv4ToAddress, ipv6ToAddress, refusedBlock } from "./special-addresses";

const DEFAULT_DOH = "https://cloudflare-dns.com/dns-query";

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

/** A private, loopback or local-style host (a literal of the special-purpose table, or a name like `localhost`). */
export const isPrivateHost = (host: string): boolean =>
  isIpLiteral(host) ? isBlockedAddress(host) : isLocalName(host);

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
