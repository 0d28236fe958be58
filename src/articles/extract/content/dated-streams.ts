// Streams of short dated lines after the article (reader comments, news tickers), told by their times of day.

import { type ElementNode, invalidate, type TreeNode, textContent, textLength } from "../html-tree";

/** A time of day, "9:05", "21:40" or "21:40:05" (not part of a longer run of digits and colons). */
const TIME_OF_DAY = /(?<![\d:])(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)?(?![\d:])/;
export const TIME_OF_DAYS = new RegExp(TIME_OF_DAY.source, "g");

/** Matches of a global pattern in a text, counted up to `enough`. */
export function countMatches(text: string, pattern: RegExp, enough: number): number {
  pattern.lastIndex = 0;
  let n = 0;
  while (n < enough && pattern.exec(text)) n++;
  pattern.lastIndex = 0;
  return n;
}

/**
 * Reader comments and news tickers carry a time of day on a short line of their own (the author and the
 * hour, "yo (guest) 01.01.12, 21:53", "10:17 Headline"); an article mentions times inside its sentences. A
 * block after the first 300 characters of the chosen content, holding under 80 % of it, with four or more
 * such lines (the largest element of 1-100 characters whose parent holds more), at least one per 800
 * characters, is a stream of dated posts and goes. Blocks with code are left alone (logs have timestamps).
 */
export function removeDatedStreams(content: ElementNode): void {
  // Most articles carry fewer times of day than a stream needs: one search of the whole text settles it.
  if (countMatches(textContent(content), TIME_OF_DAYS, STREAM_STAMPS) < STREAM_STAMPS) return;
  const whole = textLength(content);
  const stamps = new Map<ElementNode, number>();
  const code = new Set<ElementNode>();
  const count = (el: ElementNode, parentLength: number): number => {
    const length = textLength(el);
    if (!length) return 0;
    let n =
      length <= STAMP_LINE_LENGTH && parentLength > STAMP_LINE_LENGTH && TIME_OF_DAY.test(textContent(el)) ? 1 : 0;
    for (const child of el.children) {
      if (typeof child === "string") continue;
      n += count(child, length);
      if (child.tag === "pre" || child.tag === "code" || code.has(child)) code.add(el);
    }
    stamps.set(el, n);
    return n;
  };
  count(content, Infinity);
  let before = 0;
  const visit = (el: ElementNode): void => {
    let kept: TreeNode[] | null = null;
    const kids = el.children;
    for (let i = 0; i < kids.length; i++) {
      const child = kids[i]!;
      if (typeof child !== "string" && isDatedStream(child, before, whole, stamps, code)) {
        child.parent = null;
        kept ??= kids.slice(0, i);
        continue;
      }
      kept?.push(child);
      if (typeof child === "string") before += child.trim().length;
      else if (child.tag === "pre" || child.tag === "code") before += textLength(child);
      else visit(child);
    }
    if (kept) {
      el.children = kept;
      for (let a: ElementNode | null = el; a; a = a.parent) invalidate(a);
    }
  };
  visit(content);
}

function isDatedStream(
  el: ElementNode,
  before: number,
  whole: number,
  stamps: Map<ElementNode, number>,
  code: Set<ElementNode>,
): boolean {
  const length = textLength(el);
  const lines = stamps.get(el) ?? 0;
  return (
    before >= STREAM_AFTER &&
    length >= STREAM_MIN_LENGTH &&
    length < whole * STREAM_MAX_SHARE &&
    lines >= STREAM_STAMPS &&
    lines * STREAM_CHARS_PER_STAMP >= length &&
    el.tag !== "pre" &&
    el.tag !== "code" &&
    !code.has(el)
  );
}
const STAMP_LINE_LENGTH = 100;
const STREAM_AFTER = 300;
const STREAM_MIN_LENGTH = 200;
const STREAM_MAX_SHARE = 0.8;
const STREAM_STAMPS = 4;
const STREAM_CHARS_PER_STAMP = 800;
