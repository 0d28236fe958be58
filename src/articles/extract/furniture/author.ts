// The author's furniture in the article: the bio at its end, lines naming the author, a person's box (a
// portrait over a name) and what follows it, a closing credit. Removed after cleaning.

import {
  cutFrom,
  type ElementNode,
  findAll,
  findDescendant,
  indexIn,
  removeNode,
  textContent,
  textLength,
} from "../html-tree";
import { HEADING_TAGS, hasAncestorBelow, isProse, literal } from "../predicates";
import { edgeLines, WORDS, wordCount } from "./datelines";
import { articleBesides, closingLink, closingParagraph } from "./notices";

/** The byline's words, lowercased and joined by single spaces ("" when it has fewer than two words). */
export function bylineName(byline: string | null): string {
  const words = byline?.toLowerCase().match(WORDS);
  return words && words.length >= 2 && words.length <= 6 ? words.join(" ") : "";
}

/**
 * The author's bio at the article's end: one of its last units of prose opening with the author's name
 * ("Rebecca Norris is a freelance writer living in…"), under 600 characters.
 */
export function removeAuthorBio(content: ElementNode, name: string): void {
  // The last units, found from the end (reverse document order), then taken in document order.
  const units: ElementNode[] = [];
  const visit = (el: ElementNode): void => {
    for (let i = el.children.length - 1; i >= 0 && units.length < BIO_LAST_UNITS; i--) {
      const child = el.children[i]!;
      if (typeof child !== "string") visit(child);
    }
    if (units.length < BIO_LAST_UNITS && el !== content && el.tag === "p" && isProse(el)) units.push(el);
  };
  visit(content);
  units.reverse();
  for (const unit of units) {
    if (textLength(unit) > BIO_LENGTH) continue;
    const words = textContent(unit).toLowerCase().match(WORDS);
    if (!words || words.slice(0, name.split(" ").length).join(" ") !== name) continue;
    // Its box: the ancestors adding little text besides (the name as a heading, a line of links).
    let box = unit;
    for (let depth = 0; depth < BIO_BOX_LEVELS; depth++) {
      const up = box.parent;
      if (!up || up === content || textLength(up) > textLength(unit) + BIO_BOX_EXTRA) break;
      box = up;
    }
    // An author's box shows the author: a picture, or a link carrying the name (to the author's page).
    const shown = findDescendant(
      box,
      (d) => d.tag === "img" || d.tag === "picture" || (d.tag === "a" && d !== unit && namesAuthor(d, name)),
    );
    if (shown) removeNode(box);
  }
}

const BIO_BOX_LEVELS = 4;

const BIO_BOX_EXTRA = 200;

/** Whether an element's words hold the name's words in a row. */
function namesAuthor(el: ElementNode, name: string): boolean {
  const words = textContent(el).toLowerCase().match(WORDS);
  return !!words && ` ${words.join(" ")} `.includes(` ${name} `);
}

const BIO_LAST_UNITS = 2;

const BIO_LENGTH = 600;

/** A byline at the article's head: a line before its first unit of prose holding the author's name and little else. */
export function removeAuthorLines(content: ElementNode, name: string): void {
  const size = name.split(" ").length;
  for (const line of edgeLines(content).head) {
    const words = textContent(line).toLowerCase().match(WORDS);
    if (!words || words.length > size + AUTHOR_LINE_EXTRA_WORDS) continue;
    if (line.parent && ` ${words.join(" ")} `.includes(` ${name} `)) removeNode(line);
  }
}

const AUTHOR_LINE_EXTRA_WORDS = 3;

/**
 * A person's box at the article's end (the author's, the testers'): a portrait whose alternative text is a name
 * (two to four capitalised words), the same name as the text right after it (the line under the portrait), and,
 * a little further, a sentence about that person opening with the name or its first word ("Tim explores …",
 * "Joanna specializes in …"). When little text is left after the portrait, it and everything after it go: what
 * follows a person's box at the end is the site's (the box's links, the next box of the same kind).
 */
export function removePortraitTail(content: ElementNode): void {
  const pictures = findAll(content, "img");
  for (const picture of pictures.slice(-PORTRAIT_LAST)) {
    const name = (picture.attrs.alt ?? "").replace(/\s+/g, " ").trim();
    // A picture with a caption of its own is the article's figure, its caption no name line.
    if (!PERSON_NAME.test(name) || hasAncestorBelow(picture, content, (a) => a.tag === "figure")) continue;
    // The portrait's block: its ancestors holding no text (the picture's link, figure, wrapper).
    let block = picture;
    while (block.parent && block.parent !== content && textLength(block.parent) === 0) block = block.parent;
    const after = textAfter(block, content, PORTRAIT_TAIL + 1);
    if (after.length > PORTRAIT_TAIL || !after.startsWith(name)) continue;
    // The box ends an article: most of the text comes before it.
    if (textLength(content) < after.length * PORTRAIT_SHARE) continue;
    const first = name.split(" ")[0]!;
    const about = after.slice(name.length, name.length + PORTRAIT_ABOUT);
    const sentence = new RegExp(`(?:^|[\\s.!?])(?:${literal(name)}|${literal(first)})\\s+\\p{Ll}`, "u");
    if (!sentence.test(about)) continue;
    cutFrom(block, content);
    return;
  }
}

/** The pictures looked at: the article's last few (a person's box is at its end). */
const PORTRAIT_LAST = 5;
/** At most this much text after the portrait (a box or two, not a part of the article). */
const PORTRAIT_TAIL = 1500;
/** The sentence about the person starts within this many characters after the name. */
const PORTRAIT_ABOUT = 300;
/** The article's text is at least this many times the text from the portrait on. */
const PORTRAIT_SHARE = 4;
/** A person's name: two to four capitalised words. */
const NAME = "\\p{Lu}[\\p{L}'’.-]+(?: \\p{Lu}[\\p{L}'’.-]+){1,3}";
const PERSON_NAME = new RegExp(`^${NAME}$`, "u");

/**
 * The text after `el` in document order, whitespace collapsed, up to about `limit` characters. When it is longer
 * than `limit`, what is returned is only longer than `limit` (a start of it): its callers then look no further.
 */
function textAfter(el: ElementNode, content: ElementNode, limit: number): string {
  let text = "";
  for (let at: ElementNode = el; at !== content && at.parent && text.length < limit; at = at.parent) {
    const siblings = at.parent.children;
    for (let i = indexIn(siblings, at) + 1; i < siblings.length && text.length < limit; i++)
      text += ` ${textContent(siblings[i]!)}`;
  }
  // A sibling's text may be the rest of the article: collapsing all of it cost more than the pass's other work.
  // Collapsed, a start of the text is a start of the whole collapsed, which ends in one space at most, so a
  // start longer than `limit + 1` characters tells that the whole is longer than `limit`.
  if (text.length > 4 * limit) {
    const start = text
      .slice(0, 4 * limit)
      .replace(/\s+/g, " ")
      .trimStart();
    if (start.length > limit + 1) return start;
  }
  return text.replace(/\s+/g, " ").trim();
}

/**
 * A credit line closing the article: its last paragraph, a few words leading to a link that is all a person's
 * name ("Written by <a>Paulinho Giovannini</a>"), the byline written at the end when the page's metadata names no
 * author.
 */
export function removeClosingCredit(content: ElementNode): void {
  const last = closingParagraph(content);
  if (!last) return;
  if (wordCount(last) > CREDIT_WORDS || !articleBesides(content, last)) return;
  const link = closingLink(last, true);
  if (!link || findAll(last, "a").length !== 1) return;
  const name = textContent(link).replace(/\s+/g, " ").trim();
  if (!PERSON_NAME.test(name) || wordCount(last) - wordCount(link) < 1) return;
  removeNode(last);
}

const CREDIT_WORDS = 6;

/**
 * A person's box at the article's end titled with their name ("Written by Cassidy Horton", then "Cassidy Horton
 * is a finance writer who …"): one of the article's last headings ending in a name (two to four capitalised
 * words), and the text right after it opening with that whole name and a word in small letters (a sentence about
 * the person). As with a portrait, when little text is left from the heading on, it and everything after it go.
 */
export function removeNamedBoxTail(content: ElementNode): void {
  const headings = findAll(content, HEADING_TAGS);
  for (const heading of headings.slice(-PORTRAIT_LAST)) {
    const name = textContent(heading).replace(/\s+/g, " ").trim().match(TRAILING_NAME)?.[1];
    if (!name) continue;
    const after = textAfter(heading, content, PORTRAIT_TAIL + 1);
    if (after.length > PORTRAIT_TAIL || textLength(content) < (after.length + textLength(heading)) * PORTRAIT_SHARE)
      continue;
    // As `^name\s+\p{Ll}` would, without compiling a pattern with a letter class per heading (compiling it took
    // about 0.7 % of the engine's time on the readability and WCXB pages, more than the rest of this pass).
    if (!after.startsWith(name)) continue;
    SPACE_THEN_SMALL.lastIndex = name.length;
    if (!SPACE_THEN_SMALL.test(after)) continue;
    cutFrom(heading, content);
    return;
  }
}

/** Whitespace and a small letter, where it is looked for (sticky). */
const SPACE_THEN_SMALL = /\s+\p{Ll}/uy;
const TRAILING_NAME = new RegExp(`\\p{Ll}\\s+(${NAME})$`, "u");
