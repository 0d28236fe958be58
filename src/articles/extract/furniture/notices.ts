// Notices and pointers around the article: a last paragraph that is one link to another of the site's pages,
// a sponsor's box, a notice over the article, a note set off by a rule at its end. Removed after cleaning.

import {
  type ElementNode,
  findAll,
  findDescendant,
  isElement,
  removeNode,
  textContent,
  textLength,
} from "../html-tree";
import {
  adjacentElement,
  FILE_LINK,
  HEADING_TAGS,
  hasMedia,
  isHeading,
  isInternal,
  lastChildWithText,
  MAX_TAIL_DEPTH,
  PHRASING,
  PROSE_LENGTH,
  PROSE_TAGS,
} from "../predicates";
import { ACTION_BOX_CHILDREN } from "./calls-to-action";
import { EDGE_OPAQUE } from "./datelines";
import { BOLD, fewWords, whollyStyled } from "./labels";

/**
 * The article's last paragraph when it is wholly one link to another page of the site (an event, a promotion,
 * "Continue reading the main story"), or a short one (TRAILING_PITCH characters) closing with a bold link to
 * another page of the site (a pitch and its call: "... <b><a>Subscribe here</a></b>."), after at least
 * TRAILING_LINK_AFTER characters of article.
 */
export function removeTrailingLink(content: ElementNode, sites: Set<string>): void {
  const last = closingParagraph(content);
  if (!last) return;
  const links = findAll(last, "a");
  const href = links[0]?.attrs.href ?? "";
  const closing = closingLink(last);
  const pitch =
    !!closing &&
    textLength(last) <= TRAILING_PITCH &&
    isInternal(closing.attrs.href ?? "", sites) &&
    !FILE_LINK.test(closing.attrs.href ?? "");
  if (pitch && articleBesides(content, last)) {
    removeNode(last);
    return;
  }
  if (
    links.length === 1 &&
    textLength(links[0]!) === textLength(last) &&
    isInternal(href, sites) &&
    !FILE_LINK.test(href) &&
    articleBesides(content, last)
  )
    removeNode(last);
}

/**
 * The article's closing paragraph: its last element holding text, followed down level by level through the
 * blocks that wrap it, when that is a `<p>`; null when the article ends in a heading or other prose (an item,
 * a quote, a table).
 */
export function closingParagraph(content: ElementNode): ElementNode | null {
  let el = content;
  for (let depth = 0; depth < MAX_TAIL_DEPTH; depth++) {
    const last = lastChildWithText(el);
    if (!last) return null;
    if (last.tag === "p") return last;
    if (PROSE_TAGS.has(last.tag) || HEADING_TAGS.has(last.tag)) return null;
    el = last;
  }
  return null;
}

const TRAILING_LINK_AFTER = 500;

/** Whether the article holds TRAILING_LINK_AFTER characters or more besides `el`: the line is not all of it. */
export function articleBesides(content: ElementNode, el: ElementNode): boolean {
  return textLength(content) - textLength(el) >= TRAILING_LINK_AFTER;
}

const TRAILING_PITCH = 300;

/** The link an element's text closes with (nothing after it but punctuation), if any. */
export function closingLink(el: ElementNode, anyLink = false): ElementNode | null {
  let node: ElementNode = el;
  let bold = anyLink;
  for (let depth = 0; depth < MAX_TAIL_DEPTH; depth++) {
    let next: ElementNode | null = null;
    for (let i = node.children.length - 1; i >= 0; i--) {
      const child = node.children[i]!;
      if (typeof child === "string") {
        if (/[\p{L}\p{N}]/u.test(child)) return null;
        continue;
      }
      if (textLength(child) > 0) {
        next = child;
        break;
      }
    }
    if (!next) return null;
    if (next.tag === "a")
      return next.attrs.href && (bold || findDescendant(next, (d) => BOLD.has(d.tag))) ? next : null;
    if (BOLD.has(next.tag)) bold = true;
    node = next;
  }
  return null;
}

/**
 * A sponsor's box: a short label of a few words ("In partnership with") over a picture linking to another site
 * (the sponsor's logo or banner), and nothing else. A picture the article shows links to its own file or has a
 * caption of its own words after it, not a label before it.
 */
export function removeSponsorBoxes(content: ElementNode, sites: Set<string>): void {
  const boxes: ElementNode[] = [];
  for (const link of findAll(content, "a").slice(0, SPONSOR_LINKS)) {
    const href = (link.attrs.href ?? "").trim();
    if (textLength(link) > 0 || !href || isInternal(href, sites) || !hasMedia(link)) continue;
    let held = link;
    while (held.parent && held.parent !== content && textLength(held.parent) === 0) held = held.parent;
    const box = held.parent;
    if (!box || box === content || !fewWords(box) || PHRASING.has(box.tag)) continue;
    // A paragraph holding a line and a picture is the article's line; a table's cell or a list's item is its own.
    if (PROSE_TAGS.has(box.tag) || inListOrTable(box, content)) continue;
    // A box of dozens of children is a gallery or a page part, not a label and its picture.
    if (box.children.length > ACTION_BOX_CHILDREN) continue;
    // The label comes first, the picture after it; no other link, no heading.
    const kids = box.children.filter((c) => typeof c !== "string" || c.trim());
    const at = kids.indexOf(held);
    if (at < 1 || kids.slice(at + 1).some((c) => typeof c === "string" || textLength(c) > 0)) continue;
    if (findDescendant(box, (d) => (d.tag === "a" && textLength(d) > 0) || isHeading(d))) continue;
    boxes.push(box);
  }
  for (const box of boxes) if (box.parent) removeNode(box);
}

const SPONSOR_LINKS = 500;

function inListOrTable(el: ElementNode, content: ElementNode): boolean {
  for (let up: ElementNode | null = el; up && up !== content; up = up.parent) if (EDGE_OPAQUE.has(up.tag)) return true;
  return false;
}

/**
 * A notice over the article: its first line of prose, when short (TRAILING_PITCH characters) and closing with a
 * link to another page of the site that says more ("Editorial note: … may contain affiliate links … Learn
 * more."; "Note: … Read more in our Privacy Policy."), with the article after it. The article's own opening
 * sentence ends in a full stop of its own words, not in a pointer to the site's policy pages. A notice may also
 * stand between the parts the merge joined (a lead, then the notice, then the body): a paragraph of its own among
 * the article's first NOTICE_PARTS blocks.
 */
export function removeHeadNotice(content: ElementNode, sites: Set<string>): void {
  const first = findDescendant(content, (d) => isLine(d) && textLength(d) >= PROSE_LENGTH);
  if (first && isNotice(first, content, sites)) removeNode(first);
  const parts = content.children.slice(0, NOTICE_PARTS);
  for (const part of parts) if (isElement(part) && part.tag === "p" && isNotice(part, content, sites)) removeNode(part);
}

const NOTICE_PARTS = 64;

function isNotice(line: ElementNode, content: ElementNode, sites: Set<string>): boolean {
  const length = textLength(line);
  if (length < PROSE_LENGTH || length > TRAILING_PITCH || inListOrTable(line, content)) return false;
  // It is labelled as a notice: a word or two and a colon open it ("Editorial note:", "Disclosure:").
  if (!NOTICE_LABEL.test(textContent(line))) return false;
  const link = closingLink(line, true);
  const href = link?.attrs.href ?? "";
  if (!link || href.startsWith("#") || !isInternal(href, sites) || FILE_LINK.test(href)) return false;
  return articleBesides(content, line);
}

const NOTICE_LABEL = /^\s*\p{L}+(?: \p{L}+)?:\s/u;

/** A paragraph, or a block holding only text and phrasing elements. */
function isLine(el: ElementNode): boolean {
  if (el.tag === "p") return true;
  if (PHRASING.has(el.tag) || HEADING_TAGS.has(el.tag) || EDGE_OPAQUE.has(el.tag)) return false;
  return el.children.every((c) => typeof c === "string" || PHRASING.has(c.tag));
}

/**
 * A note set apart below the article: its last paragraph, all in italics, right after a horizontal rule ("Playful
 * Void is a production of … If you liked this article, please consider …"). The rule ends the article; what the
 * page sets in italics under it is about the article or the site, not part of it.
 */
export function removeRuledNote(content: ElementNode): void {
  const last = closingParagraph(content);
  if (!last || !whollyStyled(last, ITALIC) || adjacentElement(last, -1)?.tag !== "hr") return;
  if (!articleBesides(content, last)) return;
  removeNode(last);
}

const ITALIC = new Set(["em", "i"]);
