// Addresses the block tree keeps: links resolved against the page (http(s) and mailto only), an image's real
// source (lazy-loading attributes and srcset included), and the permalinks beside headings that are furniture.

import { type ElementNode, isElement, textContent } from "./html-tree";

/** The text with whitespace and C0 control characters removed, as browsers ignore them in a URL's scheme. */
function stripControlAndSpace(text: string): string {
  // Every UTF-16 unit up to U+0020 (a string with none, nearly every address, is returned without a copy).
  return text.replace(/[^\u0021-\uffff]+/g, "");
}

/** Resolves `href` against the page; only http(s) and mailto survive (no `javascript:` links: docs/extraction.md). */
export function safeUrl(href: string | undefined, base: string, allowMailto = true): string | null {
  if (!href) return null;
  const trimmed = href.trim();
  if (!trimmed || /^(javascript|vbscript|data|file|blob):/i.test(stripControlAndSpace(trimmed))) return null;
  try {
    const url = new URL(trimmed, base);
    if (url.protocol === "http:" || url.protocol === "https:") return url.href;
    if (allowMailto && url.protocol === "mailto:") return url.href;
  } catch {
    // not a URL
  }
  return null;
}

function bestFromSrcset(srcset: string): string | null {
  let best: string | null = null;
  let bestSize = -1;
  for (const candidate of srcset.split(/,\s+(?=\S)/)) {
    const [url, descriptor = "1x"] = candidate.trim().split(/\s+/);
    if (!url) continue;
    const size = parseFloat(descriptor) * (descriptor.endsWith("x") ? 1000 : 1);
    if (size > bestSize) {
      bestSize = size;
      best = url;
    }
  }
  return best;
}

/** The real source of an image, lazy-loading attributes included; placeholders and pixels are ignored. */
export function imageSource(img: ElementNode, base: string): string | null {
  const attrs = img.attrs;
  if (attrs.width === "1" && attrs.height === "1") return null;
  const candidates = [
    attrs["data-src"],
    attrs["data-lazy-src"],
    attrs["data-original"],
    attrs["data-url"],
    attrs["data-hi-res-src"],
    attrs["data-srcset"] ? (bestFromSrcset(attrs["data-srcset"]) ?? undefined) : undefined,
    attrs.srcset ? (bestFromSrcset(attrs.srcset) ?? undefined) : undefined,
    attrs.src,
  ];
  for (const candidate of candidates) {
    if (!candidate || /^data:/i.test(candidate.trim())) continue;
    const url = safeUrl(candidate, base, false);
    if (url) return url;
  }
  // A <picture> keeps its best candidates in <source> siblings.
  const picture = img.parent?.tag === "picture" ? img.parent : null;
  if (picture) {
    for (const source of picture.children) {
      if (isElement(source) && source.tag === "source" && source.attrs.srcset) {
        const url = safeUrl(bestFromSrcset(source.attrs.srcset) ?? undefined, base, false);
        if (url) return url;
      }
    }
  }
  return null;
}

const PERMALINK_CLASS =
  /(^|\s)(headerlink|header-anchor|heading-anchor|anchor-?link|anchorjs-link|hash-link|permalink)(\s|$)/i;

export function isPermalink(a: ElementNode): boolean {
  if (PERMALINK_CLASS.test(a.attrs.class ?? "")) return true;
  return /^\s*[¶#§🔗⚓]\s*$/u.test(textContent(a)) && (a.attrs.href ?? "").includes("#");
}
