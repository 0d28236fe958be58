// Dates and counts at the article's edges: a dateline ("Posted on <time> by …"), date lines at its head or
// tail, and counts at its head ("8 min read"). Furniture of the page, removed after cleaning.

import { type ElementNode, findDescendant, removeNode, textContent, textLength } from "../html-tree";
import { endsProse, HEADING_TAGS, isProse, PROSE_TAGS } from "../predicates";

/**
 * A dateline: the largest block of at most 80 characters around a `<time>` element (or an element carrying a
 * `datetime`), when that block is not part of a longer sentence (a time inside a paragraph's text stays).
 */
export function removeDatelines(content: ElementNode): void {
  const lines = new Set<ElementNode>();
  const stack: ElementNode[] = [content];
  while (stack.length) {
    const time = stack.pop()!;
    for (const c of time.children) if (typeof c !== "string") stack.push(c);
    if (time.tag !== "time" && time.attrs.datetime === undefined) continue;
    let line = time;
    while (line.parent && line.parent !== content && textLength(line.parent) <= DATELINE_LENGTH) line = line.parent;
    if (textLength(line) > DATELINE_LENGTH || inProse(line, content)) continue;
    lines.add(line);
  }
  for (const line of lines) if (line.parent) removeNode(line);
}

const DATELINE_LENGTH = 80;

/**
 * The short lines before the article's first unit of prose and after its last one, in document order: each the
 * largest element of at most `LINE_LENGTH` characters with text (not inside a paragraph, item or heading).
 */
export function edgeLines(content: ElementNode): { head: ElementNode[]; tail: ElementNode[] } {
  const head: ElementNode[] = [];
  let tail: ElementNode[] = [];
  let seenProse = false;
  const visit = (el: ElementNode): void => {
    for (const child of el.children) {
      if (typeof child === "string") continue;
      const length = textLength(child);
      if (length === 0) continue;
      if (PROSE_TAGS.has(child.tag) && isProse(child)) {
        seenProse = true;
        tail = [];
        continue;
      }
      if (EDGE_OPAQUE.has(child.tag)) {
        // A list or a table is the article's (references, data): not lines, and prose when it holds some.
        if (endsProse(child)) {
          seenProse = true;
          tail = [];
        }
        continue;
      }
      if (length <= LINE_LENGTH && !HEADING_TAGS.has(child.tag) && !PROSE_TAGS.has(child.tag)) {
        (seenProse ? tail : head).push(child);
        continue;
      }
      if (PROSE_TAGS.has(child.tag) || HEADING_TAGS.has(child.tag)) {
        // A short paragraph or item is a line of its own; a heading is a heading.
        if (child.tag === "p" && length <= LINE_LENGTH) (seenProse ? tail : head).push(child);
        continue;
      }
      visit(child);
    }
  };
  visit(content);
  return { head: seenProse ? head : [], tail };
}

const LINE_LENGTH = 80;

export const EDGE_OPAQUE = new Set(["ul", "ol", "dl", "table", "li", "dd", "dt", "td", "th", "tr", "tbody"]);

/**
 * A line that is a date: a year (four digits from 1900) with a day's number beside it (at most one word, the
 * month, between them: "December 18, 2025", "15 Dec, 2025", "2025-12-18"), in ten words or fewer.
 */
function isDateLine(el: ElementNode): boolean {
  const text = textContent(el).trim();
  // A line ending in a colon introduces what follows it ("Posted on the forum on 2025-07-09:").
  if (text.endsWith(":")) return false;
  const words = text.match(WORDS);
  if (!words || words.length > DATE_LINE_WORDS) return false;
  for (let i = 0; i < words.length; i++) {
    if (!YEAR.test(words[i]!)) continue;
    for (let j = Math.max(0, i - 2); j <= Math.min(words.length - 1, i + 2); j++)
      if (j !== i && DAY.test(words[j]!)) return true;
  }
  return false;
}

const YEAR = /^(?:19|20)\d\d$/;

const DAY = /^(?:0?[1-9]|[12]\d|3[01])(?!\d)/;

export const WORDS = /[\p{L}\p{N}]+/gu;

export const wordCount = (el: ElementNode) => textContent(el).match(WORDS)?.length ?? 0;

const DATE_LINE_WORDS = 10;

/** Date lines at the article's head or tail ("March 25, 2025", "Last updated: April 21, 2025"). */
export function removeEdgeDates({ head, tail }: { head: ElementNode[]; tail: ElementNode[] }): void {
  for (const line of [...head, ...tail]) if (line.parent && isDateLine(line)) removeNode(line);
}

/** A count at the article's head ("8 min read", "59 Comments"): a line before the first prose of a few words, one a number. */
export function removeHeadCounts(head: ElementNode[]): void {
  for (const line of head) {
    const words = textContent(line).match(WORDS);
    if (!words || words.length > HEAD_COUNT_WORDS) continue;
    // A formula's numbers are not a count.
    if (findDescendant(line, (d) => d.tag === "math" || d.tag.includes("-"))) continue;
    if (words.some((w) => /^\d+$/.test(w)) && line.parent) removeNode(line);
  }
}

const HEAD_COUNT_WORDS = 5;

/** Whether an element sits inside a paragraph or item holding more text than it (a sentence around it). */
function inProse(el: ElementNode, content: ElementNode): boolean {
  for (let up = el.parent; up && up !== content; up = up.parent) {
    if (PROSE_TAGS.has(up.tag) || HEADING_TAGS.has(up.tag)) return true;
  }
  return false;
}
