// A pager (links numbered 1, 2, 3, ...) ends the page's part of the article.

import {
  cutFrom,
  type ElementNode,
  findAll,
  findDescendant,
  hasAncestor,
  innerText,
  linkTextLength,
  textLength,
} from "../html-tree";
import { isProse, PHRASING, PROSE_LENGTH, PROSE_TAGS } from "../predicates";

/**
 * A pager: a block whose numbered links count 1, 2, 3, ... in order (three or more, the current page's number
 * perhaps not a link; other links such as "next" aside) and whose text is its links' and a few characters more.
 */
function isPager(el: ElementNode): boolean {
  if (el.tag === "a" || (PHRASING.has(el.tag) && el.tag !== "span")) return false;
  // Nothing but the pager's own words: its text is its links' and a few more characters (cached: checked first).
  const length = textLength(el);
  if (length === 0 || length - linkTextLength(el) >= PAGER_OWN_TEXT) return false;
  const links = findAll(el, "a");
  if (links.length < PAGER_LINKS) return false;
  // A code listing's line numbers count 1, 2, 3 as links too.
  if (
    findDescendant(el, (d) => d.tag === "pre" || d.tag === "code") ||
    hasAncestor(el, "pre", 0) ||
    hasAncestor(el, "code", 0)
  )
    return false;
  let expected = 1;
  let numbered = 0;
  for (const link of links) {
    const text = innerText(link);
    if (!/^\d{1,3}$/.test(text)) continue;
    if (Number(text) === expected) {
      numbered++;
      expected++;
    } else if (Number(text) === expected + 1 && expected === 1) {
      // the current page (1) is often not a link
      numbered++;
      expected += 2;
    } else return false;
  }
  return numbered >= PAGER_LINKS - 1;
}
const PAGER_LINKS = 3;
const PAGER_OWN_TEXT = 20;

/**
 * A pager ends the page's part of an article (a story split over pages, a list over pages): what follows it in
 * the chosen block (a notice, a rating, other stories) goes, with the pager. Only when a unit of prose comes
 * before it (a pager above the article ends nothing).
 */
export function cutAtPager(content: ElementNode): void {
  const pager = findDescendant(content, isPager);
  if (!pager || !proseBefore(content, pager)) return;
  cutFrom(pager, content);
}

/** Whether a unit of prose (isProse) comes before `el` in the block, in document order. */
function proseBefore(content: ElementNode, el: ElementNode): boolean {
  let stop = false;
  const walk = (node: ElementNode): boolean => {
    for (const child of node.children) {
      if (typeof child === "string") continue;
      if (child === el) {
        stop = true;
        return false;
      }
      if (PROSE_TAGS.has(child.tag) && isProse(child)) return true;
      if (walk(child)) return true;
      if (stop) return false;
    }
    return false;
  };
  return walk(content);
}

/** Whether any text node under `el` is as long as a sentence (PROSE_LENGTH characters, whitespace collapsed). */
export function hasSentence(el: ElementNode): boolean {
  for (const child of el.children) {
    if (typeof child === "string") {
      if (child.length >= PROSE_LENGTH && innerText(child).length >= PROSE_LENGTH) return true;
    } else if (hasSentence(child)) return true;
  }
  return false;
}
