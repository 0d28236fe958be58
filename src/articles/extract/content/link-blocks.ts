// Blocks that are links to other pages: teasers for other stories, pointers to other posts, short lists of the
// site's own pages, paragraphs of nothing but links, and the reading lists an article gives.

import { isButton } from "../furniture/calls-to-action";
import { isLeadIn } from "../furniture/labels";
import { type ElementNode, findAll, isElement, linkTextLength, textContent, textLength } from "../html-tree";
import { HEADING_TAGS, isInternal, linkDensity, PHRASING } from "../predicates";
import { LIST_TAGS } from "./tags";

export function isLinksParagraph(el: ElementNode, sites: Set<string>): boolean {
  if (linkDensity(el) <= LINK_LIST_DENSITY) return false;
  const links = findAll(el, "a");
  if (links.length >= LINK_LIST_ITEMS) return true;
  return links.length >= INTERNAL_LIST_ITEMS && allInternal(links, sites);
}

/** The link holding the first words of an element, if they are a link's. */
export function openingLink(el: ElementNode): ElementNode | null {
  for (const child of el.children) {
    if (typeof child === "string") {
      if (child.trim()) return null;
      continue;
    }
    if (child.tag === "a") return textLength(child) > 0 ? child : null;
    if (textLength(child) > 0) return openingLink(child);
  }
  return null;
}

/**
 * A teaser: a small block (under 600 characters, with some words of its own besides its links, holding a
 * paragraph, heading or block) whose first words are a link to another page of the same site: the headline
 * of another story. A block opening with a link to another site is a recommendation or a reference, which
 * articles make (a list of brands, of sources), so it is not one.
 */
function isTeaser(el: ElementNode, sites: Set<string>): boolean {
  if (el.tag === "a" || el.tag === "p" || HEADING_TAGS.has(el.tag) || PHRASING.has(el.tag)) return false;
  const length = textLength(el);
  if (!length || length > TEASER_MAX_LENGTH) return false;
  if (length - linkTextLength(el) < TEASER_OWN_TEXT) return false;
  if (!el.children.some((c) => isElement(c) && (c.tag === "p" || c.tag === "div" || HEADING_TAGS.has(c.tag))))
    return false;
  // An <article> is a self-contained item by its tag: a card may open with a few words (its category) before
  // its headline link.
  const link = el.tag === "article" ? nearlyOpeningLink(el) : openingLink(el);
  // A link to "#" (or to a script) opens an accordion's answer in place: a toggle, not another story's headline.
  // A link the sentence goes on after ("[Public clouds] are run by…") is a word of the text, not a headline.
  // A link drawn as a button ("Visit website" opening each row of a comparison laid out in boxes) is a call to
  // action, not a headline either.
  return (
    !!link &&
    !isToggleLink(link) &&
    !isButton(link) &&
    isInternal(link.attrs.href ?? "", sites) &&
    !opensSentence(link, el)
  );
}

/**
 * Whether the text right after `link` (within the phrasing elements around it, up to `el`) goes on in small
 * letters: the link is then the opening words of a sentence. A headline link ends its line: a block, a capital
 * or nothing follows it.
 */
function opensSentence(link: ElementNode, el: ElementNode): boolean {
  let at = link;
  while (at !== el && at.parent) {
    const parent: ElementNode = at.parent;
    const kids = parent.children;
    for (let j = kids.indexOf(at) + 1; j < kids.length; j++) {
      const next = textContent(kids[j]!).trimStart();
      if (next) return /^\p{Ll}/u.test(next);
    }
    if (!PHRASING.has(parent.tag)) return false;
    at = parent;
  }
  return false;
}

/** The first link with text under `el` when less than TEASER_OWN_TEXT characters of text come before it. */
export function nearlyOpeningLink(el: ElementNode): ElementNode | null {
  let before = 0;
  const find = (node: ElementNode): ElementNode | null | undefined => {
    for (const child of node.children) {
      if (typeof child === "string") {
        before += textLength(child);
        if (before >= TEASER_OWN_TEXT) return null;
        continue;
      }
      if (child.tag === "a" && textLength(child) > 0) return child;
      const found = find(child);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return find(el) ?? null;
}
const TEASER_MAX_LENGTH = 600;
const TEASER_OWN_TEXT = 20;

/** A block whose children are three or more teasers holding 80 % of its text or more. */
export function isTeaserStream(el: ElementNode, sites: Set<string>): boolean {
  if (el.children.length < TEASER_STREAM_ITEMS) return false;
  let teasers = 0;
  let text = 0;
  for (const kid of el.children) {
    if (typeof kid === "string" || !isTeaser(kid, sites)) continue;
    teasers++;
    text += textLength(kid);
  }
  return teasers >= TEASER_STREAM_ITEMS && text >= textLength(el) * TEASER_STREAM_SHARE;
}
const TEASER_STREAM_ITEMS = 3;
const TEASER_STREAM_SHARE = 0.8;

/**
 * A list of three or more items that is links (density over 0.8) to pages of the page's own site, every one:
 * other stories ("read also") or the site's sections. An article's own list of links points elsewhere (its
 * sources) or has words of its own; ten or more items of links anywhere are already cleaned as a menu.
 */
export function isInternalLinkList(el: ElementNode, sites: Set<string>): boolean {
  if (!LIST_TAGS.has(el.tag)) return false;
  let items = 0;
  for (const child of el.children) if (isElement(child) && child.tag === "li") items++;
  if (items < INTERNAL_LIST_ITEMS || linkDensity(el) <= INTERNAL_LIST_DENSITY) return false;
  const links = findAll(el, "a");
  return links.length > 0 && allInternal(links, sites);
}
/**
 * A list of POINTER_ITEMS or more items, each holding exactly one link, each to a different page of the site:
 * the site's other posts, each offered in a sentence ("Understand why <a>Coding Temple's ratings</a> are ...").
 */
function isPostPointers(el: ElementNode, sites: Set<string>): boolean {
  if (!LIST_TAGS.has(el.tag)) return false;
  const targets = new Set<string>();
  let items = 0;
  for (const child of el.children) {
    if (!isElement(child)) continue;
    if (child.tag !== "li") return false;
    if (textLength(child) === 0) continue;
    const links = findAll(child, "a");
    if (links.length !== 1) return false;
    const href = (links[0]!.attrs.href ?? "").trim();
    if (!href || href.startsWith("#") || !isInternal(href, sites) || targets.has(href)) return false;
    targets.add(href);
    items++;
  }
  return items >= POINTER_ITEMS;
}
const POINTER_ITEMS = 4;

/**
 * A box holding such a list and one short line over it, ending in a colon, with no link ("You may be interested
 * in the following topics as well:"). A bare list of the site's links is often the article's (steps, sources).
 */
export function pointersBox(el: ElementNode, sites: Set<string>): boolean {
  // Asked of every element of the article: one with no list among its children is answered at once.
  if (!hasListChild(el)) return false;
  let list: ElementNode | null = null;
  let lines = 0;
  for (const child of el.children) {
    if (typeof child === "string") {
      if (child.trim()) return false;
      continue;
    }
    if (textLength(child) === 0) continue;
    if (!list && isPostPointers(child, sites)) list = child;
    else if (!list && isLeadIn(child) && findAll(child, "a").length === 0) lines++;
    else return false;
  }
  return !!list && lines === 1;
}

function hasListChild(el: ElementNode): boolean {
  for (const child of el.children) if (typeof child !== "string" && LIST_TAGS.has(child.tag)) return true;
  return false;
}

const INTERNAL_LIST_ITEMS = 3;
const INTERNAL_LIST_DENSITY = 0.8;

const allInternal = (links: ElementNode[], sites: Set<string>) =>
  links.every((a) => isInternal(a.attrs.href ?? "", sites));

/**
 * A list of ten or more items that is nothing but links (link density over 0.9) is a menu or a column of
 * other stories, not the article's own list (which holds words of its own, or a few references).
 */
export const LINK_LIST_DENSITY = 0.9;

/**
 * A reading list the article gives: nine links in ten or more go to other sites (its sources, further reading).
 * A menu or a column of other stories links to the site's own pages.
 */
export function isReadingList(el: ElementNode, sites: Set<string>): boolean {
  const links = findAll(el, "a");
  let outside = 0;
  for (const a of links) if (!isInternal(a.attrs.href ?? "", sites)) outside++;
  return outside * 10 >= links.length * 9;
}
export const LINK_LIST_ITEMS = 10;

/** A link that opens nothing but a toggle: no address, a fragment, or a script. */
export function isToggleLink(a: ElementNode): boolean {
  const href = (a.attrs.href ?? "").trim();
  return href === "" || href.startsWith("#") || /^javascript:/i.test(href);
}
