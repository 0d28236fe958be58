// The worker behind `npm run extract` and `npm run bench:extract`: the same src/articles code the product runs,
// inside workerd (HTMLRewriter does not exist in Node). POST /extract with the page bytes (header
// x-page-url) or with an empty body and x-fetch-url to fetch the page under the fetch policy. The benchmark
// also uses POST /feed and /sitemap (document bytes, x-page-url) and /discover (x-fetch-url, options in
// x-options as JSON).

import type { Article } from "../src/articles";
import { discoverPosts, extractArticle, FetchError, fetchArticle, toRedditMarkdown } from "../src/articles";
import { parseFeed } from "../src/articles/discover/feeds";
import { parseSitemap } from "../src/articles/discover/sitemaps";
import { decodeDocument } from "../src/articles/extract/charset";
import { gunzipCapped, isGzip } from "../src/outbound/capped-body";

interface Env {
  ALLOW_PRIVATE_FETCH?: string;
}

/** The most runs of one page a timed request makes (a page of a few microseconds would otherwise loop long). */
const MAX_RUNS = 1000;

function report(article: Article, elapsedMs: number, runs: number) {
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
    elapsed_ms: Math.round(elapsedMs * 1000) / 1000,
    runs,
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
      let runs = 1;
      if (fetchUrl) {
        // Timed around fetchArticle as a whole: the fetch (DNS, robots.txt, the page) as well as decoding and extraction.
        const started = performance.now();
        article = await fetchArticle(fetchUrl, { policy });
        elapsed = performance.now() - started;
      } else {
        const bytes = new Uint8Array(await request.arrayBuffer());
        const pageUrl = request.headers.get("x-page-url") ?? "http://localhost/";
        const contentType = request.headers.get("x-content-type");
        // The runtime's clock has whole milliseconds: the benchmark asks for at least `x-repeat` runs and
        // for runs until `x-min-ms` have passed, and takes the mean, so that a page of a few milliseconds is
        // not mostly rounding (the bench asks for 50 ms: the rounding is then at most 2 % of a page's figure).
        const repeat = Math.max(1, Number(request.headers.get("x-repeat")) || 1);
        const minMs = Math.max(0, Number(request.headers.get("x-min-ms")) || 0);
        runs = 0;
        let last: { article: Article; warnings: string[] } | null = null;
        const started = performance.now();
        do {
          const { text, warnings } = decodeDocument(bytes, contentType);
          last = { article: await extractArticle(text, pageUrl), warnings };
          runs++;
        } while (runs < repeat || (runs < MAX_RUNS && performance.now() - started < minMs));
        elapsed = (performance.now() - started) / runs;
        article = last.article;
        article.warnings.unshift(...last.warnings);
      }
      return Response.json(report(article, elapsed, runs));
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const code = err instanceof FetchError ? err.code : "internal";
      return Response.json({ error: { code, message } }, { status: 422 });
    }
  },
} satisfies ExportedHandler<Env>;
