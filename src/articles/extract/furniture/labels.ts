// Labels left in the article: a slot's ("Advertisement"), headings with nothing after them (the title of a
// box cleaning emptied), and a label shown twice in a row. Removed after cleaning.

import { type ElementNode, findDescendant, isElement, removeNode, textContent, textLength } from "../html-tree";
import {
  HEADING_TAGS,
  hasAncestorNode,
  hasMedia,
  isHeading,
  lastChildWithText,
  MAX_TAIL_DEPTH,
  PHRASING,
} from "../predicates";
import { EDGE_OPAQUE, wordCount } from "./datelines";

/**
 * A slot's label: a block that held an empty slot for a script to fill (an advertisement) and is left with
 * nothing but a short label ("Advertisement", "Article continues below"): a few words, no link. A heading may be
 * that label (the title of a form or a player the script fills: "Register"), but not the holder itself.
 */
export function removeSlotLabels(content: ElementNode, holders: Set<ElementNode>): void {
  for (const holder of holders) {
    if (holder === content || !holder.parent || !hasAncestorNode(holder, content)) continue;
    const length = textLength(holder);
    if (length === 0 || length > SLOT_LABEL_LENGTH) continue;
    if (wordCount(holder) > SLOT_LABEL_WORDS) continue;
    if (findDescendant(holder, (d) => d.tag === "a") || isHeading(holder)) continue;
    removeNode(holder);
  }
}

const SLOT_LABEL_LENGTH = 30;

const SLOT_LABEL_WORDS = 3;

/**
 * Headings at the very end of the article, with nothing after them: the titles of boxes that cleaning
 * emptied ("Related posts", "Share this"). The last element holding text is followed down, level by level.
 */
export function removeTrailingHeadings(content: ElementNode): void {
  for (let round = 0; round < TRAILING_HEADINGS; round++) {
    let el = content;
    let last: ElementNode | null = null;
    for (let depth = 0; depth < MAX_TAIL_DEPTH; depth++) {
      last = lastChildWithText(el);
      if (
        !last ||
        HEADING_TAGS.has(last.tag) ||
        isLeadIn(last) ||
        (isShortLabel(last) && last.children.every((c) => !isElement(c) || PHRASING.has(c.tag)))
      )
        break;
      el = last;
    }
    if (!last?.parent || textLength(last) > TRAILING_HEADING_LENGTH) return;
    // A line introducing what is no longer there ("Related posts:", "Tags:") ends nothing, nor does a heading
    // with no text after it, unless right after another (its box or list was cleaned away); a short label goes when it is the title of an
    // emptied box, all its parent holds, or when only pictures follow it.
    const emptiedBox =
      (HEADING_TAGS.has(last.tag) || isShortLabel(last)) &&
      ((last.parent !== content && textLength(last.parent) === textLength(last)) ||
        mediaAfter(last) ||
        loneHeading(last));
    if (!isLeadIn(last) && !emptiedBox) return;
    // Only after an article: a page of headings and pictures keeps its headings.
    if (textLength(content) - textLength(last) < TRAILING_HEADING_AFTER) return;
    removeNode(last);
  }
}

const TRAILING_HEADINGS = 10;

/** A heading not right after another heading: empty headings in a row are an outline, not a box's title. */
function loneHeading(el: ElementNode): boolean {
  if (!HEADING_TAGS.has(el.tag)) return false;
  const siblings = el.parent?.children ?? [];
  for (let i = siblings.indexOf(el) - 1; i >= 0; i--) {
    const sib = siblings[i]!;
    if (typeof sib === "string") {
      if (sib.trim()) return true;
      continue;
    }
    if (textLength(sib) > 0) return !HEADING_TAGS.has(sib.tag);
  }
  return true;
}

/** Whether pictures, and no text, follow an element to the end of its parent (a "Pin this" heading over its image). */
function mediaAfter(el: ElementNode): boolean {
  const siblings = el.parent?.children ?? [];
  for (let i = siblings.indexOf(el) + 1; i < siblings.length; i++) {
    const sib = siblings[i]!;
    if (isElement(sib) && hasMedia(sib)) return true;
  }
  return false;
}

/** At most four words: "What others are reading" (five took a readability page's closing line). */
export const SHORT_LABEL_WORDS = 4;
const SHORT_LABEL_LENGTH = 30;

/** A few words: at most SHORT_LABEL_LENGTH characters and SHORT_LABEL_WORDS words (a label, a caption). */
export const fewWords = (el: ElementNode) => textLength(el) <= SHORT_LABEL_LENGTH && wordCount(el) <= SHORT_LABEL_WORDS;

/** A label of a few words (a box's title or a button's caption), not a heading. */
function isShortLabel(el: ElementNode): boolean {
  if (!fewWords(el)) return false;
  // A list's last item or a table's last row is the list's, not a label.
  for (let up: ElementNode | null = el; up; up = up.parent) if (EDGE_OPAQUE.has(up.tag)) return false;
  return true;
}

/** A short line ending in a colon: it introduces what follows it. */
export function isLeadIn(el: ElementNode): boolean {
  return textLength(el) <= TRAILING_HEADING_LENGTH && /[:：]\s*$/.test(textContent(el));
}

export const TRAILING_HEADING_LENGTH = 100;

const TRAILING_HEADING_AFTER = 500;

/**
 * A label shown twice in a row (once on screen, once again for screen readers: "Article continues below"):
 * two consecutive lines, each a block of phrasing only, with the same short text of a few words, no link and no
 * heading. Both go: an article does not repeat a short line straight after itself.
 */
export function removeDoubledLabels(content: ElementNode): void {
  const doubled: ElementNode[] = [];
  let previous: ElementNode | null = null;
  let previousText = "";
  const stack: ElementNode[] = [content];
  while (stack.length) {
    const el = stack.pop()!;
    if (textLength(el) === 0) continue;
    // A table's cells and a list's items repeat short values ("Yes", "Yes"): not lines.
    if (EDGE_OPAQUE.has(el.tag)) {
      previous = null;
      continue;
    }
    if (el === content || el.children.some((c) => isElement(c) && !PHRASING.has(c.tag) && textLength(c) > 0)) {
      for (let i = el.children.length - 1; i >= 0; i--) {
        const c = el.children[i]!;
        if (isElement(c)) stack.push(c);
      }
      continue;
    }
    // A line: a block holding phrasing only.
    const text = isLabelLine(el) ? textContent(el).toLowerCase().replace(/\s+/g, " ").trim() : "";
    if (text && previous && text === previousText) doubled.push(previous, el);
    previous = el;
    previousText = text;
  }
  for (const el of doubled) if (el.parent) removeNode(el);
}

/** A short line of a few words, no link, not a heading. */
function isLabelLine(el: ElementNode): boolean {
  if (!fewWords(el) || isHeading(el) || PHRASING.has(el.tag)) return false;
  return !findDescendant(el, (d) => d.tag === "a" || isHeading(d));
}

export const BOLD = new Set(["strong", "b"]);

/** A box's title: a heading, or a paragraph all in bold (a heading drawn without heading markup). */
export const isTitle = (el: ElementNode) => isHeading(el) || (el.tag === "p" && whollyBold(el));

/** Whether all of an element's words are bold: a heading drawn without heading markup. */
export function whollyBold(el: ElementNode): boolean {
  return whollyStyled(el, BOLD);
}

/** Whether all of an element's words are inside elements of `tags` (bold, italics). */
export function whollyStyled(el: ElementNode, tags: Set<string>, inside = false): boolean {
  for (const child of el.children) {
    if (typeof child === "string") {
      if (!inside && /[\p{L}\p{N}]/u.test(child)) return false;
      continue;
    }
    if (!whollyStyled(child, tags, inside || tags.has(child.tag))) return false;
  }
  return inside || textLength(el) > 0;
}
