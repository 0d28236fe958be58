// From the best-scored block to the article's block: climbing out of a list, to a common ancestor of strong
// candidates or a parent scoring as well, into a layout table's cell, and over parts of one kind.

import {
  descendants,
  type ElementNode,
  findAll,
  findDescendant,
  isElement,
  linkTextLength,
  removeNode,
  textContent,
  textLength,
} from "../html-tree";
import { ancestors, HEADING_TAGS, hasAncestorBelow, hasAncestorNode, holdsSentence, PROSE_LENGTH } from "../predicates";
import { className, initialScore, sharesClass } from "./class-weight";
import { mergesWith } from "./join-siblings";
import { heldByProse } from "./prose";
import { LIST_TAGS } from "./tags";
import { preferTitleWords } from "./title-words";

/** The best-scored block of an article gathered from parts, and its ancestors below the parts' common one. */
export const gathered = new WeakSet<ElementNode>();

/**
 * The article split over several wrappers of one kind (the same tag and class, side by side: a story body in
 * parts, with asides between them): when the chosen block's parent has a sibling of its exact kind holding a
 * block of the chosen block's kind (its tag and a class name in common) that scores as much as the merge of
 * siblings asks, the parent is taken, and the
 * merge of same-class siblings below brings in the other parts.
 */
export function climbToRepeatedWrapper(
  candidate: ElementNode,
  scores: Map<ElementNode, number>,
  body: ElementNode,
): ElementNode {
  const parent = candidate.parent;
  if (!parent || parent === body || !parent.parent) return candidate;
  const kind = className(parent);
  if (!kind) return candidate;
  // The part must score as a sibling the merge below would take (the same threshold).
  const enough = Math.max(10, (scores.get(candidate) ?? 0) * 0.2);
  for (const sibling of parent.parent.children)
    if (
      isElement(sibling) &&
      sibling !== parent &&
      sibling.tag === parent.tag &&
      className(sibling) === kind &&
      findDescendant(
        sibling,
        (el) => el.tag === candidate.tag && (scores.get(el) ?? 0) >= enough && sharesClass(el, candidate),
      )
    ) {
      if (!scores.has(parent)) scores.set(parent, scores.get(candidate) ?? 0);
      return parent;
    }
  return candidate;
}

/** Whether the merge of the chosen block's siblings takes `el` already (it sits in a sibling that joins). */
function mergedAlready(el: ElementNode, candidate: ElementNode, scores: Map<ElementNode, number>): boolean {
  const parent = candidate.parent;
  if (!parent) return false;
  let sibling: ElementNode = el;
  while (sibling.parent && sibling.parent !== parent) sibling = sibling.parent;
  return sibling.parent === parent && mergesWith(sibling, candidate, scores);
}

/**
 * An article that a page builder splits over rows or sections, one text module in each: other modules of the
 * best-scored block's exact kind (its tag and class) that are parts of the article, as the best block is,
 * lie outside the chosen block. A part scores at least a quarter of the best block, holds two paragraphs of
 * prose or more (and is not a teaser: no linked heading, no opening link) and is not merged already with the
 * chosen block's siblings; the chosen block becomes the lowest ancestor holding it and every part. A copy of
 * the best block (the article carried twice) is not a part. What that ancestor holds before the first part
 * and is no more than a label (under a sentence, no heading, no picture: "Page 1 of 8") goes, and the best
 * block is not cleaned away by conditional cleaning (its links, once judged inside a larger block).
 */
export function gatherParts(
  candidate: ElementNode,
  best: ElementNode,
  scores: Map<ElementNode, number>,
  body: ElementNode,
): ElementNode {
  const kind = className(best);
  // Only when the chosen block is the best one or holds it (another may win by the title's words).
  if (!kind || (best !== candidate && !hasAncestorNode(best, candidate))) return candidate;
  const enough = (scores.get(best) ?? 0) * PART_SCORE_SHARE;
  const bestLength = textLength(best);
  const parts: ElementNode[] = [];
  let common: ElementNode | null = candidate;
  for (const [el, score] of scores) {
    if (el === best || el.tag !== best.tag || score < enough || className(el) !== kind) continue;
    if (el === candidate || hasAncestorNode(el, candidate) || hasAncestorNode(best, el) || hasAncestorNode(el, best))
      continue;
    const length = textLength(el);
    if (length === bestLength && textContent(el) === textContent(best)) continue;
    if (!hasAncestorNode(el, body) || !heldByProse(el, length) || mergedAlready(el, candidate, scores)) continue;
    while (common && !hasAncestorNode(el, common)) common = common.parent;
    parts.push(el);
  }
  if (!parts.length || !common || common === body || !hasAncestorNode(common, body)) return candidate;
  const root = common;
  if (!scores.has(root)) scores.set(root, scores.get(candidate) ?? 0);
  const branch = (el: ElementNode): number => {
    let b = el;
    while (b.parent !== root) b = b.parent!;
    return root.children.indexOf(b);
  };
  const first = Math.min(branch(best), ...parts.map(branch));
  for (const kid of root.children.slice(0, first)) if (isElement(kid) && isBareLabel(kid)) removeNode(kid);
  for (let el: ElementNode | null = best; el && el !== root; el = el.parent) gathered.add(el);
  return root;
}
const PART_SCORE_SHARE = 0.25;

/** A block that is only a label: under a sentence's length, with no heading and no picture. */
function isBareLabel(el: ElementNode): boolean {
  return (
    textLength(el) < PROSE_LENGTH &&
    !MEDIA_TAGS.has(el.tag) &&
    !HEADING_TAGS.has(el.tag) &&
    !findDescendant(el, (d) => MEDIA_TAGS.has(d.tag) || HEADING_TAGS.has(d.tag))
  );
}
const MEDIA_TAGS = new Set(["img", "picture", "figure", "video", "audio", "iframe", "svg", "table"]);

/**
 * A layout table (or one of its rows) chosen as the article holds the page's columns side by side: when one
 * cell holds most of its own text (text outside links), that cell is the article and the other columns
 * (menus, lists of other stories) are not.
 */
export function narrowLayoutTable(candidate: ElementNode, scores: Map<ElementNode, number>): ElementNode {
  let current = candidate;
  for (let step = 0; step < 4; step++) {
    if (current.tag !== "table" && current.tag !== "tbody" && current.tag !== "tr") return current;
    const cells = findAll(current, "td").filter((td) => !hasAncestorBelow(td, current, (a) => a.tag === "table"));
    const own = (el: ElementNode) => textLength(el) - linkTextLength(el);
    const total = own(current);
    if (!total || cells.length < 2) return current;
    let best: ElementNode | null = null;
    for (const cell of cells) if (!best || own(cell) > own(best)) best = cell;
    if (!best || own(best) < total * LAYOUT_CELL_SHARE) return current;
    if (!scores.has(best)) scores.set(best, scores.get(current) ?? 0);
    current = best;
    // The cell may itself hold a nested layout table: look again inside it.
    const inner = best.children.filter(isElement);
    if (inner.length === 1 && inner[0]!.tag === "table") current = inner[0]!;
    else return current;
  }
  return current;
}
const LAYOUT_CELL_SHARE = 0.6;
/**
 * A list is the article's only when nothing above it has prose of its own: a list that wins (a slideshow's
 * fifty captions, a stream of items) while one of the best candidates around it holds paragraphs outside
 * it gives way to that candidate, which is the article the list sits in.
 */
export function climbFromList(candidate: ElementNode, top: ElementNode[]): ElementNode {
  if (!LIST_TAGS.has(candidate.tag)) return candidate;
  for (const other of top) {
    if (other === candidate || !hasAncestorNode(candidate, other)) continue;
    let prose = 0;
    let paragraphs = 0;
    for (const d of descendants(other)) {
      if (d.tag !== "p" || hasAncestorNode(d, candidate)) continue;
      prose += textLength(d);
      paragraphs++;
    }
    if (paragraphs >= LIST_CLIMB_PARAGRAPHS && prose >= LIST_CLIMB_PROSE) return other;
  }
  return candidate;
}
const LIST_CLIMB_PARAGRAPHS = 3;
const LIST_CLIMB_PROSE = 500;

export function refineTop(
  initial: ElementNode,
  top: ElementNode[],
  scores: Map<ElementNode, number>,
  body: ElementNode,
): ElementNode {
  let topCandidate = initial;
  const topScore = scores.get(topCandidate)!;
  // Several strong candidates under one ancestor: the article is that ancestor. A strong candidate holds a
  // sentence's worth of text: a picture box whose score is its class name's bonus ("article-picture") is not.
  const alternatives = top
    .slice(1)
    .filter((c) => scores.get(c)! / topScore >= 0.75 && holdsSentence(c))
    .map((c) => ancestors(c, 100));
  if (alternatives.length >= 3) {
    // The candidate itself first: strong blocks inside it are its own parts, and it already holds them.
    let parent: ElementNode | null = topCandidate;
    while (parent && parent !== body && parent.tag !== "#document") {
      const p = parent;
      const containing = alternatives.filter((list) => list.includes(p)).length;
      if (containing >= 3) {
        topCandidate = parent;
        break;
      }
      parent = parent.parent;
    }
  }
  if (!scores.has(topCandidate))
    scores.set(
      topCandidate,
      initialScore(topCandidate, { stripUnlikely: true, weightClasses: true, cleanConditionally: true }),
    );
  // Walk up while the parent scores close to the candidate: the article container may sit higher.
  let parent = topCandidate.parent;
  let lastScore = scores.get(topCandidate)!;
  const scoreThreshold = lastScore / 3;
  while (parent && parent !== body && parent.tag !== "#document") {
    const parentScore = scores.get(parent);
    if (parentScore === undefined) {
      parent = parent.parent;
      continue;
    }
    if (parentScore < scoreThreshold) break;
    if (parentScore > lastScore) {
      topCandidate = parent;
      break;
    }
    lastScore = parentScore;
    parent = parent.parent;
  }
  // A candidate that is the only child of its parent: take the parent.
  parent = topCandidate.parent;
  while (parent && parent !== body && parent.tag !== "#document" && parent.children.filter(isElement).length === 1) {
    topCandidate = parent;
    parent = topCandidate.parent;
  }
  return topCandidate;
}

/**
 * The article's block, from the best-scored candidate: the title's words, a list's surroundings, strong
 * candidates under one ancestor, a layout table's cell, parts of one kind (each step below, in this order).
 */
export function chooseCandidate(
  top: ElementNode[],
  scores: Map<ElementNode, number>,
  title: string,
  body: ElementNode,
): ElementNode {
  let candidate = preferTitleWords(top[0]!, top, scores, title);
  candidate = climbFromList(candidate, top);
  candidate = refineTop(candidate, top, scores, body);
  candidate = narrowLayoutTable(candidate, scores);
  candidate = climbToRepeatedWrapper(candidate, scores, body);
  return gatherParts(candidate, top[0]!, scores, body);
}
