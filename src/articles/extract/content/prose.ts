// Judges of prose the cleaning steps share: a block held by paragraphs of its own words, a paragraph citing its
// sources in its sentences, an entry of a run written alike.

import { type ElementNode, findAll, findDescendant, isElement, textContent, textLength } from "../html-tree";
import { HEADING_TAGS, isInternal, isProse, linkDensity, PROSE_LENGTH } from "../predicates";
import { className } from "./class-weight";
import { countMatches } from "./dated-streams";
import { isToggleLink, openingLink } from "./link-blocks";
import { LIST_TAGS } from "./tags";

export const SENTENCE_ENDS = /[.!?](?=\s|$)|[。！？]/g;

/**
 * A block whose text is mostly paragraphs of prose (`paragraphs` or more; a list item holding no paragraph or
 * item of its own is one) that open with words of their own (not a headline link), under no linked heading (a
 * link to a place on the page, a section's own anchor, or to no address is not a headline): a part of the
 * article whose links (a source named in a sentence, a button below it) raise its link density, or whose class
 * names only a layout detail ("pane-header-alignment-left").
 */
export function heldByProse(el: ElementNode, length: number, paragraphs = 2, sites?: Set<string>): boolean {
  // Each unit of prose holds at least half a unit's length: a shorter block cannot hold enough of them.
  if (length < paragraphs * (PROSE_LENGTH / 2)) return false;
  // With the page's sites given, only a link to the site's own pages is a headline (a heading naming a source
  // on another site, over a paragraph saying what it is, is a reading list's entry).
  const headline = (a: ElementNode) => !isToggleLink(a) && (!sites || isInternal(a.attrs.href ?? "", sites));
  const opening = openingLink(el);
  if (opening && headline(opening)) return false;
  for (const h of findAll(el, HEADING_TAGS))
    if (findDescendant(h, (d) => d.tag === "a" && textLength(d) > 0 && headline(d))) return false;
  let prose = 0;
  let count = 0;
  for (const p of findAll(el, PROSE_UNITS)) {
    if (p.tag === "li" && findDescendant(p, (d) => PROSE_UNITS.has(d.tag)) !== null) continue;
    if (!isProse(p) || openingLink(p)) continue;
    prose += textLength(p);
    count++;
  }
  return count >= paragraphs && prose * 2 >= length;
}

export const PROSE_UNITS = new Set(["p", "li"]);

/**
 * A paragraph of the article naming its sources as links inside its sentences, which raise its link density:
 * at most one `<p>`, no heading or list, no opening link, SENTENCES_WITH_LINKS sentences or more and as many units
 * of prose in length, and words after its last link (a pointer or small print ends on its link) unless every
 * link goes to another site.
 */
export function isLinkedSentences(el: ElementNode, length: number, sites: Set<string>): boolean {
  if (length < SENTENCES_WITH_LINKS * PROSE_LENGTH || openingLink(el)) return false;
  if (findDescendant(el, (d) => HEADING_TAGS.has(d.tag) || LIST_TAGS.has(d.tag))) return false;
  if (findAll(el, "p").length > 1) return false;
  if (!/\p{L}/u.test(textAfterLastLink(el)) && findAll(el, "a").some((a) => isInternal(a.attrs.href ?? "", sites)))
    return false;
  return countMatches(textContent(el), SENTENCE_ENDS, SENTENCES_WITH_LINKS) >= SENTENCES_WITH_LINKS;
}

/** The text of `el` after its last link (all of it when it has none). */
function textAfterLastLink(el: ElementNode): string {
  let after = "";
  const walk = (node: ElementNode) => {
    for (const child of node.children) {
      if (typeof child === "string") after += child;
      else if (child.tag === "a") after = "";
      else walk(child);
    }
  };
  walk(el);
  return after;
}
const SENTENCES_WITH_LINKS = 2;

/**
 * One of a run of entries written alike (a listicle's brands, a guide's sections): the block, or an ancestor
 * up to two levels above that is little more than the block, has a class that a sibling of the same tag and
 * class shares, that sibling held by prose. The block holds a unit of prose and opens with no link to the
 * site's own pages under no heading linking there (a teaser's headline): its links to other sites (the
 * brand's shop, a source) raise its density.
 */
export function isPartOfProse(el: ElementNode, content: ElementNode, sites: Set<string>): boolean {
  return isEntryOfKind(el, content, sites, (a, kind, parent) =>
    parent.children.some(
      (s) => isElement(s) && s !== a && s.tag === a.tag && className(s) === kind && heldByProse(s, textLength(s)),
    ),
  );
}

/**
 * The walk isPartOfProse and isLikeKeptEntry share: `el` holds a unit of prose and opens with no link to the
 * site's own pages under no heading linking there (a teaser's headline), and `el` or an ancestor up to
 * PART_LEVELS − 1 levels above that is little more than it (a third more text at most) has a class for which
 * `hasFellow` finds a sibling of its kind.
 */
function isEntryOfKind(
  el: ElementNode,
  content: ElementNode,
  sites: Set<string>,
  hasFellow: (a: ElementNode, kind: string, parent: ElementNode) => boolean,
): boolean {
  const headline = (a: ElementNode) => isInternal(a.attrs.href ?? "", sites);
  const opening = openingLink(el);
  if (opening && headline(opening)) return false;
  if (!findAll(el, PROSE_UNITS).some((p) => isProse(p) && !openingLink(p))) return false;
  const length = textLength(el);
  for (let a: ElementNode | null = el, up = 0; a && a !== content && up < PART_LEVELS; a = a.parent, up++) {
    if (textLength(a) * 10 > length * 13) return false;
    for (const h of findAll(a, HEADING_TAGS))
      if (findDescendant(h, (d) => d.tag === "a" && textLength(d) > 0 && headline(d))) return false;
    const kind = className(a);
    const parent = a.parent;
    if (kind && parent && hasFellow(a, kind, parent)) return true;
  }
  return false;
}
const PART_LEVELS = 3;

/**
 * One of a run of entries written alike (a listicle's items, a guide's chapters, a grid of described links)
 * whose fellows carry few links: the block, or an ancestor up to two levels above that is little more than
 * it, has a class that a nearby sibling of the same tag shares, that sibling holding a unit of prose and
 * links for at most a fifth of its text (so conditional cleaning keeps it). Entries of one kind are judged
 * alike: this one's links (a title linking to its source) weigh more only because its description is shorter.
 */
export function isLikeKeptEntry(el: ElementNode, content: ElementNode, sites: Set<string>): boolean {
  return isEntryOfKind(el, content, sites, (a, kind, parent) => {
    // Not looked for among more than 500 siblings (a page may hold 100,000 alike).
    if (parent.children.length > 500) return false;
    const at = parent.children.indexOf(a);
    const to = Math.min(parent.children.length, at + LIKE_ENTRY_REACH + 1);
    for (let i = Math.max(0, at - LIKE_ENTRY_REACH); i < to; i++) {
      const s = parent.children[i]!;
      if (!isElement(s) || s === a || s.tag !== a.tag || className(s) !== kind) continue;
      if (linkDensity(s) <= 0.2 && findAll(s, PROSE_UNITS).some((p) => isProse(p) && !openingLink(p))) return true;
    }
    return false;
  });
}
const LIKE_ENTRY_REACH = 8;
