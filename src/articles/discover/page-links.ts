// What an HTML page says about a blog's posts: its advertised feeds (`<link rel="alternate">`), its next
// page, and the post links it lists. The head is scanned with HTMLRewriter (a few selected elements, which
// is what it is good at); post links need the document's structure (is this link a headline inside an
// article, or a tag link in a sidebar?), so they are read from the parsed tree.
import { tryCanonicalize } from "../canonical-url";
import { decodeEntities } from "../extract/entities";
import { descendants, type ElementNode, innerText } from "../extract/html-tree";
import { toIsoDate } from "../extract/metadata";
import { parseHtml } from "../extract/parse-html";
import type { DiscoveredPost } from "../types";
import { dateFromUrl, looksLikePost } from "./post-urls";

export interface PageLinks {
  feeds: string[];
  next: string | null;
  base: string;
}

const FEED_TYPES = /application\/(rss|atom|rdf|feed)\+(xml|json)|application\/json|text\/xml|application\/xml/i;

/** Advertised feeds, `rel=next` and `<base>` of a page, read with HTMLRewriter. */
export async function scanHead(html: string, pageUrl: string): Promise<PageLinks> {
  const found: PageLinks = { feeds: [], next: null, base: pageUrl };
  const rawFeeds: string[] = [];
  let rawNext: string | null = null;
  let rawBase: string | null = null;
  const rewriter = new HTMLRewriter()
    .on("link[rel][href]", {
      element(el) {
        const rel = ` ${(el.getAttribute("rel") ?? "").toLowerCase()} `;
        const href = el.getAttribute("href")!;
        if (
          rel.includes(" alternate ") &&
          FEED_TYPES.test(el.getAttribute("type") ?? "") &&
          !/comments/i.test(`${el.getAttribute("title") ?? ""} ${href}`)
        )
          rawFeeds.push(href);
        if (rel.includes(" next ")) rawNext ??= href;
      },
    })
    .on("a[rel~='next'][href]", {
      element(el) {
        rawNext ??= el.getAttribute("href");
      },
    })
    .on("base[href]", {
      element(el) {
        rawBase ??= el.getAttribute("href");
      },
    });
  await rewriter
    .transform(new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } }))
    .arrayBuffer();
  // HTMLRewriter hands attribute values over as written, character references included.
  const resolve = (href: string, base: string) => {
    try {
      return new URL(decodeEntities(href, true), base).href;
    } catch {
      return null;
    }
  };
  if (rawBase) found.base = resolve(rawBase, pageUrl) ?? pageUrl;
  for (const href of rawFeeds) {
    const url = resolve(href, found.base);
    if (url && /^https?:/.test(url) && !found.feeds.includes(url)) found.feeds.push(url);
  }
  found.next = rawNext ? resolve(rawNext, found.base) : null;
  return found;
}

const NAVIGATION = new Set(["nav", "footer", "aside", "header"]);
const NAV_CLASS =
  /(^|[\s_-])(nav|navbar|menu|sidebar|widget|footer|breadcrumbs?|related|share|social|tags?|categor(y|ies)|comments?|pager|pagination)([\s_-]|$)/i;
const POST_CONTAINER = /(^|[\s_-])(post|entry|article|hentry|h-entry|story|teaser|card|item)([\s_-]|$)/i;
const PAGER_TEXT =
  /^(older|next|previous|earlier|more)\b.*|^(»|›|→|>>|next\s*»)$|^(older posts|older entries|next page|load more)$/i;

interface Candidate {
  url: string;
  title: string | null;
  score: number;
  order: number;
  date: string | null;
  shape: string;
}

function context(a: ElementNode): { inHeading: boolean; inPost: boolean; inNav: boolean; date: string | null } {
  let inHeading = false;
  let inPost = false;
  let inNav = false;
  let date: string | null = null;
  for (let el = a.parent; el; el = el.parent) {
    if (/^h[1-4]$/.test(el.tag)) inHeading = true;
    if (el.tag === "article" || POST_CONTAINER.test(el.attrs.class ?? "")) {
      inPost = true;
      // A <time> in the same post teaser dates the link.
      if (!date) {
        const time = descendants(el).find((d) => d.tag === "time");
        date = toIsoDate(time?.attrs.datetime ?? (time ? innerText(time) : null));
      }
    }
    if (
      NAVIGATION.has(el.tag) ||
      el.attrs.role === "navigation" ||
      NAV_CLASS.test(`${el.attrs.class ?? ""} ${el.attrs.id ?? ""}`)
    )
      inNav = true;
  }
  return { inHeading, inPost, inNav, date };
}

/** The shape of a path: how many segments, digits generalized ("/posts/2024/05/slug.html" → "posts/N/N/*.html"). */
function shapeOf(url: string): string {
  const segments = new URL(url).pathname.split("/").filter(Boolean);
  return segments
    .map((s, i) => (i === segments.length - 1 ? `*${s.match(/\.[a-z]+$/i)?.[0] ?? ""}` : /^\d+$/.test(s) ? "N" : s))
    .join("/");
}

export interface IndexPage {
  posts: DiscoveredPost[];
  next: string | null;
  /** The links share one URL shape and several sit in headings or post containers: a real post list. */
  isIndex: boolean;
}

/** Post links listed on a page (document order, which on an index is newest first) and its next page. */
export function readIndexPage(html: string, pageUrl: string, head: PageLinks): IndexPage {
  const { root } = parseHtml(html);
  const host = new URL(pageUrl).host;
  const self = tryCanonicalize(pageUrl);
  const candidates = new Map<string, Candidate>();
  let order = 0;
  let pagerNext: string | null = null;
  for (const a of descendants(root)) {
    if (a.tag !== "a" || !a.attrs.href) continue;
    const url = tryCanonicalize(a.attrs.href, head.base);
    const text = innerText(a);
    if (!url) continue;
    const sameHost = new URL(url).host === host;
    if (!pagerNext && sameHost && PAGER_TEXT.test(text)) pagerNext = url;
    if (!sameHost || !looksLikePost(url, pageUrl)) continue;
    if (url === self) continue;
    const where = context(a);
    const score =
      (where.inHeading ? 3 : 0) +
      (where.inPost ? 2 : 0) +
      (where.inNav ? -4 : 0) +
      (text.length >= 15 ? 1 : 0) +
      (dateFromUrl(url) ? 1 : 0);
    const existing = candidates.get(url);
    if (existing) {
      existing.score = Math.max(existing.score, score);
      if (where.inHeading || (!existing.title && text)) existing.title = text || existing.title;
      existing.date ??= where.date;
      continue;
    }
    candidates.set(url, {
      url,
      title: text || a.attrs.title || null,
      score,
      order: order++,
      date: where.date,
      shape: shapeOf(url),
    });
  }
  // The post list is the URL shape most of the strong links share.
  const strong = [...candidates.values()].filter((c) => c.score >= 3);
  const shapes = new Map<string, number>();
  for (const c of strong) shapes.set(c.shape, (shapes.get(c.shape) ?? 0) + 1);
  const [bestShape, bestCount = 0] = [...shapes.entries()].sort((a, b) => b[1] - a[1])[0] ?? [];
  const chosen = [...candidates.values()].filter((c) =>
    bestShape ? c.shape === bestShape && c.score >= 1 : c.score >= 2,
  );
  chosen.sort((a, b) => a.order - b.order);
  return {
    posts: chosen.map((c) => ({ url: c.url, title: c.title, publishedAt: c.date ?? dateFromUrl(c.url) })),
    next: head.next ?? pagerNext,
    isIndex: bestCount >= 3,
  };
}
