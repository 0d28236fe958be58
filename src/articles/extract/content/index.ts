// Finding the article body in a page: score paragraphs by their text, hand the score up to their
// containers, take the best container with its related siblings, then clean it of what is not article
// (navigation, share widgets, related lists, comment and ad blocks). The heuristics are the ones reader
// modes have converged on; when a pass finds too little text it is retried with the filters relaxed.

import { bylineName, removeAuthorBio, removeAuthorLines } from "../furniture/author";
import { removeFormBoxes } from "../furniture/calls-to-action";
import { removeSlotLabels } from "../furniture/labels";
import {
  commaCount,
  type ElementNode,
  findAll,
  hasAncestor,
  innerText,
  invalidate,
  isElement,
  removeNode,
  replaceNode,
  textContent,
  textLength,
} from "../html-tree";
import {
  adjacentElement,
  ancestors,
  HAN,
  HEADING_TAGS,
  hasAncestorNode,
  hasMedia,
  linkDensity,
  PHRASING,
  siteOf,
} from "../predicates";
import { BOILERPLATE_ROLES, BOILERPLATE_WORDS, CONTAINER_WORDS, hasWord } from "../signals";
import { type Flags, initialScore } from "./class-weight";
import { prepArticle } from "./clean-article";
import { inCommentSection, isCommentSection, removeCommentIntros, removeCommentSmallPrint } from "./comments";
import { findWidgets, hasField, isHidden } from "./find-widgets";
import { isLead, kindParagraph, mergesWith, slotWrappedParagraphs } from "./join-siblings";
import { hasBlockChild, newElement, replaceDoubleBreaks, wrapPhrasing } from "./make-paragraphs";
import { prune } from "./prune";
import { questionListsAfter } from "./question-lists";
import { climbFromList, climbToRepeatedWrapper, gatherParts, narrowLayoutTable, refineTop } from "./refine-candidate";
import { holdsProse, isByline, isPersonBox, joinDropCap } from "./strip-unlikely";
import { TAGS_TO_SCORE } from "./tags";
import { preferTitleWords } from "./title-words";

/**
 * The page's body: the `<body>` holding the most text. A stray `<html><head><body>` written into the head
 * (an embed's markup pasted whole) comes first in document order but is not the page.
 */
function getBody(root: ElementNode): ElementNode {
  let best: ElementNode | null = null;
  for (const body of findAll(root, "body")) if (!best || textLength(body) > textLength(best)) best = body;
  return best ?? root;
}

export interface ContentResult {
  content: ElementNode;
  byline: string | null;
}

/**
 * Finds the article body of a parsed page. The tree is consumed (pruned and rearranged in place); when a
 * pass finds too little text, `reparse` supplies a fresh tree for the next, more lenient pass.
 */
export function grabArticle(
  root: ElementNode,
  title: string,
  reparse: () => ElementNode,
  pageUrls: string[] = [],
  knownByline: string | null = null,
): ContentResult {
  const sites = new Set(pageUrls.map(siteOf).filter((x): x is string => !!x));
  const attempts: { content: ElementNode; length: number; byline: string | null }[] = [];
  const flagSets: Flags[] = [
    { stripUnlikely: true, weightClasses: true, cleanConditionally: true },
    { stripUnlikely: false, weightClasses: true, cleanConditionally: true },
    { stripUnlikely: false, weightClasses: false, cleanConditionally: true },
    { stripUnlikely: false, weightClasses: false, cleanConditionally: false },
  ];
  for (const [index, flags] of flagSets.entries()) {
    const body = getBody(index === 0 ? root : reparse());
    const result = grabWith(body, flags, title, sites, knownByline);
    const length = enoughTextLength(result.content);
    if (length >= 500) return result;
    attempts.push({ ...result, length });
  }
  // No pass found enough. The relaxed passes exist to find an article the strict one missed; when they find
  // too little as well, what they add is what the strict pass dropped as boilerplate (a short news item
  // beside comments, menus and notices). The strict pass's result stands when it found any text.
  const strict = attempts[0]!;
  if (strict.length > 0) return { content: strict.content, byline: strict.byline };
  attempts.sort((a, b) => b.length - a.length);
  const best = attempts[0]!;
  return { content: best.content, byline: best.byline };
}

/**
 * The length a pass's result is judged by ("enough text" is 500): a Han character counts twice, since
 * Chinese says in one or two characters what English says in a word of five or six. A short Chinese news
 * item (200 characters) is an article, not a failed pass; the relaxed passes would take the page around it.
 */
function enoughTextLength(el: ElementNode): number {
  const length = textLength(el);
  if (length >= 500) return length;
  return length + (textContent(el).match(HAN)?.length ?? 0);
}

function grabWith(
  body: ElementNode,
  flags: Flags,
  title: string,
  sites: Set<string>,
  knownByline: string | null,
): ContentResult {
  let byline: string | null = null;
  const toScore: ElementNode[] = [];
  prune(body);
  const { controls, placed, formAncestors, panels, toggledPanels } = findWidgets(body);
  // Where forms a reader fills in were removed: the box around one (its heading, a line of pitch) goes later.
  // The form's ancestors are kept, nearest first: cleaning may remove the emptied holder itself.
  const formHolders: ElementNode[][] = [];
  // Blocks that held an empty slot: a short label left beside one names it ("Advertisement").
  const slotHolders = new Set<ElementNode>();
  // Blocks that held an empty comment section (filled by a script): a short line left beside it is its intro.
  const commentHolders = new Set<ElementNode>();
  // The first block after a comment section removed with its comments.
  const afterComments = new Set<ElementNode>();
  replaceDoubleBreaks(body);

  // Walk in document order, removing what is clearly not content, collecting what is scored.
  const walk = (el: ElementNode): void => {
    for (let i = 0; i < el.children.length; i++) {
      const child = el.children[i]!;
      if (typeof child === "string") continue;
      // A drop cap set apart from its paragraph: the letter goes back to the word it begins.
      if (textLength(child) === 1 && joinDropCap(child, el.children, i)) {
        removeNode(child);
        i--;
        continue;
      }
      if (visit(child)) {
        if (el.children[i] !== child)
          i--; // replaced or removed: look at this index again
        else walk(child);
      } else {
        i--;
      }
    }
  };
  // Returns false when the node was removed.
  const pageText = textLength(body);
  const visit = (el: ElementNode): boolean => {
    // A `hidden` block holding most of the page's text is the page waiting for a script to show it (pages
    // that stream their content into a hidden element and then reveal it), not hidden furniture. A hidden
    // block that a control names in its `aria-controls` is a collapsed panel (an accordion's step, a tab): the
    // reader opens it, so it is text of the page; so is the hidden block right after a toggle that names none.
    if (
      isHidden(el) &&
      !("hidden" in el.attrs && textLength(el) * 2 >= pageText) &&
      !(el.attrs.id !== undefined && panels.has(el.attrs.id)) &&
      !toggledPanels.has(el)
    ) {
      removeNode(el);
      return false;
    }
    if (!byline && isByline(el)) {
      byline = innerText(el);
      removeNode(el);
      return false;
    }
    if (flags.stripUnlikely) {
      if (
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
        textLength(el) * 2 < pageText
      ) {
        // A sign-up block named by its words takes its form with it: its box is looked for as the form's.
        if (formAncestors.has(el)) formHolders.push(ancestors(el, Infinity));
        if (el.parent && textLength(el) === 0 && isCommentSection(el)) commentHolders.add(el.parent);
        // What follows readers' comments may be their small print ("By posting a comment, you consent …").
        if (textLength(el) > 0 && isCommentSection(el)) {
          const next = adjacentElement(el, 1);
          if (next) afterComments.add(next);
        }
        removeNode(el);
        return false;
      }
      // A form beside the article (a subscription, a search, a comment box) is not article text: forms held
      // 2.6 % article text on WCXB. A form wrapping a large part of the page (as some frameworks do) stays.
      // A block the page marks up as a person (the author, in microdata) is about the author, not the article.
      if (isPersonBox(el)) {
        removeNode(el);
        return false;
      }
      if (el.tag === "form" && textLength(el) * 3 < pageText && hasField(el)) {
        formHolders.push(ancestors(el, Infinity));
        removeNode(el);
        return false;
      }
      if (BOILERPLATE_ROLES.has((el.attrs.role ?? "").toLowerCase())) {
        removeNode(el);
        return false;
      }
    }
    if (
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
    ) {
      // An empty block with an id or data attributes is a slot a script fills (an advertisement, a player).
      if (el.parent && (el.attrs.id !== undefined || Object.keys(el.attrs).some((k) => k.startsWith("data-"))))
        slotHolders.add(el.parent);
      if (el.parent && isCommentSection(el)) commentHolders.add(el.parent);
      removeNode(el);
      return false;
    }
    if (TAGS_TO_SCORE.has(el.tag)) toScore.push(el);
    if (el.tag === "div") {
      // Loose text and inline elements become paragraphs first; then a div that is just one paragraph
      // (and not a cluster of links) is that paragraph, and a div with no block inside is a paragraph.
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
        toScore.push(el);
      }
    }
    return true;
  };
  walk(body);

  // Score paragraphs and hand the score up to their containers.
  const scores = new Map<ElementNode, number>();
  const candidates: ElementNode[] = [];
  for (const el of toScore) {
    if (!el.parent) continue;
    // The text's length with whitespace runs counted once (cached per element; no string is built).
    const length = textLength(el);
    if (length < 25) continue;
    const up = ancestors(el, 5);
    if (!up.length) continue;
    // One for the paragraph, one per comma-separated part, one per 100 characters (up to three).
    const contentScore = 2 + commaCount(el) + Math.min(Math.floor(length / 100), 3);
    up.forEach((ancestor, level) => {
      if (!scores.has(ancestor)) {
        scores.set(ancestor, initialScore(ancestor, flags));
        candidates.push(ancestor);
      }
      const divider = level === 0 ? 1 : level === 1 ? 2 : level * 3;
      scores.set(ancestor, scores.get(ancestor)! + contentScore / divider);
    });
  }
  // Each candidate with its final score, sorted on that (read from the map once each, not at every comparison
  // of the sort; the sort is stable, so the order is the same).
  const ranked: { candidate: ElementNode; score: number }[] = [];
  for (const candidate of candidates) {
    const score = scores.get(candidate)! * (1 - linkDensity(candidate));
    scores.set(candidate, score);
    if (candidate === body || hasAncestorNode(candidate, body)) ranked.push({ candidate, score });
  }
  ranked.sort((a, b) => b.score - a.score);
  // Cleaning drops reader comments from the article (prepArticle), so a candidate inside a comment section
  // could only come out empty: one is passed over. Comments survive the walk above when they hold much prose.
  const top: ElementNode[] = [];
  for (const { candidate } of ranked) {
    if (top.length === 5) break;
    if (!inCommentSection(candidate, body)) top.push(candidate);
  }

  let topCandidate = top[0];
  let content: ElementNode;
  if (!topCandidate || topCandidate.tag === "body" || topCandidate === body) {
    content = newElement("div", null, [...body.children]);
    topCandidate = content;
  } else {
    topCandidate = preferTitleWords(topCandidate, top, scores, title);
    topCandidate = climbFromList(topCandidate, top);
    topCandidate = refineTop(topCandidate, top, scores, body);
    topCandidate = narrowLayoutTable(topCandidate, scores);
    topCandidate = climbToRepeatedWrapper(topCandidate, scores, body);
    topCandidate = gatherParts(topCandidate, top[0]!, scores, body);
    content = newElement("div", null);
    const questions = questionListsAfter(topCandidate, body);
    const parent = topCandidate.parent;
    const siblings = parent ? [...parent.children] : [topCandidate];
    const at = siblings.indexOf(topCandidate);
    const wrapped = slotWrappedParagraphs(siblings, slotHolders);
    // The article does not resume after the readers' comments: what follows them is their small print.
    let afterComments = false;
    const joins: boolean[] = siblings.map(() => false);
    for (const [index, sibling] of siblings.entries()) {
      if (typeof sibling === "string") continue;
      if (index > at && isCommentSection(sibling)) afterComments = true;
      if (afterComments) continue;
      joins[index] =
        sibling === topCandidate ||
        mergesWith(sibling, topCandidate, scores, wrapped.get(sibling) ?? kindParagraph(sibling, topCandidate)) ||
        (index < at && isLead(sibling));
    }
    // A block held by prose between two blocks that join is a part of the article the text resumes after (a
    // section set in a box of its own), not a box beside it.
    const last = joins.lastIndexOf(true);
    for (let index = joins.indexOf(true) + 1; index < last; index++) {
      const sibling = siblings[index]!;
      if (!joins[index] && typeof sibling !== "string" && isLead(sibling)) joins[index] = true;
    }
    for (const [index, sibling] of siblings.entries()) {
      if (!joins[index] || typeof sibling === "string") continue;
      content.children.push(sibling);
      sibling.parent = content;
      invalidate(content);
    }
    for (const list of questions) {
      if (list.parent === content) continue;
      removeNode(list);
      content.children.push(list);
      list.parent = content;
      invalidate(content);
    }
  }

  removeCommentIntros(content, commentHolders);
  removeCommentSmallPrint(content, afterComments);
  prepArticle(content, flags, title, sites, controls, placed);
  removeFormBoxes(content, formHolders);
  removeSlotLabels(content, slotHolders);
  // The author's bio at the article's end ("Rebecca Norris is a freelance writer living in…").
  const author = bylineName(knownByline ?? byline);
  if (author) {
    removeAuthorBio(content, author);
    removeAuthorLines(content, author);
  }
  return { content, byline };
}
