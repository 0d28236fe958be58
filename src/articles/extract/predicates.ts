// What the extraction passes ask of an element: is it prose (a unit of text a reader reads as a sentence or
// more), a heading, media; how dense with links; whether a link stays on the site. Shared by the scoring and
// cleaning in content.ts and the page-furniture passes in furniture.ts.
import {
  descendants,
  type ElementNode,
  findDescendant,
  HEADING_TAGS,
  indexIn,
  linkTextLength,
  type TreeNode,
  textContent,
  textLength,
} from "./html-tree";

export { HEADING_TAGS };

export const PHRASING = new Set([
  "abbr",
  "audio",
  "b",
  "bdo",
  "br",
  "button",
  "cite",
  "code",
  "data",
  "datalist",
  "dfn",
  "em",
  "embed",
  "i",
  "img",
  "input",
  "kbd",
  "label",
  "mark",
  "math",
  "meter",
  "noscript",
  "object",
  "output",
  "progress",
  "q",
  "ruby",
  "samp",
  "script",
  "select",
  "small",
  "span",
  "strong",
  "sub",
  "sup",
  "textarea",
  "time",
  "var",
  "wbr",
  "a",
  "del",
  "ins",
  "s",
  "strike",
  "u",
  "font",
  "tt",
  "big",
  "center",
]);

export function linkDensity(el: ElementNode): number {
  const length = textLength(el);
  return length ? linkTextLength(el) / length : 0;
}

export function ancestors(el: ElementNode, maxDepth: number): ElementNode[] {
  const out: ElementNode[] = [];
  let current = el.parent;
  while (current && current.tag !== "#document" && out.length < maxDepth) {
    out.push(current);
    current = current.parent;
  }
  return out;
}

export const HAN = /\p{Script=Han}/gu;

/** Whether a block holds at least a sentence's worth of text (PROSE_LENGTH, a Han character counting twice). */
export function holdsSentence(el: ElementNode, length = textLength(el)): boolean {
  return length >= PROSE_LENGTH || length + (textContent(el).match(HAN)?.length ?? 0) >= PROSE_LENGTH;
}

export function hasAncestorNode(el: ElementNode, ancestor: ElementNode): boolean {
  for (let current = el.parent; current; current = current.parent) if (current === ancestor) return true;
  return false;
}

/** Whether an ancestor of `el` below `top` (not `top` itself, nor anything above it) passes `test`. */
export function hasAncestorBelow(el: ElementNode, top: ElementNode, test: (a: ElementNode) => boolean): boolean {
  for (let a = el.parent; a && a !== top; a = a.parent) if (test(a)) return true;
  return false;
}

/** The elements that show a picture or a player. */
export const MEDIA_ELEMENTS = new Set(["img", "picture", "video", "iframe"]);

export function hasMedia(el: ElementNode): boolean {
  return findDescendant(el, (d) => MEDIA_ELEMENTS.has(d.tag)) !== null;
}

export const isHeading = (el: ElementNode) =>
  HEADING_TAGS.has(el.tag) || (el.attrs.role ?? "").toLowerCase() === "heading";

/** The registrable part of a URL's host, roughly: its last two labels, or three after a short second-level label ("co.uk"). */
export function siteOf(url: string): string | null {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
  const labels = host.split(".");
  const keep = labels.length >= 3 && labels.at(-1)!.length === 2 && labels.at(-2)!.length <= 3 ? 3 : 2;
  return labels.slice(-keep).join(".");
}

/** Whether a link stays on the page's own site (a relative address, or a host of the same site). */
export function isInternal(href: string, sites: Set<string>): boolean {
  const target = href.trim();
  if (target.startsWith("//")) return sites.has(siteOf(`http:${target}`) ?? "");
  if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) return true;
  if (!/^https?:/i.test(target)) return false;
  const site = siteOf(target);
  return !!site && sites.has(site);
}

/** A unit of prose: 80 characters or more (a Han character counting twice), under a third of it links. */
export function isProse(el: ElementNode): boolean {
  const length = textLength(el);
  if (length < PROSE_LENGTH / 2 || linkDensity(el) >= PROSE_LINK_DENSITY) return false;
  return holdsSentence(el, length);
}

export const PROSE_LENGTH = 80;

const PROSE_LINK_DENSITY = 0.3;

export const PROSE_TAGS = new Set(["p", "li", "blockquote", "pre", "td", "dd"]);

export function endsProse(node: TreeNode): boolean {
  if (typeof node === "string") return node.trim().length >= PROSE_LENGTH;
  if (!isProse(node)) return false;
  if (PROSE_TAGS.has(node.tag)) return true;
  for (const d of descendants(node)) if (PROSE_TAGS.has(d.tag) && isProse(d)) return true;
  return false;
}

export const MAX_TAIL_DEPTH = 50;

export const FILE_LINK = /\.(pdf|docx?|xlsx?|pptx?|odt|zip|mp3|mp4|jpe?g|png|gif)(?:[?#]|$)/i;

/** The last child of `el` holding text, or null when loose text (or nothing) comes last. */
export function lastChildWithText(el: ElementNode): ElementNode | null {
  for (let i = el.children.length - 1; i >= 0; i--) {
    const child = el.children[i]!;
    if (typeof child === "string") {
      if (child.trim()) return null;
      continue;
    }
    if (textLength(child) > 0) return child;
  }
  return null;
}

/** The element next to `el` in direction `step` (1 after it, -1 before it) with only whitespace between, or null. */
export function adjacentElement(el: ElementNode, step: 1 | -1): ElementNode | null {
  const siblings = el.parent?.children ?? [];
  for (let i = indexIn(siblings, el) + step; i >= 0 && i < siblings.length; i += step) {
    const s = siblings[i]!;
    if (typeof s !== "string") return s;
    if (s.trim()) return null;
  }
  return null;
}

/** `text` as a regular expression that matches it literally (its special characters escaped). */
export function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
