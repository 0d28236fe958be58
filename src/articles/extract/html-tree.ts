// The lean document tree the extractor works on: elements and text only, with the values scoring and cleaning
// ask for again and again (text, its length, link text, commas) cached on each node, and the walks and edits
// they make. parse-html.ts builds it from a page.

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

/**
 * The one element child of `el` when it has no other element child and no text of its own (looked for among
 * at most WRAPPER_CHILDREN children: a wrapper holds its block and the blank text around it).
 */
export function soleElementChild(el: ElementNode): ElementNode | null {
  if (el.children.length > WRAPPER_CHILDREN) return null;
  let only: ElementNode | null = null;
  for (const child of el.children) {
    if (typeof child === "string") {
      if (child.trim()) return null;
    } else if (only) return null;
    else only = child;
  }
  return only;
}
const WRAPPER_CHILDREN = 16;
