import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { canonicalizeUrl, discoverPosts, FetchError } from "../../src/articles";
import { parseFeed } from "../../src/articles/discover/feeds";
import { scanHead } from "../../src/articles/discover/page-links";
import { looksLikePost } from "../../src/articles/discover/post-urls";
import { parseSitemap } from "../../src/articles/discover/sitemaps";

const policy = { allowPrivate: true };
const blog = () => `${env.FIXTURE_ORIGIN}/blog`;
const paths = (urls: { url: string }[]) => urls.map((p) => new URL(p.url).pathname + new URL(p.url).search);

const NEWEST_THREE = [
  "/blog/posts/2026/03/third-post.html",
  "/blog/posts/2026/02/second-post.html",
  "/blog/posts/2026/01/first-post.html",
];

describe("discovery from each source", () => {
  it("a landing page: follows the advertised feed (not the comments feed)", async () => {
    const found = await discoverPosts(`${blog()}/`, { policy });
    expect(found.sourceKind).toBe("feed");
    expect(found.sourceUrl).toBe(`${blog()}/feed.xml`);
    // Newest first, canonical (tracking parameters and fragments dropped), the duplicate entry merged.
    expect(paths(found.posts)).toEqual(NEWEST_THREE);
    expect(found.posts[0]).toEqual({
      url: `${blog()}/posts/2026/03/third-post.html`,
      title: "The third post",
      publishedAt: "2026-03-10T09:00:00.000Z",
    });
    expect(found.posts[2]!.title).toBe("The first post & the year");
  });

  it("an index page: post links in document order, pagination followed, navigation left out", async () => {
    const found = await discoverPosts(`${blog()}/`, { policy, sources: ["index"] });
    expect(found.sourceKind).toBe("index");
    expect(paths(found.posts)).toEqual([
      ...NEWEST_THREE,
      "/blog/posts/2025/12/older-post.html",
      "/blog/posts/2025/11/oldest-post.html",
    ]);
    expect(found.posts[0]!.title).toBe("The third post");
    expect(found.posts[0]!.publishedAt).toBe("2026-03-10T09:00:00.000Z");
    expect(found.posts.every((p) => !/tag|about|privacy|page/.test(p.url))).toBe(true);
  });

  it("stops paging once it has enough posts", async () => {
    const found = await discoverPosts(`${blog()}/`, { policy, sources: ["index"], maxPosts: 2 });
    expect(paths(found.posts)).toEqual(NEWEST_THREE.slice(0, 2));
  });

  it.each([
    ["RSS 2.0", "feed.xml", 3],
    ["Atom", "atom.xml", 2],
    ["RSS 1.0 (RDF)", "feed.rdf", 2],
    ["JSON Feed", "feed.json", 3],
  ])("a %s feed given directly", async (_name, file, count) => {
    const found = await discoverPosts(`${blog()}/${file}`, { policy });
    expect(found.sourceKind).toBe("feed");
    expect(paths(found.posts)).toEqual(NEWEST_THREE.slice(0, count));
    expect(found.posts[1]!.publishedAt).toBe("2026-02-14T09:00:00.000Z");
  });

  it("a sitemap index: gzip child read, tag sitemap skipped, non-post entries left out, newest first", async () => {
    const found = await discoverPosts(`${env.FIXTURE_ORIGIN}/blog-sitemap/sitemap_index.xml`, { policy });
    expect(found.sourceKind).toBe("sitemap");
    expect(paths(found.posts)).toEqual([
      "/blog-sitemap/posts/spring-release.html",
      "/blog-sitemap/posts/why-we-build-tools.html",
      "/blog-sitemap/posts/winter-notes.html",
      "/blog-sitemap/posts/hello-world.html",
    ]);
  });

  it("a landing page without feed or post list: the sitemap named in robots.txt", async () => {
    const found = await discoverPosts(`${env.FIXTURE_ORIGIN}/blog-sitemap/`, { policy });
    expect(found.sourceKind).toBe("sitemap");
    expect(found.sourceUrl).toBe(`${env.FIXTURE_ORIGIN}/blog-sitemap/sitemap_index.xml`);
    expect(found.posts).toHaveLength(4);
  });

  it("a post page that lists no other posts, landing source only: the page itself is the one post", async () => {
    const post = `${blog()}/posts/2026/02/second-post.html`;
    const found = await discoverPosts(post, { policy, sources: ["landing"] });
    expect(found.sourceKind).toBe("landing");
    expect(found.posts.map((p) => p.url)).toContain(post);
    // The date is the one its URL carries (year and month).
    expect(found).toEqual({
      sourceKind: "landing",
      sourceUrl: post,
      posts: [{ url: post, title: null, publishedAt: "2026-02-01T00:00:00.000Z" }],
      warnings: [],
    });
  });
});

describe("bounds and failures", () => {
  it("respects the page budget and says so", async () => {
    const found = await discoverPosts(`${blog()}/`, { policy, sources: ["index"], pageBudget: 1 });
    expect(paths(found.posts)).toEqual(NEWEST_THREE);
    expect(found.warnings.join(" ")).toMatch(/page budget of 1/);
  });

  it("respects the URL budget of sitemaps", async () => {
    const found = await discoverPosts(`${env.FIXTURE_ORIGIN}/blog-sitemap/sitemap_index.xml`, { policy, urlBudget: 2 });
    expect(found.posts.length).toBeLessThanOrEqual(2);
    expect(found.warnings.join(" ")).toMatch(/URL budget of 2/);
  });

  it("a truncated feed yields its complete items, with a warning naming the XML problem", async () => {
    const found = await discoverPosts(`${blog()}/truncated-feed.xml`, { policy });
    expect(paths(found.posts)).toContain("/blog/posts/x.html");
    expect(found.warnings.join(" ")).toMatch(/not well-formed XML .*line \d+/);
  });

  it("a malformed feed with nothing readable is a clear parse error", async () => {
    const err = await discoverPosts(`${blog()}/malformed-feed.xml`, { policy }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FetchError);
    expect((err as FetchError).code).toBe("parse");
    expect((err as FetchError).message).toMatch(/malformed feed/);
  });

  it("a feed is held to the feed cap (5 MB) even at an address read like a sitemap's (.xml)", async () => {
    const err = await discoverPosts(`${env.FIXTURE_ORIGIN}/sync/huge-feed.xml`, { policy }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FetchError);
    expect((err as FetchError).code).toBe("too_large");
    expect((err as FetchError).message).toContain("/sync/huge-feed.xml");
  });

  it("private addresses are refused when not allowed", async () => {
    const err = await discoverPosts(`${blog()}/`, { policy: { allowPrivate: false } }).catch((e: unknown) => e);
    expect((err as FetchError).code).toBe("blocked_address");
  });

  it("a missing blog is an HTTP error", async () => {
    const err = await discoverPosts(`${env.FIXTURE_ORIGIN}/no-blog-here/`, { policy }).catch((e: unknown) => e);
    expect((err as FetchError).code).toBe("http_status");
  });
});

describe("parsers and URL rules", () => {
  it("canonicalizes URLs", () => {
    expect(canonicalizeUrl("HTTPS://Blog.Example.com:443/a/b?utm_source=x&b=2&a=1&fbclid=z#frag")).toBe(
      "https://blog.example.com/a/b?a=1&b=2",
    );
    expect(canonicalizeUrl("http://example.com")).toBe("http://example.com/");
    expect(() => canonicalizeUrl("mailto:a@b.c")).toThrow();
  });

  it("tells posts from listing pages", () => {
    for (const url of [
      "https://x.com/2024/05/hello-world/",
      "https://x.com/blog/my-post",
      "https://x.com/posts/2026/03/a.html",
      "https://x.com/?p=123",
    ]) {
      expect(looksLikePost(url), url).toBe(true);
    }
    for (const url of [
      "https://x.com/",
      "https://x.com/tag/rust/",
      "https://x.com/category/news/",
      "https://x.com/author/ada/",
      "https://x.com/page/2/",
      "https://x.com/2024/05/",
      "https://x.com/blog/index-3.html",
      "https://x.com/feed.xml",
      "https://x.com/?s=term",
    ]) {
      expect(looksLikePost(url), url).toBe(false);
    }
  });

  it("reads text sitemaps and reports malformed XML clearly", () => {
    const text = parseSitemap(
      "https://a.example/p/1\nnot a url\nhttps://a.example/p/2\n",
      "https://a.example/sitemap.txt",
    );
    expect(text.type === "urlset" && text.entries.map((e) => e.url)).toEqual([
      "https://a.example/p/1",
      "https://a.example/p/2",
    ]);
    expect(() => parseSitemap("<urlset><url><loc>https://a.example/</loc></url", "https://a.example/s.xml")).toThrow(
      /malformed sitemap: .*line/,
    );
    expect(() => parseSitemap("<html><body>not a sitemap</body></html>", "https://a.example/s.xml")).toThrow(
      /not a sitemap/,
    );
  });

  it("reads advertised feed and next-page links with their character references decoded as HTML does", async () => {
    const html =
      '<html><head><link rel="alternate" type="application/rss+xml" href="/feed?a=1&amp;b=2&#x26;c=3&not=4"><link rel="next" href="/page/2?x=1&#38;y=2"></head><body></body></html>';
    expect(await scanHead(html, "https://a.example/blog/")).toEqual({
      feeds: ["https://a.example/feed?a=1&b=2&c=3&not=4"],
      next: "https://a.example/page/2?x=1&y=2",
      base: "https://a.example/blog/",
    });
  });

  it("a feed item whose link is unusable is left out; the feed's other items are read", () => {
    const rss =
      '<rss version="2.0"><channel><item><title>Bad</title><link>http://[bad</link></item><item><title>Good</title><link>/p/good</link></item></channel></rss>';
    expect(parseFeed(rss, "https://a.example/feed.xml").posts).toEqual([
      { url: "https://a.example/p/good", title: "Good", publishedAt: null },
    ]);
    const atom =
      '<feed xmlns="http://www.w3.org/2005/Atom"><entry><title>Bad</title><link href="http://[bad"/></entry><entry><title>Good</title><link href="/p/good"/></entry></feed>';
    expect(parseFeed(atom, "https://a.example/atom.xml").posts).toEqual([
      { url: "https://a.example/p/good", title: "Good", publishedAt: null },
    ]);
  });

  it("a feed without items is valid and empty; garbage is a parse error, never a crash", () => {
    expect(parseFeed('<feed xmlns="http://www.w3.org/2005/Atom"></feed>', "https://a.example/").posts).toEqual([]);
    expect(() => parseFeed("<<<>>>", "https://a.example/")).toThrow(FetchError);
    expect(() => parseFeed('{"items": []}', "https://a.example/")).toThrow(/not a JSON Feed/);
    expect(() => parseFeed("{broken json", "https://a.example/")).toThrow(/malformed JSON feed/);
  });
});

describe("a broken feed is described in words", () => {
  it("a feed cut off inside an item says which elements are still open", () => {
    const cut = `<?xml version="1.0"?><rss version="2.0"><channel><title>T</title><item><title>A</title><link>https://example.com/a`;
    const err = (() => {
      try {
        parseFeed(cut, "https://example.com/feed.xml");
      } catch (e) {
        return e as Error;
      }
      return null;
    })();
    expect(err?.message).toBe(
      "malformed feed: the document ends at line 1 while <link> in <item> in <channel> in <rss> is still open: it was cut off, or a closing tag is missing",
    );
  });
});

describe("an address that is not a blog", () => {
  const notABlog = `${env.FIXTURE_ORIGIN}/not-a-blog`;
  it.each([
    [`${blog()}/images/diagram.png`, "image/png"],
    [`${notABlog}/plain.txt`, "text/plain"],
    [`${notABlog}/data.json`, "application/json"],
    [`${notABlog}/random.bin`, "application/octet-stream"],
  ])("%s fails naming its content type, without trying the site's other sources", async (url, type) => {
    const err = await discoverPosts(url, { policy }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FetchError);
    expect((err as FetchError).code).toBe("not_a_blog");
    expect((err as FetchError).message).toBe(
      `${url} is not a blog: it answered ${type}, which is neither a web page, a feed nor a sitemap; give the blog's index page, feed or sitemap address`,
    );
  });

  it("a single article page is that one post, not the site's feed or sitemap", async () => {
    const url = `${blog()}/posts/2026/03/third-post.html`;
    const found = await discoverPosts(url, { policy });
    expect(found.sourceKind).toBe("landing");
    expect(found.sourceUrl).toBe(url);
    expect(found.posts.map((p) => p.url)).toEqual([url]);
  });
});
