// Finding the article body in a page: score paragraphs by their text, hand the score up to their
// containers, take the best container with its related siblings, then clean it of what is not article
// (navigation, share widgets, related lists, comment and ad blocks). The heuristics are the ones reader
// modes have converged on; when a pass finds too little text it is retried with the filters relaxed.

import { bylineName, removeAuthorBio, removeAuthorLines } from "../furniture/author";
import { removeFormBoxes } from "../furniture/calls-to-action";
import { removeSlotLabels } from "../furniture/labels";
import { type ElementNode, findAll, textContent, textLength } from "../html-tree";
import { HAN, siteOf } from "../predicates";
import type { Flags } from "./class-weight";
import { prepArticle } from "./clean-article";
import { removeCommentIntros, removeCommentSmallPrint } from "./comments";
import { findWidgets } from "./find-widgets";
import { joinSiblings } from "./join-siblings";
import { newElement, replaceDoubleBreaks } from "./make-paragraphs";
import { prune } from "./prune";
import { chooseCandidate } from "./refine-candidate";
import { scoreCandidates } from "./score-candidates";
import { stripUnlikely } from "./strip-unlikely";

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
  prune(body);
  const widgets = findWidgets(body);
  replaceDoubleBreaks(body);
  const walked = stripUnlikely(body, flags, widgets);
  const { scores, top } = scoreCandidates(walked.toScore, body, flags);
  const best = top[0];
  const content =
    !best || best.tag === "body" || best === body
      ? newElement("div", null, [...body.children])
      : joinSiblings(chooseCandidate(top, scores, title, body), body, scores, walked.slotHolders);
  removeCommentIntros(content, walked.commentHolders);
  removeCommentSmallPrint(content, walked.afterComments);
  prepArticle(content, flags, title, sites, widgets.controls, widgets.placed);
  removeFormBoxes(content, walked.formHolders);
  removeSlotLabels(content, walked.slotHolders);
  // The author's bio at the article's end ("Rebecca Norris is a freelance writer living in…").
  const author = bylineName(knownByline ?? walked.byline);
  if (author) {
    removeAuthorBio(content, author);
    removeAuthorLines(content, author);
  }
  return { content, byline: walked.byline };
}
