// From any blog address to its posts, newest first. The address may be a feed, a sitemap (index, gzip,
// text), a blog index page or a landing page. For a page, in order: the feeds it advertises, the post list
// it shows (following its pagination), the usual feed paths, the sitemaps robots.txt names and the usual
// sitemap paths, and last whatever post links the page has. Every fetch goes through the safe fetcher and
// counts against the page budget; URLs read from sitemaps count against the URL budget.
import { messageOf } from "../../lib/log";
import { gunzipCapped, isGzip, type ResourceKind, SIZE_LIMITS } from "../../outbound/capped-body";
import { FetchError } from "../../outbound/fetch-error";
import type { FetchedResource } from "../../outbound/fetch-resource";
import { getRobots } from "../../outbound/robots";
import { safeFetch } from "../../outbound/safe-fetch";
import { canonicalizeUrl, tryCanonicalize } from "../canonical-url";
import { decodeDocument } from "../extract/charset";
import { isWebPage } from "../extract/web-page";
import type { ArticleErrorCode, DiscoveredPost, Discovery, FetchPolicy, SourceKind } from "../types";
import { parseFeed } from "./feeds";
import { readIndexPage, scanHead } from "./page-links";
import { dateFromUrl, looksLikePost } from "./post-urls";
import { parseSitemap, type SitemapEntry } from "./sitemaps";

export interface DiscoverOptions {
  policy: FetchPolicy;
  /** Posts to return (newest first); default 20. */
  maxPosts?: number;
  /** Fetches allowed for the whole discovery; default 20. */
  pageBudget?: number;
  /** Sitemap URLs read at most; default 10,000. */
  urlBudget?: number;
  /** Sources to try on an HTML page, in this order; default all (feed, index, sitemap, landing). */
  sources?: SourceKind[];
}

type DocKind = "feed" | "sitemap" | "html";

interface Doc {
  kind: DocKind;
  url: string;
  text: string;
  contentType: string;
}

class BudgetExhausted extends Error {}

/** Guesses what a fetched document is from its bytes (servers often label feeds and sitemaps text/html). */
function classify(text: string, contentType: string): DocKind {
  const head = text
    .slice(0, 4096)
    .replace(/^\uFEFF/, "")
    .replace(/<\?xml[^>]*>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>/gi, "")
    .trimStart();
  if (head.startsWith("{")) return /jsonfeed\.org/.test(text.slice(0, 2000)) ? "feed" : "html";
  const root = head.match(/^<(?:[\w-]+:)?([\w-]+)/)?.[1]?.toLowerCase();
  if (root === "rss" || root === "rdf" || root === "feed" || root === "channel") return "feed";
  if (root === "urlset" || root === "sitemapindex") return "sitemap";
  if (!head.startsWith("<") && /^https?:\/\/\S+\s*$/m.test(head) && !/html/i.test(contentType)) return "sitemap";
  return "html";
}

function byDateDesc(posts: DiscoveredPost[]): DiscoveredPost[] {
  // Stable: posts without a date keep their place relative to each other, after dated ones of equal rank.
  return posts
    .map((post, index) => ({ post, index, time: post.publishedAt ? Date.parse(post.publishedAt) : NaN }))
    .sort((a, b) => {
      const ta = Number.isNaN(a.time) ? -Infinity : a.time;
      const tb = Number.isNaN(b.time) ? -Infinity : b.time;
      return tb - ta || a.index - b.index;
    })
    .map((x) => x.post);
}

function dedupe(posts: DiscoveredPost[]): DiscoveredPost[] {
  const seen = new Map<string, DiscoveredPost>();
  for (const post of posts) {
    const existing = seen.get(post.url);
    if (!existing) seen.set(post.url, { ...post });
    else {
      existing.title ??= post.title;
      existing.publishedAt ??= post.publishedAt;
    }
  }
  return [...seen.values()];
}

class Discoverer {
  private fetches = 0;
  readonly warnings: string[] = [];
  private readonly maxPosts: number;
  private readonly pageBudget: number;
  private readonly urlBudget: number;

  constructor(private readonly options: DiscoverOptions) {
    this.maxPosts = Math.max(1, options.maxPosts ?? 20);
    this.pageBudget = Math.max(1, options.pageBudget ?? 20);
    this.urlBudget = Math.max(1, options.urlBudget ?? 10_000);
  }

  private async fetchDoc(url: string, kind: ResourceKind): Promise<Doc> {
    if (this.fetches >= this.pageBudget) throw new BudgetExhausted(`page budget of ${this.pageBudget} fetches reached`);
    this.fetches++;
    const res: FetchedResource = await safeFetch(url, { policy: this.options.policy, kind });
    let bytes = res.bytes;
    // .xml.gz sitemaps arrive as application/gzip bodies (a Content-Encoding gzip is undone by fetch itself).
    if (isGzip(bytes)) bytes = await gunzipCapped(bytes, SIZE_LIMITS.sitemap);
    const { text } = decodeDocument(bytes, res.contentType);
    const docKind = classify(text, res.contentType);
    // The cap was the guess's (an address ending in .xml reads as a sitemap's, 20 MB); the document is held to
    // its own kind's (a feed or a page: 5 MB).
    if (bytes.byteLength > SIZE_LIMITS[docKind])
      throw new FetchError(
        "too_large",
        `${res.url} is a ${docKind === "html" ? "page" : docKind} of ${bytes.byteLength} bytes, over the ${docKind} limit of ${SIZE_LIMITS[docKind]}`,
        res.status,
        res.url,
      );
    return { kind: docKind, url: res.url, text, contentType: res.contentType };
  }

  /** A fetch that may fail without failing discovery (probes of usual paths, secondary documents). */
  private async tryFetch(url: string, kind: ResourceKind): Promise<Doc | null> {
    try {
      return await this.fetchDoc(url, kind);
    } catch (err) {
      if (err instanceof BudgetExhausted) throw err;
      if (err instanceof FetchError && err.code === "http_status" && err.status === 404) return null;
      this.warnings.push(`${url}: ${messageOf(err)}`);
      return null;
    }
  }

  private finish(sourceKind: SourceKind, sourceUrl: string, posts: DiscoveredPost[]): Discovery {
    return { sourceKind, sourceUrl, posts: posts.slice(0, this.maxPosts), warnings: this.warnings };
  }

  async run(blogUrl: string): Promise<Discovery> {
    const start = canonicalizeStart(blogUrl);
    const kind: ResourceKind = /sitemap|\.xml(\.gz)?$|\.gz$|\.txt$/i.test(new URL(start).pathname) ? "sitemap" : "html";
    const doc = await this.fetchDoc(start, kind);
    // The page budget never ends discovery from here: a sitemap walk checks it before each fetch, and
    // fromPage stops at it with the sources it has tried.
    if (doc.kind === "feed") return this.finish("feed", doc.url, this.feedPosts(doc));
    if (doc.kind === "sitemap") return this.finish("sitemap", doc.url, await this.sitemapPosts(doc, null));
    // Neither a feed, a sitemap nor a web page (an image, a JSON or text file): not a blog address. The
    // site's other sources are not tried, so a wrong address fails instead of syncing something else.
    if (!isWebPage(doc.contentType, doc.text))
      throw new FetchError<ArticleErrorCode>("not_a_blog", notABlog(doc), undefined, doc.url);
    return this.fromPage(doc);
  }

  private feedPosts(doc: Doc): DiscoveredPost[] {
    const feed = parseFeed(doc.text, doc.url);
    this.warnings.push(...feed.warnings);
    return byDateDesc(dedupe(feed.posts));
  }

  private async fromPage(page: Doc): Promise<Discovery> {
    const head = await scanHead(page.text, page.url);
    const sources = this.options.sources ?? ["feed", "index", "sitemap", "landing"];
    let index: Awaited<ReturnType<typeof readIndexPage>> | null = null;
    const readIndex = () => (index ??= readIndexPage(page.text, page.url, head));
    const origin = new URL(page.url).origin;
    // A single article (a post's own address) is not a blog: the site's feed or sitemap is used only when the
    // page links it, and said so; otherwise the article is the one post.
    const article = looksLikePost(page.url) && declaresArticle(page.text) && !readIndex().isIndex;
    for (const source of sources) {
      try {
        if (source === "feed") {
          const found = await this.advertisedOrUsualFeed(head.feeds, page.url, !article);
          if (found) {
            if (article)
              this.warnings.push(
                `${page.url} is a single article, not a blog index; syncing the feed it links, ${found.url}`,
              );
            else if (!head.feeds.length)
              this.warnings.push(`${page.url} links no feed; using the feed found at ${found.url}`);
            return this.finish("feed", found.url, found.posts);
          }
        } else if (source === "index") {
          const first = readIndex();
          if (first.isIndex) return this.finish("index", page.url, await this.followPagination(first, page.url));
        } else if (source === "sitemap") {
          if (article) continue;
          const found = await this.discoveredSitemap(origin, page.url);
          if (found) {
            this.warnings.push(`${page.url} links no feed or post list; using the site's sitemap ${found.url}`);
            return this.finish("sitemap", found.url, found.posts);
          }
        } else if (source === "landing") {
          const links = article ? [] : readIndex().posts;
          if (links.length) return this.finish("landing", page.url, links);
          // A page that is itself an article is the one post of its landing page.
          if (looksLikePost(page.url))
            return this.finish("landing", page.url, [
              { url: canonicalizeUrl(page.url), title: null, publishedAt: dateFromUrl(page.url) },
            ]);
        }
      } catch (err) {
        if (err instanceof BudgetExhausted) {
          this.warnings.push(err.message);
          break;
        }
        throw err;
      }
    }
    this.warnings.push(`no posts found at ${page.url}: no feed, post list or sitemap`);
    return this.finish("landing", page.url, []);
  }

  private async advertisedOrUsualFeed(
    advertised: string[],
    pageUrl: string,
    probeUsualPaths: boolean,
  ): Promise<{ url: string; posts: DiscoveredPost[] } | null> {
    const tryFeeds = async (urls: string[]) => {
      for (const url of urls) {
        const doc = await this.tryFetch(url, "feed");
        if (doc?.kind !== "feed") continue;
        try {
          const posts = this.feedPosts(doc);
          if (posts.length) return { url: doc.url, posts };
          this.warnings.push(`${doc.url}: feed has no items`);
        } catch (err) {
          this.warnings.push(`${doc.url}: ${messageOf(err)}`);
        }
      }
      return null;
    };
    const found = await tryFeeds(advertised.slice(0, 3));
    if (found || advertised.length || !probeUsualPaths) return found;
    const dir = new URL(".", pageUrl).href;
    const origin = `${new URL(pageUrl).origin}/`;
    const usual = ["feed", "rss.xml", "atom.xml", "feed.xml", "index.xml"];
    const candidates = [...new Set([...usual.map((p) => dir + p), ...usual.map((p) => origin + p)])];
    return tryFeeds(candidates);
  }

  private async followPagination(first: ReturnType<typeof readIndexPage>, pageUrl: string): Promise<DiscoveredPost[]> {
    let posts = dedupe(first.posts);
    let next = first.next;
    const visited = new Set([tryCanonicalize(pageUrl)]);
    while (next && posts.length < this.maxPosts) {
      const key = tryCanonicalize(next);
      if (!key || visited.has(key)) break;
      visited.add(key);
      if (this.fetches >= this.pageBudget) {
        this.warnings.push(`page budget of ${this.pageBudget} fetches reached while paging ${pageUrl}`);
        break;
      }
      const doc = await this.tryFetch(next, "html");
      if (doc?.kind !== "html") break;
      const page = readIndexPage(doc.text, doc.url, await scanHead(doc.text, doc.url));
      posts = dedupe([...posts, ...page.posts]);
      next = page.next;
    }
    return posts;
  }

  private async discoveredSitemap(
    origin: string,
    pageUrl: string,
  ): Promise<{ url: string; posts: DiscoveredPost[] } | null> {
    const robots = await getRobots(origin, this.options.policy).catch(() => null);
    const candidates = [
      ...new Set([
        ...(robots?.sitemaps ?? []),
        `${origin}/sitemap.xml`,
        `${origin}/sitemap_index.xml`,
        `${origin}/wp-sitemap.xml`,
      ]),
    ];
    for (const url of candidates.slice(0, 5)) {
      const doc = await this.tryFetch(url, "sitemap");
      if (doc?.kind !== "sitemap") continue;
      const posts = await this.sitemapPosts(doc, pageUrl);
      if (posts.length) return { url: doc.url, posts };
    }
    return null;
  }

  /** Every post URL of a sitemap (following an index), newest first; `scope` keeps a blog's section of a site. */
  private async sitemapPosts(doc: Doc, scope: string | null): Promise<DiscoveredPost[]> {
    const entries: SitemapEntry[] = [];
    await this.walkSitemap(doc, entries, 0);
    // A URL that other entries sit under ("/blog/" above "/blog/a-post") is a section, not a post.
    const ancestors = new Set<string>();
    for (const e of entries) {
      const path = new URL(e.url).pathname;
      for (let i = path.indexOf("/", 1); i >= 0 && i < path.length - 1; i = path.indexOf("/", i + 1))
        ancestors.add(path.slice(0, i + 1));
    }
    const isSection = (url: string) => ancestors.has(new URL(url).pathname);
    let posts = entries.filter((e) => looksLikePost(e.url) && !isSection(e.url));
    // A sitemap of the whole site, reached from a blog under a path: keep that blog's posts when it has any.
    if (scope) {
      const prefix = new URL(".", scope).pathname;
      if (prefix !== "/") {
        const inside = posts.filter((e) => new URL(e.url).pathname.startsWith(prefix));
        if (inside.length) posts = inside;
      }
    }
    // lastmod says when a page changed, not when it was published: it orders, the URL's date breaks ties.
    const ranked = posts
      .map((e, index) => ({
        e,
        index,
        mod: e.lastmod ? Date.parse(e.lastmod) : -Infinity,
        urlDate: dateFromUrl(e.url),
      }))
      .sort((a, b) => b.mod - a.mod || (b.urlDate ?? "").localeCompare(a.urlDate ?? "") || a.index - b.index);
    return dedupe(ranked.map(({ e, urlDate }) => ({ url: e.url, title: e.title, publishedAt: urlDate })));
  }

  private async walkSitemap(doc: Doc, out: SitemapEntry[], depth: number): Promise<void> {
    const parsed = parseSitemap(doc.text, doc.url);
    this.warnings.push(...parsed.warnings);
    if (parsed.type === "urlset") {
      for (const entry of parsed.entries) {
        if (out.length >= this.urlBudget) {
          this.warnings.push(`URL budget of ${this.urlBudget} reached in ${doc.url}`);
          return;
        }
        out.push(entry);
      }
      return;
    }
    if (depth >= 2) {
      this.warnings.push(`${doc.url}: sitemap indexes nested too deep`);
      return;
    }
    // Child sitemaps of posts first; tag, category, author, image and video sitemaps last.
    const rank = (url: string) =>
      /post|article|blog|news|entry/i.test(url)
        ? 0
        : /tag|categor|author|user|image|video|page-sitemap|taxonom/i.test(url)
          ? 2
          : 1;
    const children = parsed.sitemaps
      .map((s, index) => ({ s, index }))
      .sort((a, b) => rank(a.s.url) - rank(b.s.url) || a.index - b.index)
      .filter(({ s }) => rank(s.url) < 2);
    for (const { s } of children) {
      if (out.length >= this.urlBudget) return;
      if (this.fetches >= this.pageBudget) {
        this.warnings.push(`page budget of ${this.pageBudget} fetches reached in sitemap index ${doc.url}`);
        return;
      }
      const child = await this.tryFetch(s.url, "sitemap");
      if (!child) continue;
      if (child.kind !== "sitemap") {
        this.warnings.push(`${s.url}: listed in a sitemap index but is not a sitemap`);
        continue;
      }
      try {
        await this.walkSitemap(child, out, depth + 1);
      } catch (err) {
        if (!(err instanceof FetchError)) throw err;
        this.warnings.push(`${s.url}: ${err.message}`);
      }
    }
  }
}

/** The page says it is one article: `og:type` article, or structured data of an article type. */
function declaresArticle(html: string): boolean {
  const head = html.slice(0, 200_000);
  return (
    /<meta\b[^>]*\bproperty=["']og:type["'][^>]*\bcontent=["']article["']/i.test(head) ||
    /<meta\b[^>]*\bcontent=["']article["'][^>]*\bproperty=["']og:type["']/i.test(head) ||
    /"@type"\s*:\s*"(BlogPosting|Article|NewsArticle|TechArticle|Report)"/.test(head)
  );
}

/** Why a start address is not a blog, naming what it answered. */
function notABlog(doc: Doc): string {
  const type = doc.contentType.split(";")[0]!.trim() || "no content type";
  return `${doc.url} is not a blog: it answered ${type}, which is neither a web page, a feed nor a sitemap; give the blog's index page, feed or sitemap address`;
}

function canonicalizeStart(url: string): string {
  try {
    return canonicalizeUrl(url);
  } catch {
    throw new FetchError("bad_url", `not an absolute http(s) URL: ${url}`, undefined, url);
  }
}

/** Finds a blog's posts from any of its addresses; see the file comment for the order of sources. */
export async function discoverPosts(blogUrl: string, options: DiscoverOptions): Promise<Discovery> {
  return new Discoverer(options).run(blogUrl);
}
