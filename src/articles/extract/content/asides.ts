// Asides that are boxed parts of the article (a note, a tip, a list of the article's own words), kept when
// footers, navigation and other asides go.

import {
  type ElementNode,
  findAll,
  findDescendant,
  hasAncestor,
  isElement,
  linkTextLength,
  textContent,
  textLength,
} from "../html-tree";
import { HEADING_TAGS, linkDensity, MEDIA_ELEMENTS } from "../predicates";
import { countMatches } from "./dated-streams";
import { heldByProse, SENTENCE_ENDS } from "./prose";
import { LIST_TAGS } from "./tags";

export const ASIDE_PROSE = 3;

/**
 * A boxed note of the article (a tip, a reminder): an aside that is one paragraph of prose of two sentences or
 * more, with no link, heading, picture or control in it. A box of links, a titled box or a one-line sponsor's
 * notice is not one.
 */
export function isAsideNote(el: ElementNode): boolean {
  if (linkTextLength(el) > 0 || findDescendant(el, (d) => ASIDE_NOTE_EXCLUDED.has(d.tag))) return false;
  if (!heldByProse(el, textLength(el), 1)) return false;
  return countMatches(textContent(el), SENTENCE_ENDS, ASIDE_NOTE_SENTENCES) >= ASIDE_NOTE_SENTENCES;
}
const ASIDE_NOTE_SENTENCES = 2;

/**
 * A boxed list of the article (a recipe's ingredients, the key points): an aside whose lists hold three items or
 * more and most of its text (ASIDE_LIST_SHARE), links under half of it (a box of links to other pages is a
 * menu), and no picture or control.
 */
export function isAsideList(el: ElementNode): boolean {
  const length = textLength(el);
  if (!length || linkDensity(el) >= ASIDE_LIST_DENSITY) return false;
  if (findDescendant(el, (d) => ASIDE_LIST_EXCLUDED.has(d.tag))) return false;
  let items = 0;
  let inLists = 0;
  for (const list of findAll(el, LIST_TAGS)) {
    if (hasAncestor(list, "li", 0)) continue;
    inLists += textLength(list);
    for (const item of list.children) if (isElement(item) && item.tag === "li" && textLength(item) > 0) items++;
  }
  return items >= ASIDE_LIST_ITEMS && inLists >= length * ASIDE_LIST_SHARE;
}
/** What no boxed note or list of the article holds: a picture, a player or a control. */
const ASIDE_LIST_EXCLUDED = new Set([...MEDIA_ELEMENTS, "form", "button", "input"]);
/** Besides, a boxed note has no heading (a titled box is not a note). */
const ASIDE_NOTE_EXCLUDED = new Set([...HEADING_TAGS, ...ASIDE_LIST_EXCLUDED]);
const ASIDE_LIST_ITEMS = 3;
const ASIDE_LIST_SHARE = 0.6;
const ASIDE_LIST_DENSITY = 0.5;
