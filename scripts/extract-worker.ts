// The worker behind `npm run extract` and `npm run bench:extract`: the same src/sync code the product runs,
// inside workerd (HTMLRewriter does not exist in Node). POST /extract with the page bytes (header
// x-page-url) or with an empty body and x-fetch-url to fetch the page under the fetch policy. The benchmark
// also uses POST /feed and /sitemap (document bytes, x-page-url) and /discover (x-fetch-url, options in
// x-options as JSON).
import { gunzipCapped, isGzip } from "../src/lib/safe-fetch";
import { parseFeed } from "../src/sync/discovery/feeds";
import { parseSitemap } from "../src/sync/discovery/sitemaps";
import { decodeDocument } from "../src/sync/extract/charset";
import type { Article } from "../src/sync/index";
import { discoverPosts, extractArticle, FetchError, fetchArticle, toRedditMarkdown } from "../src/sync/index";

interface Env {
  ALLOW_PRIVATE_FETCH?: string;
}

function report(article: Article, elapsedMs: number) {
  return {
    title: article.title,
    byline: article.byline,
    published_at: article.publishedAt,
    site_name: article.siteName ?? null,
    canonical_url: article.canonicalUrl,
    lead_image: article.leadImage,
    markdown: toRedditMarkdown(article).markdown,
    text: article.text,
    images: article.images,
    warnings: article.warnings,
    elapsed_ms: Math.round(elapsedMs * 100) / 100,
  };
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const fetchUrl = request.headers.get("x-fetch-url");
    const path = new URL(request.url).pathname;
    const policy = { allowPrivate: env.ALLOW_PRIVATE_FETCH === "true" };
    try {
      if (path === "/discover") {
        const options = JSON.parse(request.headers.get("x-options") ?? "{}");
        return Response.json(await discoverPosts(fetchUrl ?? "", { ...options, policy }));
      }
      if (path === "/feed" || path === "/sitemap") {
        let bytes = new Uint8Array(await request.arrayBuffer());
        if (isGzip(bytes)) bytes = await gunzipCapped(bytes, 20 * 1024 * 1024);
        const { text } = decodeDocument(bytes, null);
        const url = request.headers.get("x-page-url") ?? "http://localhost/";
        return Response.json(path === "/feed" ? parseFeed(text, url) : parseSitemap(text, url));
      }
      let article: Article;
      let elapsed: number;
      if (fetchUrl) {
        // Timed around fetchArticle as a whole: the fetch (DNS, robots.txt, the page) as well as decoding and extraction.
        const started = performance.now();
        article = await fetchArticle(fetchUrl, { policy });
        elapsed = performance.now() - started;
      } else {
        const bytes = new Uint8Array(await request.arrayBuffer());
        const pageUrl = request.headers.get("x-page-url") ?? "http://localhost/";
        // The runtime's clock is coarse (whole milliseconds); the benchmark repeats each page and averages.
        const repeat = Math.max(1, Number(request.headers.get("x-repeat")) || 1);
        const started = performance.now();
        for (let i = 1; i < repeat; i++)
          await extractArticle(decodeDocument(bytes, request.headers.get("x-content-type")).text, pageUrl);
        const { text, warnings } = decodeDocument(bytes, request.headers.get("x-content-type"));
        article = await extractArticle(text, pageUrl);
        article.warnings.unshift(...warnings);
        elapsed = (performance.now() - started) / repeat;
      }
      return Response.json(report(article, elapsed));
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const code = err instanceof FetchError ? err.code : "internal";
      return Response.json({ error: { code, message } }, { status: 422 });
    }
  },
} satisfies ExportedHandler<Env>;
