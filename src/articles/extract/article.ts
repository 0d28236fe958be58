// One page in, one article out: metadata, the body as blocks, its images and plain text.
import { FetchError } from "../../outbound/fetch-error";
import { safeFetch } from "../../outbound/safe-fetch";
import { tryCanonicalize } from "../canonical-url";
import type { Article, FetchPolicy } from "../types";
import { blocksToText, toBlocks } from "./blocks";
import { decodeDocument } from "./charset";
import { grabArticle } from "./content";
import { findFirst } from "./html-tree";
import { cleanByline, readMetadata } from "./metadata";
import { parseHtml } from "./parse-html";
import { isWebPage } from "./web-page";

/** Extracts the article of an HTML page at `url` (used to resolve relative links and as the fallback canonical URL). */
export async function extractArticle(html: string, url: string): Promise<Article> {
  const warnings: string[] = [];
  const { root, jsonLd } = parseHtml(html);
  const baseTag = findFirst(root, "base")?.attrs.href;
  let base = url;
  if (baseTag) {
    try {
      base = new URL(baseTag, url).href;
    } catch {
      // an unusable <base> is ignored, as browsers do
    }
  }
  const meta = readMetadata(root, jsonLd, url);
  const { content, byline } = grabArticle(
    root,
    meta.title ?? "",
    () => parseHtml(html).root,
    [url, ...(meta.canonical ? [meta.canonical] : [])],
    meta.byline,
  );
  const { blocks, images } = toBlocks(content, base);
  const text = blocksToText(blocks);
  if (!blocks.length) warnings.push("no article body found");
  else if (text.length < 200) warnings.push("article body is very short");
  const title = meta.title ?? firstHeading(blocks) ?? "";
  if (!title) warnings.push("no title found");
  return {
    url,
    canonicalUrl: chooseCanonical(meta.canonical, url),
    title,
    byline: meta.byline ?? (byline ? cleanByline(byline) : null),
    publishedAt: meta.publishedAt,
    siteName: meta.siteName,
    leadImage: meta.image ?? images[0]?.url ?? null,
    blocks,
    images,
    text,
    warnings,
  };
}

function firstHeading(blocks: Article["blocks"]): string | null {
  for (const block of blocks) {
    if (block.type === "heading")
      return (
        block.children
          .map((c) => (c.type === "text" ? c.text : ""))
          .join("")
          .trim() || null
      );
  }
  return null;
}

/** The page's canonical link unless it is obviously wrong (points at the site root from an inner page). */
function chooseCanonical(declared: string | null, url: string): string {
  const own = tryCanonicalize(url) ?? url;
  const canonical = declared ? tryCanonicalize(declared) : null;
  if (!canonical) return own;
  const c = new URL(canonical);
  const u = new URL(own);
  if ((c.pathname === "/" || c.pathname === "") && u.pathname !== "/" && u.pathname !== "") return own;
  return canonical;
}

/** Fetches a page under the fetch policy (docs/extraction.md, "Safe fetching") and extracts its article. */
export async function fetchArticle(url: string, options: { policy: FetchPolicy }): Promise<Article> {
  const res = await safeFetch(url, { policy: options.policy, kind: "html" });
  const type = res.contentType.toLowerCase();
  const { text, warnings } = decodeDocument(res.bytes, res.contentType);
  // The same rule as discovery's (web-page.ts): a page by its type, or by its markup when mislabelled.
  if (!isWebPage(type, text)) {
    const named = type.split(";")[0]!.trim() || "no content type";
    throw new FetchError("parse", `${res.url} is ${named}, not an HTML page`, res.status, res.url);
  }
  const article = await extractArticle(text, res.url);
  article.warnings.unshift(...warnings);
  return article;
}
