// The document tree the extractor works on: htmlparser2 tokenizes the page, decodes character references
// (through `entities`, every one of HTML's named references) and applies HTML's implied end tags (p before a
// block, li before li, td before td, ...); we keep only a lean tree of its elements and text, which is what
// scoring and cleaning walk (measured against htmlparser2's own DOM and parse5 in docs/extraction.md).
import { decodeHTML, decodeHTMLAttribute } from "entities";
import { Parser, Tokenizer } from "htmlparser2";
import { repairMojibake } from "./mojibake";

export interface ElementNode {
  tag: string;
  attrs: Record<string, string>;
  children: TreeNode[];
  parent: ElementNode | null;
  /**
   * Caches of values derived from the subtree (text, its length, link text, commas), kept on the node:
   * scoring and cleaning ask for them again and again, and a property is several times cheaper than a
   * WeakMap lookup. `undefined` (or -1 for numbers) is "not known"; `invalidate` resets them.
   */
  rawText: string | undefined;
  text: string | undefined;
  length: number;
  linkLength: number;
  commas: number;
  /** The words of the class and id (signals.ts), computed once: attributes do not change. */
  words: string[] | undefined;
}
export type TreeNode = ElementNode | string;

export function isElement(node: TreeNode): node is ElementNode {
  return typeof node !== "string";
}

export interface ParsedDocument {
  root: ElementNode;
  /** Bodies of `<script type="application/ld+json">`, raw. */
  jsonLd: string[];
}

/** A new element with empty caches (every element is made here, so they all share one shape). */
export function createElement(
  tag: string,
  attrs: Record<string, string>,
  parent: ElementNode | null,
  children: TreeNode[] = [],
): ElementNode {
  return {
    tag,
    attrs,
    children,
    parent,
    rawText: undefined,
    text: undefined,
    length: -1,
    linkLength: -1,
    commas: -1,
    words: undefined,
  };
}

/**
 * The deepest an element may sit. Deeper start tags are attached at this depth, beside each other, as
 * browsers' parsers also do (Chromium caps its tree at 512): a page nested 10,000 deep would otherwise
 * overflow the stack of every recursive walk over the tree.
 */
export const MAX_DEPTH = 400;
const ENTERED = 1;
const FLAT = 0;
const IGNORED = 2;

/** Raw-text elements whose text is dropped from the tree (never shown); ld+json scripts are collected. */
const SCRIPTING = new Set(["script", "style"]);
/** Elements whose text HTML reads as written, character references included. */
const RAW_TEXT = new Set(["script", "style", "iframe", "noembed", "noframes", "xmp", "plaintext"]);

/**
 * htmlparser2's tokenizer, skipping ahead with the string's own search: when it waits for one character
 * (the "<" that ends a run of text, the quote that ends an attribute value, the "<" that may end a script)
 * the stock tokenizer steps through the text a character at a time in JavaScript; `indexOf` does the same
 * search natively. Parsing the readability pages took about a sixth less time. The method and the three
 * fields it uses are internal to htmlparser2 (pinned at 12.0.0 in package.json); a test parses pages with
 * both tokenizers and requires the same tree, so an upgrade that changes them is caught.
 */
export class FastTokenizer extends Tokenizer {}
interface TokenizerState {
  buffer: string;
  index: number;
  offset: number;
}
const CHARS = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c));
Object.defineProperty(FastTokenizer.prototype, "fastForwardTo", {
  value(this: TokenizerState, c: number): boolean {
    const at = this.buffer.indexOf(CHARS[c] ?? String.fromCharCode(c), this.index + 1 - this.offset);
    if (at >= 0) {
      this.index = at + this.offset;
      return true;
    }
    // As the stock method: the parse loop increments the index once more and stops at the buffer's end.
    this.index = this.buffer.length + this.offset - 1;
    return false;
  },
});

/**
 * Parses an HTML string into a tree. The tree is built from htmlparser2's callbacks (no intermediate DOM):
 * an HTMLRewriter with a handler on every element costs about 7 µs per callback in workerd, far too slow
 * for a whole page; HTMLRewriter stays where it fits, selecting a few elements out of a page.
 */
export function parseHtml(html: string, tokenizer: typeof Tokenizer = FastTokenizer): ParsedDocument {
  const root = createElement("#document", {}, null);
  const jsonLd: string[] = [];
  let current = root;
  let depth = 0;
  // For each open element: entered (ENTERED), attached flat at MAX_DEPTH (FLAT), or not built at all (IGNORED:
  // an `<html>` or `<body>` start tag inside an open one).
  const entered: number[] = [];
  let openHtml = 0;
  let openBody = 0;
  let script: string[] | null = null;
  let inScripting = false;
  // The open raw-text element, if any: its text is not decoded.
  let raw: string | null = null;
  // Streamed rendering (fillStreamedSegments): placeholder templates and hidden segments named "prefix:key".
  const placeholders: ElementNode[] = [];
  const fallbackEnds = new Map<ElementNode, number>();
  const segments: ElementNode[] = [];
  // The placeholder template whose fallback (the nodes after it) runs until the next comment in its parent.
  let openFallback: ElementNode | null = null;
  // Character references are decoded here, not by the tokenizer: with decoding off it skips through text
  // and attribute values with a search for the next "<" or quote instead of a step per character (the
  // parse of the readability pages took a third less time), and most text holds no "&" at all.
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        for (const key in attribs) {
          const value = attribs[key]!;
          if (value.includes("&")) attribs[key] = decodeHTMLAttribute(value);
        }
        // A second `<html>` or `<body>` inside an open one (a fragment pasted with its whole document) makes no
        // element, as in browsers (the HTML standard's "in body" mode only merges its attributes): its content
        // goes on in the element that is open, so a module of the article is not a second body of its own.
        if (name === "meta" && attribs.content) attribs.content = repairMojibake(attribs.content);
        if ((name === "body" && openBody > 0) || (name === "html" && openHtml > 0)) {
          entered.push(IGNORED);
          return;
        }
        if (name === "html") openHtml++;
        else if (name === "body") openBody++;
        if (RAW_TEXT.has(name)) raw = name;
        const node = createElement(name, attribs, current);
        current.children.push(node);
        if (attribs.id !== undefined && attribs.id.indexOf(":") > 0) {
          if (name === "template") {
            placeholders.push(node);
            openFallback = node;
          } else if ("hidden" in attribs) segments.push(node);
        }
        const enter = depth < MAX_DEPTH;
        entered.push(enter ? ENTERED : FLAT);
        if (enter) {
          current = node;
          depth++;
        }
        if (SCRIPTING.has(name)) {
          inScripting = true;
          script = name === "script" && /ld\+json/i.test(attribs.type ?? "") ? [] : null;
        }
      },
      onclosetag(name) {
        if (name === raw) raw = null;
        if (SCRIPTING.has(name) && inScripting) {
          if (script) jsonLd.push(repairMojibake(script.join("")));
          script = null;
          inScripting = false;
        }
        const how = entered.pop();
        if (how === IGNORED) return;
        if (name === "html") openHtml--;
        else if (name === "body") openBody--;
        if (how !== ENTERED) return;
        if (current.parent) {
          current = current.parent;
          depth--;
        }
      },
      oncomment() {
        // A comment closes the fallback of the placeholder before it in the same parent.
        if (openFallback && openFallback.parent === current) {
          fallbackEnds.set(openFallback, current.children.length);
          openFallback = null;
        }
      },
      ontext(text) {
        if (inScripting) {
          script?.push(text);
          return;
        }
        // Text is decoded here (references, then text encoded twice: mojibake.ts); raw text stays as written.
        if (!raw) text = repairMojibake(text.includes("&") ? decodeHTML(text) : text);
        const children = current.children;
        const last = children[children.length - 1];
        if (typeof last === "string") children[children.length - 1] = last + text;
        else children.push(text);
      },
    },
    {
      lowerCaseTags: true,
      lowerCaseAttributeNames: true,
      decodeEntities: false,
      recognizeCDATA: false,
      Tokenizer: tokenizer,
    },
  );
  parser.end(html);
  moveTrailingContentIntoBody(root);
  if (placeholders.length && segments.length && fillStreamedSegments(placeholders, segments, fallbackEnds))
    capDepth(root);
  return { root, jsonLd };
}

/**
 * What comes after `</body>` or `</html>` belongs to the body, as browsers read it (the HTML standard's
 * "after body" and "after after body" modes): a page that closes its body early (a template's stray
 * `</body></html>` before the article) still has its article in the body.
 */
function moveTrailingContentIntoBody(root: ElementNode): void {
  const html = root.children.find((c): c is ElementNode => isElement(c) && c.tag === "html");
  if (!html) return;
  const body = html.children.find((c): c is ElementNode => isElement(c) && c.tag === "body");
  if (!body) return;
  const trailing = [
    ...html.children.slice(html.children.indexOf(body) + 1),
    ...root.children.slice(root.children.indexOf(html) + 1),
  ];
  if (!trailing.some(isElement)) return;
  html.children.length = html.children.indexOf(body) + 1;
  root.children.length = root.children.indexOf(html) + 1;
  for (const node of trailing) {
    body.children.push(node);
    if (isElement(node)) node.parent = body;
  }
}

/**
 * Streamed rendering: a server that streams a page sends a placeholder first (an empty `<template>` with an
 * id, a short fallback such as "Loading..." after it, up to a comment) and the content later, in a `hidden`
 * element at the end of the body whose id has the same key after another prefix ("B:3" and "S:3"), and a
 * script moves the content into the placeholder's place. We do that move: the content takes the
 * placeholder's place, the fallback goes, and the article is read in its order instead of as hidden blocks.
 * `fallbackEnds` gives, for a placeholder whose fallback ends at a comment, the parent's child count there.
 */
function fillStreamedSegments(
  placeholders: ElementNode[],
  segments: ElementNode[],
  fallbackEnds: Map<ElementNode, number>,
): boolean {
  let filled = false;
  const byKey = new Map<string, ElementNode>();
  for (const segment of segments) {
    const id = segment.attrs.id!;
    byKey.set(id.slice(id.indexOf(":") + 1), segment);
  }
  // Placeholders are filled from the last to the first, so a fallback's recorded end still counts the
  // parent's children as parsed (a later placeholder in the same parent is filled first).
  for (let i = placeholders.length - 1; i >= 0; i--) {
    const template = placeholders[i]!;
    const id = template.attrs.id!;
    const colon = id.indexOf(":");
    const segment = byKey.get(id.slice(colon + 1));
    const parent = template.parent;
    if (!segment || !parent || segment.attrs.id!.slice(0, colon + 1) === id.slice(0, colon + 1)) continue;
    // A segment holding its own placeholder would be moved into itself.
    let inside = false;
    for (let p: ElementNode | null = parent; p && !inside; p = p.parent) inside = p === segment;
    if (inside) continue;
    const at = parent.children.indexOf(template);
    const end = fallbackEnds.get(template);
    let drop = 1;
    if (end !== undefined && end > at) drop = end - at;
    else {
      // Pages saved without their comments: the fallback is the next element when it is a short notice
      // or an empty skeleton (no heading, paragraph, link or list of its own).
      let next = at + 1;
      while (
        next < parent.children.length &&
        textLength(parent.children[next]!) === 0 &&
        !isElement(parent.children[next]!)
      )
        next++;
      const sibling = parent.children[next];
      if (sibling && isElement(sibling) && isFallback(sibling)) drop = next - at + 1;
    }
    const moved = segment.children;
    segment.children = [];
    for (const child of moved) if (isElement(child)) child.parent = parent;
    parent.children.splice(at, drop, ...moved);
    template.parent = null;
    byKey.delete(id.slice(colon + 1));
    filled = true;
  }
  return filled;
}

/**
 * The parser's depth cap, applied again after segments were moved: a segment's content moved into a placeholder
 * deep in another segment can chain past MAX_DEPTH (a crafted page of sixty chained segments overflowed the
 * stack of the recursive walks). An element at the cap keeps everything below it as its own children, side by
 * side and in document order, as the parser attaches elements deeper than the cap.
 */
function capDepth(root: ElementNode): void {
  const stack: [ElementNode, number][] = [[root, 0]];
  while (stack.length) {
    const [el, depth] = stack.pop()!;
    if (depth < MAX_DEPTH) {
      for (const child of el.children) if (isElement(child)) stack.push([child, depth + 1]);
      continue;
    }
    const flat: TreeNode[] = [];
    const pending: TreeNode[] = el.children.slice().reverse();
    while (pending.length) {
      const node = pending.pop()!;
      const last = flat[flat.length - 1];
      if (!isElement(node)) {
        if (typeof last === "string") flat[flat.length - 1] = last + node;
        else flat.push(node);
        continue;
      }
      for (let i = node.children.length - 1; i >= 0; i--) pending.push(node.children[i]!);
      if (node.children.length) {
        node.children = [];
        node.rawText = undefined;
        node.text = undefined;
        node.length = node.linkLength = node.commas = -1;
      }
      node.parent = el;
      flat.push(node);
    }
    el.children = flat;
  }
}

const NOT_FALLBACK = new Set(["h1", "h2", "h3", "h4", "h5", "h6", "p", "a", "li", "img", "picture", "figure", "table"]);

/** A placeholder's fallback: under 40 characters of text, and no content element of its own. */
function isFallback(el: ElementNode): boolean {
  return textLength(el) < 40 && !NOT_FALLBACK.has(el.tag) && !findDescendant(el, (d) => NOT_FALLBACK.has(d.tag));
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

/**
 * Visits every element under `node` in document order, without building an array of them; when `visit`
 * returns false, the element's subtree is skipped. Children are read after their parent's visit.
 */
export function walkElements(node: ElementNode, visit: (el: ElementNode) => boolean | undefined): void {
  const stack: ElementNode[] = [node];
  while (stack.length) {
    const current = stack.pop()!;
    if (current !== node && visit(current) === false) continue;
    for (let i = current.children.length - 1; i >= 0; i--) {
      const child = current.children[i]!;
      if (typeof child !== "string") stack.push(child);
    }
  }
}

/** The first element under `node` (in document order) that passes `test`; the walk stops there. */
export function findDescendant(node: ElementNode, test: (el: ElementNode) => boolean): ElementNode | null {
  const stack: ElementNode[] = [node];
  while (stack.length) {
    const current = stack.pop()!;
    if (current !== node && test(current)) return current;
    for (let i = current.children.length - 1; i >= 0; i--) {
      const child = current.children[i]!;
      if (typeof child !== "string") stack.push(child);
    }
  }
  return null;
}

export function findFirst(node: ElementNode, tag: string): ElementNode | null {
  return findDescendant(node, (el) => el.tag === tag);
}

export function findAll(node: ElementNode, tags: Set<string> | string): ElementNode[] {
  const out: ElementNode[] = [];
  const one = typeof tags === "string" ? tags : null;
  const set = typeof tags === "string" ? null : tags;
  const stack: ElementNode[] = [node];
  while (stack.length) {
    const current = stack.pop()!;
    if (current !== node && (one !== null ? current.tag === one : set!.has(current.tag))) out.push(current);
    for (let i = current.children.length - 1; i >= 0; i--) {
      const child = current.children[i]!;
      if (typeof child !== "string") stack.push(child);
    }
  }
  return out;
}

/** Drops cached text of `el` and every ancestor: call after changing `el.children`. */
export function invalidate(el: ElementNode | null): void {
  for (let current = el; current; current = current.parent) {
    // A cached ancestor implies a cached node (each value is built from its children's), so the first node
    // with none of them cached ends the walk. Every cache that is not derived from another one is asked.
    if (current.rawText === undefined && current.linkLength < 0 && current.length < 0 && current.commas < 0) break;
    current.rawText = undefined;
    current.text = undefined;
    current.linkLength = -1;
    current.length = -1;
    current.commas = -1;
  }
}

/** All text under a node, as written (whitespace not collapsed). */
export function textContent(node: TreeNode): string {
  if (typeof node === "string") return node;
  if (node.rawText !== undefined) return node.rawText;
  let text = "";
  for (const child of node.children) text += typeof child === "string" ? child : textContent(child);
  node.rawText = text;
  return text;
}

/** Text under a node with whitespace collapsed, as a reader sees it. */
export function innerText(node: TreeNode): string {
  if (typeof node === "string") return collapseWhitespace(node);
  if (node.text !== undefined) return node.text;
  const text = collapseWhitespace(textContent(node));
  node.text = text;
  return text;
}

/** HTML's whitespace (and the no-break space), as `textNodeLength` counts it. */
const ONLY_SPACE = /^[\t\n\v\f\r \u00a0]*$/;
/** A run of two or more of those characters. */
const SPACE_RUN = /[\t\n\v\f\r \u00a0]{2,}/g;

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 160;
}

/**
 * The length of a text node with each run of whitespace counted once and none at either end. Most text
 * nodes of a page are the indentation between tags (two thirds of the characters of the readability pages),
 * ruled out by one regular expression; in the others only the runs of two or more whitespace characters
 * are looked at, found by the regular expression engine (three times faster in workerd than a loop over
 * every character).
 */
function textNodeLength(text: string): number {
  const n = text.length;
  if (n === 0) return 0;
  const first = isSpace(text.charCodeAt(0));
  if (first && ONLY_SPACE.test(text)) return 0;
  let length = n;
  SPACE_RUN.lastIndex = 0;
  for (let run = SPACE_RUN.exec(text); run !== null; run = SPACE_RUN.exec(text)) length -= run[0].length - 1;
  // The text holds something else, so a run at the start and one at the end are two runs, and both go.
  if (first) length--;
  if (isSpace(text.charCodeAt(n - 1))) length--;
  return length;
}

/**
 * Length of the text under a node with whitespace runs counted once, summed over text nodes: within a
 * character or two of `innerText(node).length`, and cheap to keep for every element of a large page.
 */
export function textLength(node: TreeNode): number {
  if (typeof node === "string") return textNodeLength(node);
  if (node.length >= 0) return node.length;
  let total = 0;
  for (const child of node.children) total += typeof child === "string" ? textNodeLength(child) : textLength(child);
  node.length = total;
  return total;
}

const COMMA = /[\u002C\u060C\uFE50\uFE10\uFE11\u2E41\u2E34\u2E32\uFF0C]/g;

/** Commas (of any script) in the text under a node. */
export function commaCount(node: TreeNode): number {
  if (typeof node === "string") return node.match(COMMA)?.length ?? 0;
  if (node.commas >= 0) return node.commas;
  let total = 0;
  for (const child of node.children) total += commaCount(child);
  node.commas = total;
  return total;
}

/** Length of the text inside links under a node; in-page links (`#...`) count for less. */
export function linkTextLength(node: ElementNode): number {
  if (node.linkLength >= 0) return node.linkLength;
  let total = 0;
  if (node.tag === "a") {
    const href = node.attrs.href ?? "";
    // An anchor with no address inside a heading is the section's name (a table of contents points to it),
    // not a link to follow.
    if (node.attrs.href === undefined && inHeading(node)) total = 0;
    else total = textLength(node) * (href.startsWith("#") && href.length > 1 ? 0.3 : 1);
  } else {
    for (const child of node.children) if (typeof child !== "string") total += linkTextLength(child);
  }
  node.linkLength = total;
  return total;
}

/** The heading elements (here, below predicates.ts, which re-exports it: `linkTextLength` needs it). */
export const HEADING_TAGS = new Set(["h1", "h2", "h3", "h4", "h5", "h6"]);

/** Whether a heading holds `node`, at most two levels up (a heading's anchor, or the anchor in its bold run). */
function inHeading(node: ElementNode): boolean {
  const parent = node.parent;
  return !!parent && (HEADING_TAGS.has(parent.tag) || (!!parent.parent && HEADING_TAGS.has(parent.parent.tag)));
}

/**
 * The whitespace that collapsing changes: a run of two or more, or one character that is not a plain space.
 * Replaced by a space, it gives what `/\s+/g` would, but a lone space (most of them) is not a match, so
 * text that needs nothing is returned as it is instead of being rebuilt around every space.
 */
export const SPACE_TO_COLLAPSE = /\s{2,}|[^\S ]/g;

export function collapseWhitespace(text: string): string {
  return text.replace(SPACE_TO_COLLAPSE, " ").trim();
}

/**
 * Children beyond which an element's children are found through a map of their positions, and a removed
 * one leaves an empty text in its place instead of being cut out of the array: taking them out one by one
 * (a search and a shift of the array each) made a page of 100,000 removable siblings take 20 s. An empty
 * text is nothing to every rule (no length, no element).
 */
const WIDE = 64;
const positions = new WeakMap<TreeNode[], Map<ElementNode, number>>();

export function indexIn(children: TreeNode[], node: ElementNode): number {
  if (children.length <= WIDE) return children.indexOf(node);
  let map = positions.get(children);
  let index = map?.get(node);
  if (index !== undefined && children[index] === node) return index;
  // Built once per array, and again only when the array was changed behind the map's back.
  map = new Map();
  for (let i = 0; i < children.length; i++) {
    const child = children[i]!;
    if (isElement(child)) map.set(child, i);
  }
  positions.set(children, map);
  index = map.get(node);
  return index ?? -1;
}

/** Removes every sibling after `node` (elements and text), keeping `node`. */
export function removeFollowing(node: ElementNode): void {
  const parent = node.parent;
  if (!parent) return;
  const index = indexIn(parent.children, node);
  for (const sibling of parent.children.slice(index + 1)) if (isElement(sibling)) sibling.parent = null;
  parent.children = parent.children.slice(0, index + 1);
  invalidate(parent);
}

/** Removes `el` and everything after it inside `top`: what follows it at every level up to `top`'s children. */
export function cutFrom(el: ElementNode, top: ElementNode): void {
  for (let at: ElementNode = el; at !== top && at.parent; at = at.parent) removeFollowing(at);
  removeNode(el);
}

export function removeNode(node: ElementNode): void {
  const parent = node.parent;
  if (!parent) return;
  const children = parent.children;
  const index = indexIn(children, node);
  if (index >= 0) {
    if (children.length > WIDE) children[index] = "";
    else children.splice(index, 1);
  }
  invalidate(parent);
  node.parent = null;
}

export function replaceNode(node: ElementNode, replacement: ElementNode): void {
  const parent = node.parent;
  if (!parent) return;
  const children = parent.children;
  const index = indexIn(children, node);
  if (index >= 0) {
    children[index] = replacement;
    positions.get(children)?.set(replacement, index);
  }
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
