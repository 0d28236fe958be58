// Which URLs of a site are posts. Sitemaps and index pages list much more than posts: tag, category and
// author pages, paging, archives by date, feeds, files. A post URL is one with a slug that none of those is.
import { decodeSafe } from "../../lib/percent-decoding";

const NON_POST_SEGMENT =
  /^(tags?|category|categories|topics?|labels?|authors?|author|users?|profile|people|team|page|pages|archives?|search|feed|feeds|rss|atom|comments?|wp-json|wp-admin|wp-content|wp-includes|cdn-cgi|login|signup|register|cart|checkout|account|about|about-us|contact|privacy|privacy-policy|terms|legal|imprint|impressum|newsletter|subscribe|sitemap|static|assets|media|uploads|files|images|img|css|js|amp)$/i;
const FILE_EXTENSION =
  /\.(xml|rss|atom|json|txt|pdf|zip|gz|png|jpe?g|gif|webp|svg|ico|css|js|mp3|mp4|webm|woff2?|csv)$/i;
const PAGING = /^(index|page)[-_]?\d+(\.html?)?$|^\d+$/i;

/** Whether `url` looks like a post (not a listing, taxonomy, date archive, paging or file URL). */
export function looksLikePost(url: string, blogRoot?: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (/[?&](p|page|paged|cat|tag|s|author)=/.test(parsed.search) && !/[?&]p=\d+/.test(parsed.search)) return false;
  const segments = parsed.pathname
    .split("/")
    .filter(Boolean)
    .map((s) => decodeSafe(s));
  if (!segments.length) return /[?&]p=\d+/.test(parsed.search); // WordPress ?p=123 permalinks
  if (blogRoot) {
    const root = new URL(blogRoot);
    if (parsed.pathname.replace(/\/$/, "") === root.pathname.replace(/\/$/, "")) return false;
  }
  if (segments.some((s) => NON_POST_SEGMENT.test(s.replace(/\.html?$/i, "")))) return false;
  const last = segments[segments.length - 1]!;
  if (FILE_EXTENSION.test(last)) return false;
  if (PAGING.test(last)) return false;
  // Date archives: /2024/, /2024/05/, /2024/05/17/.
  if (segments.every((s) => /^\d{1,4}$/.test(s))) return false;
  if (/^index\.(html?|php)$/i.test(last)) return false;
  return true;
}

/** A date written in the URL (/2024/05/17/slug, /2024/05/slug, /2024-05-17-slug), as an ISO string. */
export function dateFromUrl(url: string): string | null {
  const path = new URL(url).pathname;
  const match = path.match(/\/((?:19|20)\d{2})[/-](0[1-9]|1[0-2])(?:[/-](0[1-9]|[12]\d|3[01]))?(?=[/-])/);
  if (!match) return null;
  return `${match[1]}-${match[2]}-${match[3] ?? "01"}T00:00:00.000Z`;
}
