// The words of class and id attributes that tell article from boilerplate, measured on WCXB's development
// articles by `node bench/extract-signals.mjs` (figures and selection rules in docs/extraction.md, "Our
// own signals"). An attribute is read as words: split at anything but a letter or digit and at camelCase
// humps, lower-cased ("post-content" and "postContent" are both "post content"), so a word matches whole:
// "research" is not "search", "header" is not "head".
import type { ElementNode } from "./html-tree";

/**
 * Words whose blocks held at most 5 % article text, on at least 15 pages (the corpus' overall share is
 * 66 %), that name a part of a page: blocks carrying one are dropped before scoring.
 */
export const BOILERPLATE_WORDS = new Set([
  "ad",
  "author",
  "bio",
  "branding",
  "byline",
  "categories",
  "colophon",
  "comment",
  "commentform",
  "comments",
  "community",
  "consent",
  "cookie",
  "copyright",
  "cta",
  "dialog",
  "disclaimer",
  "discussion",
  "dropdown",
  "feedback",
  "footer",
  "legal",
  "login",
  "logo",
  "masthead",
  "megamenu",
  "menu",
  "modal",
  "nav",
  "navbar",
  "navigation",
  "newsletter",
  "pagination",
  "popup",
  "privacy",
  "promo",
  "related",
  "respond",
  "search",
  "share",
  "sharing",
  "signup",
  "submenu",
  "subnav",
  "subscribe",
  "tagline",
  "taxonomy",
  "thread",
]);

/** Words whose blocks held at most 20 % article text on at least 40 pages: they weigh a block down. */
export const LEANING_BOILERPLATE_WORDS = new Set([
  ...BOILERPLATE_WORDS,
  "banner",
  "breadcrumb",
  "breadcrumbs",
  "caption",
  "header",
  "sidebar",
  "social",
  "tags",
]);

/**
 * Words found on the article's own container (the deepest element holding 80 % of the article text, or one
 * of its two ancestors) on at least 18 pages and on at least 30 % of the pages that use them anywhere.
 */
export const CONTAINER_WORDS = new Set([
  "article",
  "blog",
  "body",
  "content",
  "entry",
  "hentry",
  "post",
  "prose",
  "rich",
  "richtext",
  "single",
]);

/** Words that mark a byline: their blocks held no article text at all (the gold leaves the byline out). */
export const BYLINE_WORDS = new Set(["byline", "author"]);

/** Words of share widgets. */
export const SHARE_WORDS = new Set(["share", "sharing", "sharedaddy", "socials"]);

/** ARIA roles whose blocks held under 2 % article text on at least 30 pages. */
export const BOILERPLATE_ROLES = new Set([
  "banner",
  "complementary",
  "contentinfo",
  "dialog",
  "menu",
  "menuitem",
  "search",
]);

/** No words, shared (never changed). */
const NO_WORDS: string[] = [];

/**
 * The words of a class or id value. The array is shared (never change it): a page repeats its class values
 * element after element, so each value's words are remembered, in a memo cleared when it grows large. The
 * same word strings then come back, with their hash already computed for the vocabularies' lookups.
 */
export function attributeWords(value: string | undefined): string[] {
  if (!value) return NO_WORDS;
  return remembered(wordsMemo, value, splitWords);
}
const wordsMemo = new Map<string, string[]>();

/**
 * `memo`'s answer for `key`, computed and kept when it has none. The memos live as long as the isolate and
 * serve page after page, so one is cleared when it reaches MEMO_SIZE entries.
 */
function remembered<K, V>(memo: Map<K, V>, key: K, compute: (key: K) => V): V {
  let value = memo.get(key);
  if (value === undefined) {
    value = compute(key);
    if (memo.size >= MEMO_SIZE) memo.clear();
    memo.set(key, value);
  }
  return value;
}
const MEMO_SIZE = 4096;

function splitWords(value: string): string[] {
  // ASCII (nearly every class and id) is split by hand, several times faster than the regular expressions.
  const words: string[] = [];
  let start = 0;
  let lower = "";
  // Where the words of the current class name (the value's run up to a space) begin.
  let name = 0;
  for (let i = 0; i <= value.length; i++) {
    const c = i < value.length ? value.charCodeAt(i) : 32;
    if (c >= 128) return unicodeWords(value);
    const upper = c >= 65 && c <= 90;
    const alnum = upper || (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
    // A word ends at anything but a letter or digit, and before a capital that follows a small letter.
    const hump = upper && i > 0 && value.charCodeAt(i - 1) >= 97 && value.charCodeAt(i - 1) <= 122;
    if (!alnum || hump) {
      if (i - start > 1) {
        lower ||= value.toLowerCase();
        words.push(lower.slice(start, i));
      }
      start = alnum ? i : i + 1;
    }
    if (c === 32 || (c >= 9 && c <= 13)) {
      if (words.length > name && namesNoPart(words, name)) words.length = name;
      name = words.length;
    }
  }
  return words;
}

function unicodeWords(value: string): string[] {
  return value.split(/\s+/).flatMap((name) => {
    const words = name
      .replace(/([a-z])([A-Z])/g, "$1 $2")
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length > 1);
    return namesNoPart(words, 0) ? [] : words;
  });
}

/**
 * Whether the class name whose words are `words` from `from` on names no part of the page, and so gives its
 * element no words:
 * - a layout setting ("has-text-align-center", "kt-pane-header-alignment-left"): its other words say what the
 *   setting applies to, not what the element is (an accordion whose panes' headers are aligned left is no header);
 * - two things joined by "and" ("map-and-related", "author-and-date"), not both of them page parts: the block
 *   holds both, so the one word does not say what it is (a map with its intro and search box "and related"
 *   results is no box of related posts). "share-and-categories" or "header-and-footer" still name page parts.
 */
function namesNoPart(words: string[], from: number): boolean {
  let and = -1;
  for (let i = from; i < words.length; i++) {
    const word = words[i]!;
    if (SETTING_WORDS.has(word)) return true;
    if (word === "and" && and < 0) and = i;
  }
  if (and < 0) return false;
  const part = (word: string) => inVocabulary(word, LEANING_BOILERPLATE_WORDS);
  return !(words.slice(from, and).some(part) && words.slice(and + 1).some(part));
}
const SETTING_WORDS = new Set(["align", "alignment"]);

/** The words of an element's id, none when the id is a slug of its text (more than four words). */
export function idWords(el: ElementNode): string[] {
  const id = attributeWords(el.attrs.id);
  return id.length > 4 ? NO_WORDS : id;
}

/** The words of an element's class and id. */
export function elementWords(el: ElementNode): string[] {
  let words = el.words;
  if (!words) {
    // An id of more than four words is a slug of the element's own text (a heading's anchor,
    // "sharing-with-a-single-developer"), not the name of a page part.
    const { class: cls, id } = el.attrs;
    // Most elements have no class or no id: their words are the other's, with no array spread.
    if (id === undefined) words = cls === undefined ? NO_WORDS : attributeWords(cls);
    else words = cls === undefined ? idWords(el) : [...attributeWords(cls), ...idWords(el)];
    el.words = words;
  }
  return words;
}

/**
 * Whether `word` is in `set`, also as part of a run-together compound ("makehomepagedialog",
 * "commentlist"): a vocabulary word of six letters or more at either end with four or more letters beside
 * it (so "research" is not "search").
 */
export function inVocabulary(word: string, set: Set<string>): boolean {
  if (set.has(word)) return true;
  if (word.length < 10) return false;
  // The same long class words come back on element after element: each one's answer is remembered per
  // vocabulary (the vocabularies are constants).
  let memo = compoundMemo.get(set);
  if (!memo) {
    memo = new Map();
    compoundMemo.set(set, memo);
  }
  return remembered(memo, word, (w) => {
    for (const v of set) {
      if (v.length < 6 || w.length - v.length < 4) continue;
      if (w.startsWith(v) || w.endsWith(v)) return true;
    }
    return false;
  });
}
const compoundMemo = new WeakMap<Set<string>, Map<string, boolean>>();

export function hasWord(el: ElementNode, set: Set<string>): boolean {
  for (const w of elementWords(el)) if (inVocabulary(w, set)) return true;
  return false;
}
