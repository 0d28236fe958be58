// Page metadata: JSON-LD first (it is written for machines), then Open Graph / Twitter / Dublin Core /
// Parse.ly meta tags, then the markup itself (<title>, rel=author, <time>).
import { collapseWhitespace, type ElementNode, textContent, walkElements } from "./html-tree";

export interface PageMetadata {
  title: string | null;
  siteName: string | null;
  byline: string | null;
  publishedAt: string | null;
  canonical: string | null;
  image: string | null;
  lang: string | null;
}

interface JsonLdArticle {
  headline?: string;
  name?: string;
  author?: string;
  datePublished?: string;
  image?: string;
  publisher?: string;
  url?: string;
}

const ARTICLE_TYPES =
  /Article|BlogPosting|NewsArticle|Report|ScholarlyArticle|SocialMediaPosting|TechArticle|WebPage|Posting|Review|Recipe/;

function asText(value: unknown): string | undefined {
  if (typeof value === "string") return value.trim() || undefined;
  if (Array.isArray(value)) {
    const names = value.map(asText).filter((v): v is string => !!v);
    return names.length ? names.join(", ") : undefined;
  }
  if (value && typeof value === "object") {
    const obj = value as Record<string, unknown>;
    return asText(obj.name) ?? asText(obj.url) ?? asText(obj["@id"]);
  }
  return undefined;
}

function imageOf(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return imageOf(value[0]);
  if (value && typeof value === "object") {
    const obj = value as Record<string, unknown>;
    return imageOf(obj.url ?? obj.contentUrl);
  }
  return undefined;
}

function readJsonLd(scripts: string[]): JsonLdArticle {
  const found: JsonLdArticle = {};
  const visit = (node: unknown) => {
    if (!node || typeof node !== "object") return;
    if (Array.isArray(node)) return node.forEach(visit);
    const obj = node as Record<string, unknown>;
    if (Array.isArray(obj["@graph"])) (obj["@graph"] as unknown[]).forEach(visit);
    const type = asText(obj["@type"]) ?? "";
    if (!ARTICLE_TYPES.test(type)) return;
    // A WebPage describes the page; an Article type describes the article and wins over it.
    const isArticle = !/^WebPage$/.test(type);
    const assign = <K extends keyof JsonLdArticle>(key: K, value: string | undefined) => {
      if (value && (isArticle || !found[key])) found[key] = value;
    };
    assign("headline", asText(obj.headline));
    assign("name", asText(obj.name));
    assign("author", asText(obj.author) ?? asText(obj.creator));
    assign("datePublished", asText(obj.datePublished) ?? asText(obj.dateCreated));
    assign("image", imageOf(obj.image) ?? imageOf(obj.thumbnailUrl));
    assign("publisher", asText(obj.publisher));
    assign("url", asText(obj.url) ?? asText(obj.mainEntityOfPage));
  };
  for (const script of scripts) {
    try {
      visit(JSON.parse(script.replace(/^\s*<!\[CDATA\[|\]\]>\s*$/g, "")));
    } catch {
      // Broken JSON-LD is common; the meta tags still count.
    }
  }
  return found;
}

/** Normalizes a date to ISO 8601 UTC, or null when it is not a date. */
export function toIsoDate(value: string | null | undefined): string | null {
  if (!value) return null;
  const text = value.trim();
  if (!text) return null;
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) return null;
  const date = new Date(ms);
  if (date.getUTCFullYear() < 1990 || date.getUTCFullYear() > 2200) return null;
  return date.toISOString();
}

function absolute(url: string | null | undefined, base: string): string | null {
  if (!url) return null;
  try {
    const resolved = new URL(url.trim(), base);
    return resolved.protocol === "http:" || resolved.protocol === "https:" ? resolved.href : null;
  } catch {
    return null;
  }
}

/**
 * Records a meta tag's content under each of its names not recorded yet, lowercased. `property` may hold
 * several space-separated names (RDFa); most attributes hold one, taken without a split.
 */
function addMetaNames(meta: Map<string, string>, names: string | undefined, content: string): void {
  if (!names) return;
  const lower = names.toLowerCase();
  if (!/\s/.test(lower)) {
    if (!meta.has(lower)) meta.set(lower, collapseWhitespace(content));
    return;
  }
  for (const key of lower.split(/\s+/)) if (key && !meta.has(key)) meta.set(key, collapseWhitespace(content));
}

/** What the page's own tags say: its meta names, `<title>`, canonical link, rel=author link, publishing `<time>` and language. */
interface PageTags {
  meta: Map<string, string>;
  titleTag: string | null;
  canonical: string | null;
  relAuthor: string | null;
  timeTag: string | null;
  lang: string | null;
}

function readPageTags(root: ElementNode): PageTags {
  const meta = new Map<string, string>();
  let titleTag: string | null = null;
  let canonical: string | null = null;
  let relAuthor: string | null = null;
  let timeTag: string | null = null;
  let lang: string | null = null;
  // Every element in document order (no array of them: it would be garbage at once).
  walkElements(root, (el) => {
    switch (el.tag) {
      case "html":
        lang = el.attrs.lang ?? null;
        break;
      case "title":
        if (titleTag === null && !insideSvg(el)) titleTag = collapseWhitespace(textContent(el));
        break;
      case "meta": {
        const content = el.attrs.content;
        if (content === undefined) break;
        addMetaNames(meta, el.attrs.property, content);
        addMetaNames(meta, el.attrs.name, content);
        addMetaNames(meta, el.attrs.itemprop, content);
        break;
      }
      case "link":
        if (!canonical && /(^|\s)canonical(\s|$)/i.test(el.attrs.rel ?? "")) canonical = el.attrs.href ?? null;
        break;
      case "a":
        if (!relAuthor && /(^|\s)author(\s|$)/i.test(el.attrs.rel ?? ""))
          relAuthor = collapseWhitespace(textContent(el)) || null;
        break;
      case "time":
        if (
          !timeTag &&
          (el.attrs.pubdate !== undefined || /datePublished/i.test(el.attrs.itemprop ?? "")) &&
          el.attrs.datetime
        )
          timeTag = el.attrs.datetime;
        break;
    }
    return undefined;
  });
  return { meta, titleTag, canonical, relAuthor, timeTag, lang };
}

export function readMetadata(root: ElementNode, jsonLd: string[], pageUrl: string): PageMetadata {
  const { meta, titleTag, canonical, relAuthor, timeTag, lang } = readPageTags(root);
  const ld = readJsonLd(jsonLd);
  const pick = (...keys: string[]) => {
    for (const key of keys) {
      const value = meta.get(key);
      if (value) return value;
    }
    return null;
  };
  const siteName = pick("og:site_name", "application-name") ?? ld.publisher ?? null;
  const metaTitle =
    ld.headline ??
    pick("og:title", "twitter:title", "dc.title", "dcterm:title", "parsely-title", "title") ??
    ld.name ??
    null;
  const byline =
    ld.author ??
    pick("author", "article:author", "dc.creator", "dcterm:creator", "parsely-author", "sailthru.author", "byl") ??
    relAuthor;
  const published = toIsoDate(
    ld.datePublished ??
      pick(
        "article:published_time",
        "parsely-pub-date",
        "datepublished",
        "publishdate",
        "pubdate",
        "date",
        "dc.date",
        "dc.date.issued",
        "dcterms.created",
        "sailthru.date",
        "og:published_time",
      ) ??
      timeTag,
  );
  return {
    title: chooseTitle(titleTag, metaTitle, siteName),
    siteName,
    byline: byline && !/^https?:\/\//.test(byline) ? cleanByline(byline) : null,
    publishedAt: published,
    canonical: absolute(canonical, pageUrl) ?? absolute(pick("og:url"), pageUrl),
    image: absolute(
      ld.image ?? pick("og:image", "og:image:url", "og:image:secure_url", "twitter:image", "twitter:image:src"),
      pageUrl,
    ),
    lang,
  };
}

/** "By Ada Writer —" → "Ada Writer". */
export function cleanByline(text: string): string | null {
  return (
    collapseWhitespace(text)
      .replace(/^(by|von|par|por)\s+/i, "")
      .replace(/^[\s,;:|—–-]+|[\s,;:|—–-]+$/g, "") || null
  );
}

function insideSvg(el: ElementNode): boolean {
  for (let p = el.parent; p; p = p.parent) if (p.tag === "svg") return true;
  return false;
}

const SEPARATORS = /\s+[|\-–—»:·•\\/]\s+/;

/**
 * The article title without the site name: meta titles usually are the bare headline; `<title>` often
 * carries "Headline | Site" or "Site - Headline". The site part is cut when it matches the site name, or
 * when the remaining part is long enough to be a headline on its own.
 */
export function chooseTitle(titleTag: string | null, metaTitle: string | null, siteName: string | null): string | null {
  const candidate = metaTitle ?? titleTag;
  if (!candidate) return null;
  return stripSiteName(candidate, siteName);
}

export function stripSiteName(title: string, siteName: string | null): string {
  const text = collapseWhitespace(title);
  const site = siteName ? collapseWhitespace(siteName).toLowerCase() : null;
  const parts = text.split(SEPARATORS);
  if (parts.length < 2) return text;
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  if (site) {
    if (last.toLowerCase() === site || site.includes(last.toLowerCase()))
      return text
        .slice(0, text.length - last.length)
        .replace(/\s+[|\-–—»:·•\\/]\s*$/, "")
        .trim();
    if (first.toLowerCase() === site || site.includes(first.toLowerCase()))
      return text
        .slice(first.length)
        .replace(/^\s*[|\-–—»:·•\\/]\s+/, "")
        .trim();
  }
  // No site name to compare: drop trailing parts while they are short (a site or section name, at most four
  // words) and what remains still reads as a headline (three words or more), so "Q&A - Part 2" stays whole
  // and "Headline | Section | Site" becomes "Headline".
  let rest = text;
  for (;;) {
    const match = rest.match(/^(.*\S)\s+[|»—–-]\s+([^|»—–-]+)$/);
    if (!match?.[1] || match[1].split(/\s+/).length < 3 || match[2]!.trim().split(/\s+/).length > 4) break;
    rest = match[1];
  }
  if (rest !== text) return rest;
  return text;
}
