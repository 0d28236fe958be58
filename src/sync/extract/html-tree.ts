// A small document tree built the way browsers mostly do: a stack of open elements with the HTML standard's
// common implied end tags (p before a block, li before li, td before td, ...), character references decoded.
import { decodeEntities } from "./entities";

export interface ElementNode {
  tag: string;
  attrs: Record<string, string>;
  children: TreeNode[];
  parent: ElementNode | null;
}
export type TreeNode = ElementNode | string;

export const VOID_TAGS = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "param",
  "source",
  "track",
  "wbr",
]);

/** Start tags that close an open `<p>` (HTML standard, "in body" insertion mode). */
const CLOSES_P = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "center",
  "details",
  "dialog",
  "dir",
  "div",
  "dl",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "form",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hgroup",
  "hr",
  "main",
  "menu",
  "nav",
  "ol",
  "p",
  "pre",
  "section",
  "summary",
  "table",
  "ul",
  "li",
  "dd",
  "dt",
  "listing",
]);
const HEADINGS = new Set(["h1", "h2", "h3", "h4", "h5", "h6"]);

export function isElement(node: TreeNode): node is ElementNode {
  return typeof node !== "string";
}

function closeUpTo(stack: ElementNode[], index: number): void {
  stack.length = index;
}

/** Index in the stack of the nearest open `tag`, not looking past any of `boundaries`; -1 when none. */
function findOpen(stack: ElementNode[], tags: Set<string> | string, boundaries: Set<string>): number {
  for (let i = stack.length - 1; i > 0; i--) {
    const tag = stack[i]!.tag;
    if (typeof tags === "string" ? tag === tags : tags.has(tag)) return i;
    if (boundaries.has(tag)) return -1;
  }
  return -1;
}

const P_SCOPE = new Set([
  "button",
  "table",
  "td",
  "th",
  "caption",
  "html",
  "body",
  "object",
  "marquee",
  "applet",
  "template",
]);
const LIST_SCOPE = new Set(["ul", "ol", "menu", "table", "td", "th", "body", "html"]);
const DL_SCOPE = new Set(["dl", "table", "td", "th", "body", "html"]);
const TABLE_SCOPE = new Set(["table", "html", "body"]);
const ROW_SCOPE = new Set(["tr", "table", "html", "body"]);
const CELLS = new Set(["td", "th"]);
const SECTIONS = new Set(["thead", "tbody", "tfoot"]);
const DT_DD = new Set(["dt", "dd"]);

function applyImpliedEnds(stack: ElementNode[], tag: string): void {
  if (CLOSES_P.has(tag)) {
    const p = findOpen(stack, "p", P_SCOPE);
    if (p > 0) closeUpTo(stack, p);
  }
  if (tag === "li") {
    const li = findOpen(stack, "li", LIST_SCOPE);
    if (li > 0) closeUpTo(stack, li);
  } else if (tag === "dt" || tag === "dd") {
    const item = findOpen(stack, DT_DD, DL_SCOPE);
    if (item > 0) closeUpTo(stack, item);
  } else if (HEADINGS.has(tag)) {
    const top = stack[stack.length - 1];
    if (top && HEADINGS.has(top.tag)) stack.pop();
  } else if (tag === "tr") {
    const row = findOpen(stack, "tr", TABLE_SCOPE);
    if (row > 0) closeUpTo(stack, row);
  } else if (CELLS.has(tag)) {
    const cell = findOpen(stack, CELLS, ROW_SCOPE);
    if (cell > 0) closeUpTo(stack, cell);
  } else if (SECTIONS.has(tag)) {
    const section = findOpen(stack, SECTIONS, TABLE_SCOPE);
    if (section > 0) closeUpTo(stack, section);
  } else if (tag === "a") {
    const a = findOpen(stack, "a", P_SCOPE);
    if (a > 0) closeUpTo(stack, a);
  } else if (tag === "option") {
    const top = stack[stack.length - 1];
    if (top?.tag === "option") stack.pop();
  }
}

export interface ParsedDocument {
  root: ElementNode;
  /** Bodies of `<script type="application/ld+json">`, raw. */
  jsonLd: string[];
}

/** Elements whose content is raw text up to their own end tag (no markup inside). */
const RAW_CONTENT = new Set([
  "script",
  "style",
  "textarea",
  "title",
  "xmp",
  "iframe",
  "noembed",
  "noframes",
  "noscript",
  "template",
  "plaintext",
]);
const START_TAG = /<([A-Za-z][^\s/>]*)/y;
const ATTRIBUTE = /[\s/]*(?:([^\s"'>/=][^\s"'>/=]*)(?:\s*=\s*(?:"([^"]*)"?|'([^']*)'?|([^\s>]*)))?)?/y;
const END_TAG = /<\/([A-Za-z][^\s/>]*)[^>]*>?/y;

/**
 * Parses an HTML string into a tree. A small tokenizer in plain JavaScript: we measured HTMLRewriter with an
 * element and text handler on `*` at about 7 µs per callback in workerd (60 ms for a 300 kB news page before
 * any work is done), which alone would be twice the time the whole peer extraction takes. HTMLRewriter stays
 * where it fits, selecting a few elements out of a page (feed autodiscovery, index links).
 */
export function parseHtml(html: string): ParsedDocument {
  const root: ElementNode = { tag: "#document", attrs: {}, children: [], parent: null };
  const stack: ElementNode[] = [root];
  const jsonLd: string[] = [];
  const length = html.length;
  const rawClosers = new Map<string, RegExp>();

  const appendText = (raw: string) => {
    if (!raw) return;
    const text = raw.includes("&") ? decodeEntities(raw) : raw;
    const parent = stack[stack.length - 1]!;
    const last = parent.children[parent.children.length - 1];
    if (typeof last === "string") parent.children[parent.children.length - 1] = last + text;
    else parent.children.push(text);
  };

  const closeTag = (tag: string) => {
    for (let i = stack.length - 1; i > 0; i--) {
      const open = stack[i]!.tag;
      if (open === tag) {
        closeUpTo(stack, i);
        return;
      }
      // An end tag does not close past a table or a cell it is not part of.
      if (
        (open === "table" || open === "td" || open === "th") &&
        tag !== "table" &&
        !CELLS.has(tag) &&
        tag !== "tr" &&
        !SECTIONS.has(tag)
      )
        return;
    }
  };

  let i = 0;
  while (i < length) {
    const lt = html.indexOf("<", i);
    if (lt < 0) {
      appendText(html.slice(i));
      break;
    }
    if (lt > i) appendText(html.slice(i, lt));
    const next = html.charCodeAt(lt + 1);
    if (next === 33 /* ! */) {
      if (html.startsWith("<!--", lt)) {
        const end = html.indexOf("-->", lt + 4);
        i = end < 0 ? length : end + 3;
      } else if (html.startsWith("<![CDATA[", lt)) {
        const end = html.indexOf("]]>", lt + 9);
        appendText(html.slice(lt + 9, end < 0 ? length : end));
        i = end < 0 ? length : end + 3;
      } else {
        const end = html.indexOf(">", lt + 2);
        i = end < 0 ? length : end + 1;
      }
      continue;
    }
    if (next === 63 /* ? */) {
      const end = html.indexOf(">", lt + 2);
      i = end < 0 ? length : end + 1;
      continue;
    }
    if (next === 47 /* / */) {
      END_TAG.lastIndex = lt;
      const match = END_TAG.exec(html);
      if (!match) {
        appendText("</");
        i = lt + 2;
        continue;
      }
      i = END_TAG.lastIndex;
      const tag = match[1]!.toLowerCase();
      if (tag === "br") continue;
      closeTag(tag);
      continue;
    }
    START_TAG.lastIndex = lt;
    const start = START_TAG.exec(html);
    if (!start) {
      appendText("<");
      i = lt + 1;
      continue;
    }
    const tag = start[1]!.toLowerCase();
    let pos = START_TAG.lastIndex;
    const attrs: Record<string, string> = {};
    let selfClosing = false;
    for (;;) {
      ATTRIBUTE.lastIndex = pos;
      const attr = ATTRIBUTE.exec(html);
      if (!attr || ATTRIBUTE.lastIndex === pos) break;
      pos = ATTRIBUTE.lastIndex;
      if (!attr[1]) break;
      const name = attr[1].toLowerCase();
      if (!(name in attrs)) {
        const value = attr[2] ?? attr[3] ?? attr[4] ?? "";
        attrs[name] = value.includes("&") ? decodeEntities(value, true) : value;
      }
    }
    const gt = html.indexOf(">", pos);
    if (gt < 0) break;
    selfClosing = html.charCodeAt(gt - 1) === 47;
    i = gt + 1;
    applyImpliedEnds(stack, tag);
    const parent = stack[stack.length - 1]!;
    const node: ElementNode = { tag, attrs, children: [], parent };
    parent.children.push(node);
    if (VOID_TAGS.has(tag)) continue;
    if (RAW_CONTENT.has(tag)) {
      const closer = rawClosers.get(tag) ?? new RegExp(`</${tag}`, "gi");
      rawClosers.set(tag, closer);
      closer.lastIndex = i;
      const close = closer.exec(html)?.index ?? -1;
      const end = close < 0 ? length : close;
      const body = html.slice(i, end);
      if (tag === "title" || tag === "textarea") node.children.push(decodeEntities(body));
      else if (tag === "script" && /ld\+json/i.test(attrs.type ?? "")) jsonLd.push(body);
      const gtEnd = close < 0 ? length : html.indexOf(">", close);
      i = gtEnd < 0 ? length : gtEnd + 1;
      continue;
    }
    // `<x/>` on an HTML element is ignored by browsers; on SVG and MathML children it closes the element.
    if (selfClosing && (tag.includes(":") || stack.some((el) => el.tag === "svg" || el.tag === "math"))) continue;
    stack.push(node);
  }
  return { root, jsonLd };
}

// ---------------------------------------------------------------------------------------------------------
// Tree helpers

/** Every element under `node`, in document order. */
export function descendants(node: ElementNode): ElementNode[] {
  const out: ElementNode[] = [];
  const stack: ElementNode[] = [node];
  while (stack.length) {
    const current = stack.pop()!;
    if (current !== node) out.push(current);
    for (let i = current.children.length - 1; i >= 0; i--) {
      const child = current.children[i]!;
      if (typeof child !== "string") stack.push(child);
    }
  }
  return out;
}

export function findFirst(node: ElementNode, tag: string): ElementNode | null {
  return descendants(node).find((el) => el.tag === tag) ?? null;
}

export function findAll(node: ElementNode, tags: Set<string> | string): ElementNode[] {
  return descendants(node).filter(typeof tags === "string" ? (el) => el.tag === tags : (el) => tags.has(el.tag));
}

// Text of a subtree is asked for again and again while scoring and cleaning; it is cached per element and
// the cache of an element and its ancestors is dropped whenever the tree under it changes.
const rawTextCache = new WeakMap<ElementNode, string>();
const innerTextCache = new WeakMap<ElementNode, string>();
const linkTextCache = new WeakMap<ElementNode, number>();
const lengthCache = new WeakMap<ElementNode, number>();
const commaCache = new WeakMap<ElementNode, number>();

/** Drops cached text of `el` and every ancestor: call after changing `el.children`. */
export function invalidate(el: ElementNode | null): void {
  for (let current = el; current; current = current.parent) {
    // A cached ancestor implies a cached node (each value is built from its children's), so the first node
    // with none of them cached ends the walk. Every cache that is not derived from another one is asked.
    if (
      !rawTextCache.has(current) &&
      !linkTextCache.has(current) &&
      !lengthCache.has(current) &&
      !commaCache.has(current)
    )
      break;
    rawTextCache.delete(current);
    innerTextCache.delete(current);
    linkTextCache.delete(current);
    lengthCache.delete(current);
    commaCache.delete(current);
  }
}

/** All text under a node, as written (whitespace not collapsed). */
export function textContent(node: TreeNode): string {
  if (typeof node === "string") return node;
  const cached = rawTextCache.get(node);
  if (cached !== undefined) return cached;
  let text = "";
  for (const child of node.children) text += typeof child === "string" ? child : textContent(child);
  rawTextCache.set(node, text);
  return text;
}

/** Text under a node with whitespace collapsed, as a reader sees it. */
export function innerText(node: TreeNode): string {
  if (typeof node === "string") return collapseWhitespace(node);
  const cached = innerTextCache.get(node);
  if (cached !== undefined) return cached;
  const text = collapseWhitespace(textContent(node));
  innerTextCache.set(node, text);
  return text;
}

function textNodeLength(text: string): number {
  let length = 0;
  let space = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const isSpace = c === 32 || (c >= 9 && c <= 13) || c === 160;
    if (!isSpace) length++;
    else if (!space) length++;
    space = isSpace;
  }
  return space && length > 0 ? length - 1 : length;
}

/**
 * Length of the text under a node with whitespace runs counted once, summed over text nodes: within a
 * character or two of `innerText(node).length`, and cheap to keep for every element of a large page.
 */
export function textLength(node: TreeNode): number {
  if (typeof node === "string") return textNodeLength(node);
  const cached = lengthCache.get(node);
  if (cached !== undefined) return cached;
  let total = 0;
  for (const child of node.children) total += textLength(child);
  lengthCache.set(node, total);
  return total;
}

const COMMA = /[\u002C\u060C\uFE50\uFE10\uFE11\u2E41\u2E34\u2E32\uFF0C]/g;

/** Commas (of any script) in the text under a node. */
export function commaCount(node: TreeNode): number {
  if (typeof node === "string") return node.match(COMMA)?.length ?? 0;
  const cached = commaCache.get(node);
  if (cached !== undefined) return cached;
  let total = 0;
  for (const child of node.children) total += commaCount(child);
  commaCache.set(node, total);
  return total;
}

/** Length of the text inside links under a node; in-page links (`#...`) count for less. */
export function linkTextLength(node: ElementNode): number {
  const cached = linkTextCache.get(node);
  if (cached !== undefined) return cached;
  let total = 0;
  if (node.tag === "a") {
    const href = node.attrs.href ?? "";
    total = textLength(node) * (href.startsWith("#") && href.length > 1 ? 0.3 : 1);
  } else {
    for (const child of node.children) if (typeof child !== "string") total += linkTextLength(child);
  }
  linkTextCache.set(node, total);
  return total;
}

export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

export function removeNode(node: ElementNode): void {
  const parent = node.parent;
  if (!parent) return;
  const index = parent.children.indexOf(node);
  if (index >= 0) parent.children.splice(index, 1);
  invalidate(parent);
  node.parent = null;
}

export function replaceNode(node: ElementNode, replacement: ElementNode): void {
  const parent = node.parent;
  if (!parent) return;
  const index = parent.children.indexOf(node);
  if (index >= 0) parent.children[index] = replacement;
  invalidate(parent);
  replacement.parent = parent;
  node.parent = null;
}

export function hasAncestor(node: ElementNode, tag: string, maxDepth = 3): boolean {
  let current = node.parent;
  for (let depth = 0; current && (maxDepth <= 0 || depth < maxDepth); depth++) {
    if (current.tag === tag) return true;
    current = current.parent;
  }
  return false;
}
