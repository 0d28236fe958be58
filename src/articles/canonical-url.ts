// One spelling per post URL, so the same post found through a feed, a sitemap and an index page is one post.

/** Query parameters that only track how a reader arrived; they never select content. */
const TRACKING_PARAMS = new Set([
  "fbclid",
  "gclid",
  "dclid",
  "gbraid",
  "wbraid",
  "msclkid",
  "yclid",
  "twclid",
  "igshid",
  "mc_cid",
  "mc_eid",
  "_hsenc",
  "_hsmi",
  "mkt_tok",
  "ref_src",
  "ref_url",
  "spm",
  "si",
  "share",
  "amp",
  "ncid",
  "cmpid",
  "__s",
  "vero_id",
  "oly_anon_id",
  "oly_enc_id",
  "rb_clickid",
  "s_cid",
  "sr_share",
  "wt_mc",
  "_ga",
  "_gl",
]);
const TRACKING_PREFIXES = ["utm_", "pk_", "mtm_", "hsa_", "__hs", "ga_"];

function isTracking(name: string): boolean {
  const lower = name.toLowerCase();
  return TRACKING_PARAMS.has(lower) || TRACKING_PREFIXES.some((p) => lower.startsWith(p));
}

/**
 * Canonical form of a URL: lower-case scheme and host, default port dropped, fragment and tracking
 * parameters dropped, remaining parameters sorted, empty query removed, `/index.html`-style endings and
 * duplicate slashes left as the site wrote them (they may be different resources), a bare host gets `/`.
 * Throws on anything that is not an absolute http(s) URL.
 */
export function canonicalizeUrl(url: string): string {
  const parsed = new URL(url.trim());
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new TypeError(`not an http(s) URL: ${url}`);
  parsed.hash = "";
  parsed.username = "";
  parsed.password = "";
  const kept = [...parsed.searchParams].filter(([name]) => !isTracking(name));
  kept.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  parsed.search = kept.length ? new URLSearchParams(kept).toString() : "";
  return parsed.toString();
}

/** `canonicalizeUrl`, or null for anything that is not an absolute http(s) URL (relative ones resolved first). */
export function tryCanonicalize(url: string, base?: string): string | null {
  try {
    return canonicalizeUrl(base ? new URL(url.trim(), base).toString() : url);
  } catch {
    return null;
  }
}
