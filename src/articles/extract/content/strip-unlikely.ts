// The walk over the page in document order before scoring: hidden blocks, the byline, blocks named as page
// parts, forms and empty slots go; divs that are paragraphs become paragraphs; what is scored is collected.

import {
  descendants,
  type ElementNode,
  innerText,
  invalidate,
  type TreeNode,
  textContent,
  textLength,
} from "../html-tree";
import { hasMedia, linkDensity, PHRASING } from "../predicates";
import { BYLINE_WORDS, hasWord } from "../signals";

/**
 * A drop cap written as an element of its own (a block holding the first letter of the article, styled large,
 * and the paragraph after it opening with the rest of the word, "D" and "uring the pandemic"): a single capital
 * letter in an element with no picture, followed (past whitespace) by an element whose text opens with a small
 * letter. The letter is put back before that text; returns whether it was.
 */
export function joinDropCap(cap: ElementNode, siblings: TreeNode[], at: number): boolean {
  const letter = textContent(cap).trim();
  if (PHRASING.has(cap.tag) || !DROP_CAP.test(letter) || hasMedia(cap)) return false;
  let next: TreeNode | undefined;
  for (let j = at + 1; j < siblings.length && j <= at + DROP_CAP_GAP; j++) {
    const sibling = siblings[j]!;
    if (typeof sibling === "string" && sibling.trim() === "") continue;
    next = sibling;
    break;
  }
  if (!next || typeof next === "string") return false;
  // The first text under the next element, down its first children.
  let holder: ElementNode = next;
  for (let depth = 0; depth < DROP_CAP_DEPTH; depth++) {
    const index = holder.children.findIndex((c) => (typeof c === "string" ? c.trim() !== "" : textLength(c) > 0));
    if (index < 0) return false;
    const first = holder.children[index]!;
    if (typeof first !== "string") {
      holder = first;
      continue;
    }
    const start = first.length - first.trimStart().length;
    if (!/^\p{Ll}/u.test(first.slice(start))) return false;
    holder.children[index] = first.slice(0, start) + letter + first.slice(start);
    invalidate(holder);
    return true;
  }
  return false;
}
const DROP_CAP = /^\p{Lu}$/u;
const DROP_CAP_GAP = 3;
const DROP_CAP_DEPTH = 10;

/**
 * A block that holds prose in its own right: 1,500 characters or more in paragraphs, with few links. A
 * page-part name on such a block is a wrapper's (a theme's "branding" around the whole page), not a verdict.
 */
export function holdsProse(el: ElementNode): boolean {
  if (textLength(el) < 1500 || linkDensity(el) > 0.2) return false;
  let prose = 0;
  for (const d of descendants(el)) if (d.tag === "p") prose += textLength(d);
  return prose >= 1500;
}

/** A block marked up as a person (`itemtype` schema.org/Person, or `itemprop="author"`) of bio length. */
export function isPersonBox(el: ElementNode): boolean {
  if (PHRASING.has(el.tag)) return false;
  const { itemtype, itemprop } = el.attrs;
  if (itemtype === undefined && itemprop === undefined) return false;
  const marked = /schema\.org\/Person$/i.test(itemtype ?? "") || /(^|\s)author(\s|$)/i.test(itemprop ?? "");
  return marked && textLength(el) < 1000;
}

export function isByline(el: ElementNode): boolean {
  const rel = el.attrs.rel ?? "";
  const itemprop = el.attrs.itemprop ?? "";
  if (rel !== "author" && !itemprop.includes("author") && !hasWord(el, BYLINE_WORDS)) return false;
  const text = innerText(el);
  return text.length > 0 && text.length < 100;
}
