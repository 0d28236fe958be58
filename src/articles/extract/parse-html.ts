// Parsing a page into the lean tree (html-tree.ts): htmlparser2 tokenizes the page, decodes character
// references (through `entities`, every one of HTML's named references) and applies HTML's implied end tags
// (p before a block, li before li, td before td, ...); the tree is built from its callbacks, keeping only
// elements and text (measured against htmlparser2's own DOM and parse5 in docs/extraction.md). Then what
// browsers do after parsing that the article depends on: content after `</body>` moved into the body,
// streamed segments put in their placeholders, the depth capped.
import { decodeHTML, decodeHTMLAttribute } from "entities";
import { type Handler, Parser, Tokenizer } from "htmlparser2";
import {
  createElement,
  type ElementNode,
  findDescendant,
  isElement,
  type ParsedDocument,
  type TreeNode,
  textLength,
} from "./html-tree";
import { repairMojibake } from "./mojibake";

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
  const builder = new TreeBuilder();
  // Character references are decoded here, not by the tokenizer: with decoding off it skips through text
  // and attribute values with a search for the next "<" or quote instead of a step per character (the
  // parse of the readability pages took a third less time), and most text holds no "&" at all.
  const parser = new Parser(builder, {
    lowerCaseTags: true,
    lowerCaseAttributeNames: true,
    decodeEntities: false,
    recognizeCDATA: false,
    Tokenizer: tokenizer,
  });
  parser.end(html);
  const { root, placeholders, segments, fallbackEnds } = builder;
  moveTrailingContentIntoBody(root);
  if (placeholders.length && segments.length && fillStreamedSegments(placeholders, segments, fallbackEnds))
    capDepth(root);
  return { root, jsonLd: builder.jsonLd };
}

/** The tree built from the parser's callbacks, which htmlparser2 calls as methods of this object. */
class TreeBuilder implements Partial<Handler> {
  readonly root = createElement("#document", {}, null);
  readonly jsonLd: string[] = [];
  current = this.root;
  depth = 0;
  // For each open element: entered (ENTERED), attached flat at MAX_DEPTH (FLAT), or not built at all (IGNORED:
  // an `<html>` or `<body>` start tag inside an open one).
  readonly entered: number[] = [];
  openHtml = 0;
  openBody = 0;
  script: string[] | null = null;
  inScripting = false;
  // The open raw-text element, if any: its text is not decoded.
  raw: string | null = null;
  // Streamed rendering (fillStreamedSegments): placeholder templates and hidden segments named "prefix:key".
  readonly placeholders: ElementNode[] = [];
  readonly fallbackEnds = new Map<ElementNode, number>();
  readonly segments: ElementNode[] = [];
  // The placeholder template whose fallback (the nodes after it) runs until the next comment in its parent.
  openFallback: ElementNode | null = null;

  onopentag(name: string, attribs: Record<string, string>): void {
    for (const key in attribs) {
      const value = attribs[key]!;
      if (value.includes("&")) attribs[key] = decodeHTMLAttribute(value);
    }
    // A second `<html>` or `<body>` inside an open one (a fragment pasted with its whole document) makes no
    // element, as in browsers (the HTML standard's "in body" mode only merges its attributes): its content
    // goes on in the element that is open, so a module of the article is not a second body of its own.
    if (name === "meta" && attribs.content) attribs.content = repairMojibake(attribs.content);
    if ((name === "body" && this.openBody > 0) || (name === "html" && this.openHtml > 0)) {
      this.entered.push(IGNORED);
      return;
    }
    if (name === "html") this.openHtml++;
    else if (name === "body") this.openBody++;
    if (RAW_TEXT.has(name)) this.raw = name;
    const node = createElement(name, attribs, this.current);
    this.current.children.push(node);
    if (attribs.id !== undefined && attribs.id.indexOf(":") > 0) {
      if (name === "template") {
        this.placeholders.push(node);
        this.openFallback = node;
      } else if ("hidden" in attribs) this.segments.push(node);
    }
    const enter = this.depth < MAX_DEPTH;
    this.entered.push(enter ? ENTERED : FLAT);
    if (enter) {
      this.current = node;
      this.depth++;
    }
    if (SCRIPTING.has(name)) {
      this.inScripting = true;
      this.script = name === "script" && /ld\+json/i.test(attribs.type ?? "") ? [] : null;
    }
  }

  onclosetag(name: string): void {
    if (name === this.raw) this.raw = null;
    if (SCRIPTING.has(name) && this.inScripting) {
      if (this.script) this.jsonLd.push(repairMojibake(this.script.join("")));
      this.script = null;
      this.inScripting = false;
    }
    const how = this.entered.pop();
    if (how === IGNORED) return;
    if (name === "html") this.openHtml--;
    else if (name === "body") this.openBody--;
    if (how !== ENTERED) return;
    if (this.current.parent) {
      this.current = this.current.parent;
      this.depth--;
    }
  }

  oncomment(): void {
    // A comment closes the fallback of the placeholder before it in the same parent.
    if (this.openFallback && this.openFallback.parent === this.current) {
      this.fallbackEnds.set(this.openFallback, this.current.children.length);
      this.openFallback = null;
    }
  }

  ontext(text: string): void {
    if (this.inScripting) {
      this.script?.push(text);
      return;
    }
    // Text is decoded here (references, then text encoded twice: mojibake.ts); raw text stays as written.
    if (!this.raw) text = repairMojibake(text.includes("&") ? decodeHTML(text) : text);
    const children = this.current.children;
    const last = children[children.length - 1];
    if (typeof last === "string") children[children.length - 1] = last + text;
    else children.push(text);
  }
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
