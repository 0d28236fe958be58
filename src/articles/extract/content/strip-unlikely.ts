// The walk over the page in document order before scoring: hidden blocks, the byline, blocks named as page
// parts, forms and empty slots go; divs that are paragraphs become paragraphs; what is scored is collected.

import {
  descendants,
  type ElementNode,
  HEADING_TAGS,
  hasAncestor,
  innerText,
  invalidate,
  isElement,
  removeNode,
  replaceNode,
  type TreeNode,
  textContent,
  textLength,
} from "../html-tree";
import { adjacentElement, ancestors, hasMedia, linkDensity, PHRASING } from "../predicates";
import { BOILERPLATE_ROLES, BOILERPLATE_WORDS, BYLINE_WORDS, CONTAINER_WORDS, hasWord } from "../signals";
import type { Flags } from "./class-weight";
import { isCommentSection } from "./comments";
import { type findWidgets, hasField, isHidden } from "./find-widgets";
import { hasBlockChild, wrapPhrasing } from "./make-paragraphs";
import { TAGS_TO_SCORE } from "./tags";

/**
 * A drop cap written as an element of its own (a block holding the first letter of the article, styled large,
 * and the paragraph after it opening with the rest of the word, "D" and "uring the pandemic"): a single capital
 * letter in an element with no picture, followed (past whitespace) by an element whose text opens with a small
 * letter. The letter is put back before that text; returns whether it was.
 */
export function joinDropCap(cap: ElementNode, siblings: TreeNode[], at: number): boolean {
  const letter = textContent(cap).trim();
  if (PHRASING.has(cap.tag) || !DROP_CAP.test(letter) || hasMedia(cap)) return false;
  let next: TreeNode | undefined;
  for (let j = at + 1; j < siblings.length && j <= at + DROP_CAP_GAP; j++) {
    const sibling = siblings[j]!;
    if (typeof sibling === "string" && sibling.trim() === "") continue;
    next = sibling;
    break;
  }
  if (!next || typeof next === "string") return false;
  // The first text under the next element, down its first children.
  let holder: ElementNode = next;
  for (let depth = 0; depth < DROP_CAP_DEPTH; depth++) {
    const index = holder.children.findIndex((c) => (typeof c === "string" ? c.trim() !== "" : textLength(c) > 0));
    if (index < 0) return false;
    const first = holder.children[index]!;
    if (typeof first !== "string") {
      holder = first;
      continue;
    }
    const start = first.length - first.trimStart().length;
    if (!/^\p{Ll}/u.test(first.slice(start))) return false;
    holder.children[index] = first.slice(0, start) + letter + first.slice(start);
    invalidate(holder);
    return true;
  }
  return false;
}
const DROP_CAP = /^\p{Lu}$/u;
const DROP_CAP_GAP = 3;
const DROP_CAP_DEPTH = 10;

/**
 * A block that holds prose in its own right: 1,500 characters or more in paragraphs, with few links. A
 * page-part name on such a block is a wrapper's (a theme's "branding" around the whole page), not a verdict.
 */
export function holdsProse(el: ElementNode): boolean {
  if (textLength(el) < 1500 || linkDensity(el) > 0.2) return false;
  let prose = 0;
  for (const d of descendants(el)) if (d.tag === "p") prose += textLength(d);
  return prose >= 1500;
}

/** A block marked up as a person (`itemtype` schema.org/Person, or `itemprop="author"`) of bio length. */
export function isPersonBox(el: ElementNode): boolean {
  if (PHRASING.has(el.tag)) return false;
  const { itemtype, itemprop } = el.attrs;
  if (itemtype === undefined && itemprop === undefined) return false;
  const marked = /schema\.org\/Person$/i.test(itemtype ?? "") || /(^|\s)author(\s|$)/i.test(itemprop ?? "");
  return marked && textLength(el) < 1000;
}

export function isByline(el: ElementNode): boolean {
  const rel = el.attrs.rel ?? "";
  const itemprop = el.attrs.itemprop ?? "";
  if (rel !== "author" && !itemprop.includes("author") && !hasWord(el, BYLINE_WORDS)) return false;
  const text = innerText(el);
  return text.length > 0 && text.length < 100;
}

/** What the page's widgets are, read before the walk (see findWidgets). */
type Widgets = ReturnType<typeof findWidgets>;

/** What the walk found: the byline, the blocks to score, and where removed blocks were, for later steps. */
export interface Walked {
  byline: string | null;
  toScore: ElementNode[];
  // Where forms a reader fills in were removed: the box around one (its heading, a line of pitch) goes later.
  // The form's ancestors are kept, nearest first: cleaning may remove the emptied holder itself.
  formHolders: ElementNode[][];
  // Blocks that held an empty slot: a short label left beside one names it ("Advertisement").
  slotHolders: Set<ElementNode>;
  // Blocks that held an empty comment section (filled by a script): a short line left beside it is its intro.
  commentHolders: Set<ElementNode>;
  // The first block after a comment section removed with its comments.
  afterComments: Set<ElementNode>;
}

/** Walks the page in document order, removing what is clearly not content, collecting what is scored. */
export function stripUnlikely(body: ElementNode, flags: Flags, widgets: Widgets): Walked {
  const walk = new PageWalk(flags, widgets, textLength(body));
  walk.walk(body);
  return walk.found;
}

class PageWalk {
  readonly found: Walked = {
    byline: null,
    toScore: [],
    formHolders: [],
    slotHolders: new Set(),
    commentHolders: new Set(),
    afterComments: new Set(),
  };
  constructor(
    private readonly flags: Flags,
    private readonly widgets: Widgets,
    private readonly pageText: number,
  ) {}

  walk(el: ElementNode): void {
    for (let i = 0; i < el.children.length; i++) {
      const child = el.children[i]!;
      if (typeof child === "string") continue;
      // A drop cap set apart from its paragraph: the letter goes back to the word it begins.
      if (textLength(child) === 1 && joinDropCap(child, el.children, i)) {
        removeNode(child);
        i--;
        continue;
      }
      if (this.visit(child)) {
        if (el.children[i] !== child)
          i--; // replaced or removed: look at this index again
        else this.walk(child);
      } else {
        i--;
      }
    }
  }

  /** Returns false when the node was removed. */
  private visit(el: ElementNode): boolean {
    const found = this.found;
    if (this.isHiddenPart(el)) {
      removeNode(el);
      return false;
    }
    if (!found.byline && isByline(el)) {
      found.byline = innerText(el);
      removeNode(el);
      return false;
    }
    if (this.flags.stripUnlikely && this.removedAsUnlikely(el)) return false;
    if (isEmptyBlock(el)) {
      // An empty block with an id or data attributes is a slot a script fills (an advertisement, a player).
      if (el.parent && (el.attrs.id !== undefined || Object.keys(el.attrs).some((k) => k.startsWith("data-"))))
        found.slotHolders.add(el.parent);
      if (el.parent && isCommentSection(el)) found.commentHolders.add(el.parent);
      removeNode(el);
      return false;
    }
    if (TAGS_TO_SCORE.has(el.tag)) found.toScore.push(el);
    if (el.tag === "div") return this.divAsParagraph(el);
    return true;
  }

  /**
   * A `hidden` block holding most of the page's text is the page waiting for a script to show it (pages
   * that stream their content into a hidden element and then reveal it), not hidden furniture. A hidden
   * block that a control names in its `aria-controls` is a collapsed panel (an accordion's step, a tab): the
   * reader opens it, so it is text of the page; so is the hidden block right after a toggle that names none.
   */
  private isHiddenPart(el: ElementNode): boolean {
    const { panels, toggledPanels } = this.widgets;
    return (
      isHidden(el) &&
      !("hidden" in el.attrs && textLength(el) * 2 >= this.pageText) &&
      !(el.attrs.id !== undefined && panels.has(el.attrs.id)) &&
      !toggledPanels.has(el)
    );
  }

  /** Removes `el` when its words, its markup or its form say it is a part of the page beside the article. */
  private removedAsUnlikely(el: ElementNode): boolean {
    const found = this.found;
    if (this.isNamedPagePart(el)) {
      // A sign-up block named by its words takes its form with it: its box is looked for as the form's.
      if (this.widgets.formAncestors.has(el)) found.formHolders.push(ancestors(el, Infinity));
      if (el.parent && textLength(el) === 0 && isCommentSection(el)) found.commentHolders.add(el.parent);
      // What follows readers' comments may be their small print ("By posting a comment, you consent …").
      if (textLength(el) > 0 && isCommentSection(el)) {
        const next = adjacentElement(el, 1);
        if (next) found.afterComments.add(next);
      }
      removeNode(el);
      return true;
    }
    // A form beside the article (a subscription, a search, a comment box) is not article text: forms held
    // 2.6 % article text on WCXB. A form wrapping a large part of the page (as some frameworks do) stays.
    // A block the page marks up as a person (the author, in microdata) is about the author, not the article.
    if (isPersonBox(el)) {
      removeNode(el);
      return true;
    }
    if (el.tag === "form" && textLength(el) * 3 < this.pageText && hasField(el)) {
      found.formHolders.push(ancestors(el, Infinity));
      removeNode(el);
      return true;
    }
    if (BOILERPLATE_ROLES.has((el.attrs.role ?? "").toLowerCase())) {
      removeNode(el);
      return true;
    }
    return false;
  }

  private isNamedPagePart(el: ElementNode): boolean {
    return (
      hasWord(el, BOILERPLATE_WORDS) &&
      !hasWord(el, CONTAINER_WORDS) &&
      // Inside a paragraph it is part of the paragraph's text (a formula's widget, a highlighted term).
      !hasAncestor(el, "p", 0) &&
      // Page parts are blocks: an inline element (or a custom one, such as a formula's renderer) is text.
      !PHRASING.has(el.tag) &&
      !el.tag.includes("-") &&
      !holdsProse(el) &&
      !hasAncestor(el, "table", 0) &&
      !hasAncestor(el, "code", 0) &&
      el.tag !== "body" &&
      el.tag !== "a" &&
      // A block holding half the page's text or more is the page's frame, whatever a framework named it
      // ("dialog-off-canvas-main-canvas"): a part beside the article holds less than the article.
      textLength(el) * 2 < this.pageText
    );
  }

  /**
   * Loose text and inline elements become paragraphs first; then a div that is just one paragraph (and not a
   * cluster of links) is that paragraph, and a div with no block inside is a paragraph.
   */
  private divAsParagraph(el: ElementNode): boolean {
    wrapPhrasing(el);
    const elementChildren = el.children.filter(isElement);
    if (
      elementChildren.length === 1 &&
      elementChildren[0]!.tag === "p" &&
      el.children.every((c) => isElement(c) || c.trim() === "") &&
      linkDensity(el) < 0.25
    ) {
      // The walk looks at this index again and scores the paragraph there.
      replaceNode(el, elementChildren[0]!);
      return true;
    }
    if (!hasBlockChild(el)) {
      el.tag = "p";
      invalidate(el);
      this.found.toScore.push(el);
    }
    return true;
  }
}

/** An empty block (a div, section, header or heading with no text) holding no picture, rule or break. */
function isEmptyBlock(el: ElementNode): boolean {
  return (
    (el.tag === "div" || el.tag === "section" || el.tag === "header" || HEADING_TAGS.has(el.tag)) &&
    textLength(el) === 0 &&
    !el.children.some(
      (c) =>
        isElement(c) &&
        (c.tag === "img" ||
          c.tag === "picture" ||
          c.tag === "figure" ||
          c.tag === "hr" ||
          c.tag === "br" ||
          hasMedia(c)),
    )
  );
}
