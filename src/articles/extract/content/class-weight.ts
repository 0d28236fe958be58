// What an element's class and id say about it: the pass's flags, the weight of its class words, and the score a
// container starts from before its paragraphs hand theirs up; and whether two blocks are of one kind by their
// class names.

import type { ElementNode } from "../html-tree";
import {
  attributeWords,
  BOILERPLATE_WORDS,
  CONTAINER_WORDS,
  idWords,
  inVocabulary,
  LEANING_BOILERPLATE_WORDS,
} from "../signals";

export interface Flags {
  stripUnlikely: boolean;
  weightClasses: boolean;
  cleanConditionally: boolean;
}

export function className(el: ElementNode): string {
  return el.attrs.class ?? "";
}

/**
 * Whether `pattern` (no `g` flag) matches the class or the id. Asked of the class and the id apart, not of the
 * two joined by a space: the same answer for a pattern whose match holds no whitespace and may begin or end at a
 * space or at either end, without building a string per element (the cleaning passes ask every element).
 */
export function classOrIdMatches(el: ElementNode, pattern: RegExp): boolean {
  const { class: cls, id } = el.attrs;
  return (cls !== undefined && pattern.test(cls)) || (id !== undefined && pattern.test(id));
}

export function classWeight(el: ElementNode, flags: Flags): number {
  if (!flags.weightClasses) return 0;
  let weight = 0;
  // Class and id count separately, as two statements the author made about the element.
  for (const words of [attributeWords(el.attrs.class), idWords(el)]) {
    if (words.some((w) => inVocabulary(w, LEANING_BOILERPLATE_WORDS))) weight -= 25;
    if (words.some((w) => CONTAINER_WORDS.has(w))) weight += 25;
  }
  return weight;
}

/**
 * Whether the words that weigh a block down are only the leaning ones ("header", "caption", "sidebar"...),
 * none of the words whose blocks are almost never article text ("comment", "related", "footer"...).
 */
export function onlyLeaning(el: ElementNode): boolean {
  for (const words of [attributeWords(el.attrs.class), idWords(el)])
    if (words.some((w) => inVocabulary(w, BOILERPLATE_WORDS))) return false;
  return true;
}

export function initialScore(el: ElementNode, flags: Flags): number {
  let score = 0;
  switch (el.tag) {
    case "div":
      score = 5;
      break;
    case "pre":
    case "td":
    case "blockquote":
      score = 3;
      break;
    case "address":
    case "ol":
    case "ul":
    case "dl":
    case "dd":
    case "dt":
    case "li":
    case "form":
      score = -3;
      break;
    case "h1":
    case "h2":
    case "h3":
    case "h4":
    case "h5":
    case "h6":
    case "th":
      score = -5;
      break;
  }
  return score + classWeight(el, flags);
}

/**
 * Whether `a` carries every class name of `b`, in any order, with names of its own besides, when `b` has
 * KIND_CLASSES names or more: one name alone is as often a layout's utility ("col", "mt-8") shared by unlike blocks.
 */
export function holdsClasses(a: ElementNode, b: ElementNode): boolean {
  const theirs = (b.attrs.class ?? "").split(/\s+/).filter(Boolean);
  if (theirs.length < KIND_CLASSES) return false;
  const mine = new Set((a.attrs.class ?? "").split(/\s+/));
  return theirs.every((c) => mine.has(c));
}
const KIND_CLASSES = 2;

/** Whether two elements share a class name (a part of a story body, "body body-1" and "body body-2"). */
export function sharesClass(a: ElementNode, b: ElementNode): boolean {
  const mine = (b.attrs.class ?? "").split(/\s+/).filter(Boolean);
  if (!mine.length) return false;
  return (a.attrs.class ?? "").split(/\s+/).some((c) => c && mine.includes(c));
}
