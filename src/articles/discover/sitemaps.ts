// Sitemaps (sitemaps.org): <urlset> and <sitemapindex>, plain-text sitemaps (one URL a line), gzip handled
// by the caller. News/image/video extensions are read for a title and a date where they give one.
import { FetchError } from "../../outbound/fetch-error";
import { tryCanonicalize } from "../canonical-url";
import { toIsoDate } from "../extract/metadata";
import { asArray, escapeBareAmpersands, parseXml, textOf } from "./feeds";

export interface SitemapEntry {
  url: string;
  lastmod: string | null;
  title: string | null;
}

export type ParsedSitemap =
  | { type: "urlset"; entries: SitemapEntry[]; warnings: string[] }
  | { type: "index"; sitemaps: SitemapEntry[]; warnings: string[] };

type XmlNode = Record<string, unknown>;

function entries(nodes: (XmlNode | string)[], base: string): SitemapEntry[] {
  const out: SitemapEntry[] = [];
  for (const item of nodes) {
    // Some generators write the URL as the element's text, without <loc>.
    const node: XmlNode = typeof item === "object" && item ? item : { loc: item };
    const loc = textOf(node.loc);
    const url = loc ? tryCanonicalize(loc, base) : null;
    if (!url) continue;
    const news = asArray(node.news as XmlNode | XmlNode[] | undefined)[0];
    const title = news ? textOf(news.title) : null;
    const date = textOf(node.lastmod) ?? (news ? textOf(news.publication_date) : null);
    out.push({ url, lastmod: toIsoDate(date), title });
  }
  return out;
}

export function parseSitemap(text: string, url: string): ParsedSitemap {
  const trimmed = text.replace(/^\uFEFF/, "").trim();
  if (!trimmed.startsWith("<")) {
    // Text sitemap: one absolute URL per line.
    const lines = trimmed
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter(Boolean);
    const urls = lines.map((l) => tryCanonicalize(l)).filter((u): u is string => u !== null);
    if (!urls.length) throw new FetchError("parse", "not a sitemap: neither XML nor a list of URLs");
    return {
      type: "urlset",
      entries: urls.map((u) => ({ url: u, lastmod: null, title: null })),
      warnings:
        urls.length < lines.length ? [`${lines.length - urls.length} lines of the text sitemap are not URLs`] : [],
    };
  }
  const xml = escapeBareAmpersands(trimmed);
  const { doc, problem } = parseXml(xml, "sitemap");
  const warnings = problem ? [`sitemap is not well-formed XML (${problem}); read what could be read`] : [];
  const urlset = asArray(doc.urlset as XmlNode | XmlNode[] | undefined)[0];
  if (urlset && typeof urlset === "object")
    return { type: "urlset", entries: entries(asArray(urlset.url as XmlNode[]), url), warnings };
  const index = asArray(doc.sitemapindex as XmlNode | XmlNode[] | undefined)[0];
  if (index && typeof index === "object")
    return { type: "index", sitemaps: entries(asArray(index.sitemap as XmlNode[]), url), warnings };
  if (problem) throw new FetchError("parse", `malformed sitemap: ${problem}`);
  const root = Object.keys(doc).find((k) => !k.startsWith("?"));
  throw new FetchError("parse", `not a sitemap: the document's root element is ${root ? `<${root}>` : "missing"}`);
}
