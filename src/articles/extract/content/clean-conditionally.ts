// Conditional cleaning: a list, table, fieldset or div goes when its counts (links, pictures, items, inputs,
// headings, embeds against paragraphs) say it is not prose, unless a judge of prose says it is.

import {
  commaCount,
  type ElementNode,
  findAll,
  findDescendant,
  hasAncestor,
  isElement,
  linkTextLength,
  removeNode,
  soleElementChild,
  textContent,
  textLength,
} from "../html-tree";
import { adjacentElement, HEADING_TAGS, hasAncestorBelow, linkDensity } from "../predicates";
import { classWeight, type Flags, onlyLeaning } from "./class-weight";
import { hasAncestorTable, isDataTable } from "./data-tables";
import { isReadingList, LINK_LIST_DENSITY, LINK_LIST_ITEMS } from "./link-blocks";
import { splitParagraphs } from "./make-paragraphs";
import { heldByProse, isLikeKeptEntry, isLinkedSentences, isPartOfProse } from "./prose";
import { isQuestion } from "./question-lists";
import { gathered } from "./refine-candidate";
import { DIV_TO_P_BLOCKS, LIST_TAGS } from "./tags";

/** An embed that plays video (kept in a block like a picture): its address names a player or a video file. */
function isVideoEmbed(src: string | undefined): boolean {
  if (!src) return false;
  const words = src.toLowerCase().split(/[^a-z0-9]+/);
  return (
    words.some((w) => w === "player" || w === "video" || w === "videos" || w === "embed") ||
    /\.(mp4|webm|ogv)(\?|$)/i.test(src)
  );
}

// Per-element counts of the tags conditional cleaning weighs, kept for a whole subtree in one pass.
const COUNTED: Record<string, number> = {
  p: 0,
  img: 1,
  li: 2,
  input: 3,
  h1: 4,
  h2: 4,
  h3: 4,
  h4: 4,
  h5: 4,
  h6: 4,
  object: 5,
  embed: 5,
  iframe: 5,
};

function tagVectors(root: ElementNode): Map<ElementNode, Int32Array> {
  const vectors = new Map<ElementNode, Int32Array>();
  const visit = (el: ElementNode): Int32Array => {
    const vector = new Int32Array(6);
    for (const child of el.children) {
      if (typeof child === "string") continue;
      const inner = visit(child);
      for (let i = 0; i < 6; i++) vector[i]! += inner[i]!;
      const own = COUNTED[child.tag];
      if (own !== undefined) vector[own]!++;
    }
    vectors.set(el, vector);
    return vector;
  };
  visit(root);
  return vectors;
}

/** Conditional cleaning of each tag of `tags` in turn (the tag counts are kept up to date across them). */
export function cleanConditionally(
  content: ElementNode,
  tags: string[],
  flags: Flags,
  sites: Set<string> = new Set(),
): void {
  if (!flags.cleanConditionally) return;
  let vectors: Map<ElementNode, Int32Array> | null = null;
  const keptForClass = new Set<ElementNode>();
  for (const tag of tags) {
    const nodes = findAll(content, tag);
    if (!nodes.length) continue;
    vectors ??= tagVectors(content);
    cleanTag(tag, nodes, vectors, content, flags, sites, keptForClass);
  }
}

function cleanTag(
  tag: string,
  nodes: ElementNode[],
  vectors: Map<ElementNode, Int32Array>,
  content: ElementNode,
  flags: Flags,
  sites: Set<string>,
  keptForClass: Set<ElementNode>,
): void {
  // Bottom-up so inner junk goes before its container is judged.
  nodes.reverse();
  for (const el of nodes) {
    if (!el.parent || el === content || splitParagraphs.has(el) || gathered.has(el)) continue;
    if (tag === "table" && isDataTable(el)) continue;
    if (hasAncestorTable(el)) continue;
    if (hasAncestor(el, "code", 0) || hasAncestor(el, "pre", 0)) continue;
    const weight = classWeight(el, flags);
    // Only the class weight decides here: a list's or a container's own score is negative by construction
    // (lists start at -3) and says nothing about whether it is junk.
    // A class word that only leans to boilerplate ("header", "caption") yields to a passage of prose: three
    // paragraphs or more (a banner's two lines of sales copy still go).
    if (weight < 0 && !(heldByProse(el, textLength(el), 3) && onlyLeaning(el))) {
      removeCounted(el, vectors);
      continue;
    }
    // A wrapper holding nothing but a block kept for its class (a "prose" or "content" box) is that block:
    // judged on its own class, it would take the block with it. `keptForClass` holds such wrappers.
    if (keptForClass.has(el)) {
      if (el.parent && soleElementChild(el.parent) === el) keptForClass.add(el.parent);
      continue;
    }
    // A container of a data table is kept whole.
    if (findAll(el, "table").some(isDataTable)) continue;
    if (commaCount(el) >= 10) continue;
    const verdict = judge(el, tag, vectors.get(el)!, weight, content, sites);
    if (verdict === "junk") removeCounted(el, vectors);
    else if (verdict === "kept" && weight >= 25 && el.parent && soleElementChild(el.parent) === el)
      keptForClass.add(el.parent);
  }
}

/** Removes `el`; the removed subtree no longer counts for its ancestors. */
function removeCounted(el: ElementNode, vectors: Map<ElementNode, Int32Array>): void {
  const vector = vectors.get(el)!.slice();
  const own = COUNTED[el.tag];
  if (own !== undefined) vector[own]!++;
  for (let a = el.parent; a; a = a.parent) {
    const target = vectors.get(a);
    if (target) for (let i = 0; i < 6; i++) target[i]! -= vector[i]!;
  }
  removeNode(el);
}

/**
 * "junk" when the counts under `el` (its tag vector) and its links say it is not prose and nothing says it is;
 * "gallery" when they say so but it is a gallery or an indented passage, which is content; else "kept".
 */
function judge(
  el: ElementNode,
  tag: string,
  vector: Int32Array,
  weight: number,
  content: ElementNode,
  sites: Set<string>,
): "junk" | "gallery" | "kept" {
  const isList = LIST_TAGS.has(tag) || listTextRatio(el) > 0.9;
  const [p = 0, img = 0, liCount = 0, input = 0, headings = 0, embedCount = 0] = vector;
  const li = liCount - 100;
  const contentLength = textLength(el);
  const headingText = headings ? findAll(el, HEADING_TAGS).reduce((sum, h) => sum + textLength(h), 0) : 0;
  const headingDensity = contentLength ? headingText / contentLength : 0;
  let embeds = 0;
  if (embedCount) {
    for (const e of findAll(el, new Set(["object", "embed", "iframe"]))) if (!isVideoEmbed(e.attrs.src)) embeds++;
  }
  const density = linkDensity(el);
  const inFigure = hasAncestor(el, "figure", 3);
  const junk =
    (img > 1 && p / img < 0.5 && !inFigure && !(density <= 0.2 && p * 2 >= picturesBeyondIcons(el, img))) ||
    (!isList && li > p) ||
    input > Math.floor(p / 3) ||
    (!isList && headingDensity < 0.9 && contentLength < 25 && (img === 0 || img > 2) && !inFigure && density > 0) ||
    (!isList &&
      weight < 25 &&
      density > 0.2 &&
      // A section whose links are in lists its own lead-ins introduce ("Many patches were sent for review:").
      !(introducedListsDensity(el, contentLength) <= 0.2 && holdsLeadIn(el)) &&
      !(
        density < 0.5 &&
        (heldByProse(el, contentLength) ||
          isPartOfProse(el, content, sites) ||
          isLikeKeptEntry(el, content, sites) ||
          isLinkedSentences(el, contentLength, sites))
      )) ||
    (isList && weight < 25 && density > LINK_LIST_DENSITY && liCount >= LINK_LIST_ITEMS && !isReadingList(el, sites)) ||
    (weight >= 25 && density > 0.5) ||
    (embeds === 1 && contentLength < 75) ||
    embeds > 1 ||
    // No text in paragraphs, list items, cells or spans, and no image: nothing worth keeping.
    (img === 0 && !hasTextishText(el));
  if (!junk) return "kept";
  // A list whose items hold one thing each and as many images as items (a gallery; also a list
  // without items or images, such as an indented quote) is content.
  if (isList && el.children.filter(isElement).every((c) => c.children.filter(isElement).length <= 1) && img === liCount)
    return "gallery";
  // A <ul>/<ol> without any item is the old way of indenting a passage, not a list: text, unless mostly links.
  if (LIST_TAGS.has(tag) && liCount === 0 && density < 0.5 && contentLength > 0) return "gallery";
  return "junk";
}

/**
 * A block introducing the list after it: three words or more, at most 300 characters, ending in a colon, no link,
 * not a heading (longer than furniture's isLeadIn, which judges a box's last line, as a sentence may lead a list).
 */
function isListLeadIn(el: ElementNode | null): boolean {
  if (!el || HEADING_TAGS.has(el.tag)) return false;
  const text = textContent(el).trim();
  return text.endsWith(":") && text.length <= 300 && text.split(/\s+/).length >= 3 && linkTextLength(el) === 0;
}

/** The list, or the wrapper that holds nothing else (up to `top`), is introduced by a lead-in just before it. */
function isIntroduced(list: ElementNode, top: ElementNode): boolean {
  for (let a: ElementNode = list, up = 0; a !== top && up < 3; up++) {
    if (isListLeadIn(adjacentElement(a, -1))) return true;
    const parent = a.parent;
    if (!parent || parent === top || parent.children.some((c) => isElement(c) && c !== a)) return false;
    a = parent;
  }
  return false;
}

function holdsLeadIn(el: ElementNode): boolean {
  return listsOf(el).some((list) => isIntroduced(list, el));
}

/** The block's first LEAD_IN_LISTS lists (a page may hold thousands: each is looked at from its parent). */
function listsOf(el: ElementNode): ElementNode[] {
  return findAll(el, LIST_TAGS).slice(0, LEAD_IN_LISTS);
}
const LEAD_IN_LISTS = 50;

/**
 * The block's link density counting no link inside a list that a lead-in paragraph introduces (the author's
 * "Many patches were sent for review:" over the list of them): the list is the article's, its links its
 * items' sources.
 */
function introducedListsDensity(el: ElementNode, length: number): number {
  if (!length) return 0;
  let links = linkTextLength(el);
  for (const list of listsOf(el))
    if (isIntroduced(list, el) && !hasAncestorBelow(list, el, (a) => LIST_TAGS.has(a.tag)))
      links -= linkTextLength(list);
  return links / length;
}

/**
 * The block's pictures that are more than icons: an image the markup sizes 8 to ICON_SIZE pixels each way (a
 * check mark or an arrow drawn as a list's bullet) is a mark of the text beside it, not a picture (smaller ones
 * are spacers and trackers, left to count as before). Conditional cleaning takes a block of more pictures than
 * paragraphs for a gallery or a row of thumbnails; a block with few links whose pictures are such icons is not
 * one (a list of points, each behind a check mark).
 */
function picturesBeyondIcons(el: ElementNode, img: number): number {
  let icons = 0;
  for (const i of findAll(el, "img")) {
    const width = Number(i.attrs.width);
    const height = Number(i.attrs.height);
    if (width >= 8 && height >= 8 && width <= ICON_SIZE && height <= ICON_SIZE) icons++;
  }
  return img - icons;
}
const ICON_SIZE = 32;

const TEXTISH = new Set(["span", "li", "td", ...DIV_TO_P_BLOCKS]);

function hasTextishText(el: ElementNode): boolean {
  return (
    findDescendant(
      el,
      (d) => (TEXTISH.has(d.tag) && textLength(d) > 0) || (HEADING_TAGS.has(d.tag) && isQuestion(d)),
    ) !== null
  );
}

function listTextRatio(el: ElementNode): number {
  const total = textLength(el);
  if (!total) return 0;
  const listText = findAll(el, "li").reduce((sum, li) => sum + textLength(li), 0);
  return listText / total;
}
