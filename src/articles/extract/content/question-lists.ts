// Questions and answers (an FAQ) after the article or in it: lists brought into the article, and accordion
// toggles that are lines of the text.

import {
  type ElementNode,
  findAll,
  findDescendant,
  invalidate,
  isElement,
  textContent,
  textLength,
} from "../html-tree";
import { adjacentElement, isHeading, isProse, linkDensity, PROSE_LENGTH } from "../predicates";
import { className } from "./class-weight";
import { nearlyOpeningLink, openingLink } from "./link-blocks";
import { PROSE_UNITS } from "./prose";

/**
 * Questions and answers after the article (an FAQ, often in a section of its own below the article's
 * column): a block following the chosen block, or one of its two ancestors below the body, that is a list
 * of three or more items of one kind (tag and class) with few links, three or more of them opening with a
 * short line holding a question mark (the question, not a link: cards of other stories open with their
 * headline link) and holding a paragraph of prose (the answer), the items making most of the list's text.
 */
export function questionListsAfter(candidate: ElementNode, body: ElementNode): ElementNode[] {
  const found: ElementNode[] = [];
  let level = 0;
  for (let a: ElementNode | null = candidate; a && a !== body && a.parent && level < QUESTION_LEVELS; a = a.parent) {
    level++;
    const kids = a.parent.children;
    for (let i = kids.indexOf(a) + 1; i < kids.length; i++) {
      const kid = kids[i]!;
      if (isElement(kid) && isQuestionList(kid)) found.push(kid);
    }
  }
  return found;
}
const QUESTION_LEVELS = 3;

function isQuestionList(el: ElementNode): boolean {
  const length = textLength(el);
  if (length < PROSE_LENGTH * 3 || linkDensity(el) > 0.3) return false;
  // The list is the block itself or a block inside holding most of its text (under a heading "FAQ"): at most
  // one child holds 80 % of a block's text, so this follows a single path down.
  for (let list: ElementNode | undefined = el; list; ) {
    if (hasQuestionItems(list)) return true;
    list = list.children.find((c): c is ElementNode => isElement(c) && textLength(c) * 10 >= length * 8);
  }
  return false;
}

function hasQuestionItems(list: ElementNode): boolean {
  // A heading over the items is the list's title ("FAQs"), not an item: the kind is the first other child's.
  const items = list.children.filter((c): c is ElementNode => isElement(c) && !isHeading(c));
  if (items.length < 3) return false;
  const first = items[0]!;
  const same = items.filter((item) => item.tag === first.tag && className(item) === className(first));
  // The items make most of the list's text (cheap, from cached lengths: most blocks fail here).
  if (same.length < 3 || same.reduce((sum, item) => sum + textLength(item), 0) * 10 < textLength(list) * 8)
    return false;
  let answered = 0;
  for (const item of same) {
    if (nearlyOpeningLink(item)) return false;
    const question = questionOf(item);
    if (
      question &&
      QUESTION_MARK.test(question) &&
      findAll(item, PROSE_UNITS).some((p) => isProse(p) && !openingLink(p))
    )
      answered++;
  }
  return answered >= 3;
}
const QUESTION_MARK = /[?？]/;

/** The first line of an item: its first child with text, looked into while that child holds all of the item's text. */
function questionOf(item: ElementNode): string | null {
  let el = item;
  for (;;) {
    const first = el.children.find((c) => (typeof c === "string" ? c.trim() !== "" : textLength(c) > 0));
    if (first === undefined) return null;
    if (typeof first === "string") return first.trim();
    if (textLength(first) >= textLength(el) - 1 && first.children.some(isElement)) {
      el = first;
      continue;
    }
    if (textLength(first) > QUESTION_LENGTH) return null;
    return textContent(first).trim();
  }
}
const QUESTION_LENGTH = 300;

/**
 * An accordion's question: a disclosure toggle (a button with `aria-expanded` or `aria-controls`) whose label is
 * a question (at most 200 characters, ending in a question mark) right before a block holding a unit of prose
 * (the answer) is a line of the text, not a control: it becomes a paragraph. A page's first 200 buttons.
 */
export function keepQuestionToggles(content: ElementNode): void {
  for (const button of findAll(content, "button").slice(0, 200)) {
    if (button.attrs["aria-expanded"] === undefined && button.attrs["aria-controls"] === undefined) continue;
    const label = textContent(button).trim();
    if (!label.endsWith("?") || label.length > 200) continue;
    // The answer follows the button, or the block the button alone fills (a paragraph wrapping it).
    let answer = adjacentElement(button, 1);
    for (let a = button, up = 0; !answer && a.parent && up < 2; a = a.parent, up++) {
      if (a.parent.children.some((c) => c !== a && (isElement(c) || c.trim()))) break;
      answer = adjacentElement(a.parent, 1);
    }
    if (!answer || !(isProse(answer) || findDescendant(answer, (d) => PROSE_UNITS.has(d.tag) && isProse(d)))) continue;
    button.tag = "p";
    invalidate(button);
  }
}

/** A heading that asks a question (a question list's item, its answer below it). */
export function isQuestion(heading: ElementNode): boolean {
  const text = textContent(heading).trim();
  return text.length <= QUESTION_LENGTH && QUESTION_MARK.test(text.slice(-1));
}
