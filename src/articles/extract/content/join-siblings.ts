// The chosen block's siblings that are the article too: blocks scoring near it or of its kind, paragraphs of
// prose, the lead before it.

import {
  type ElementNode,
  innerText,
  invalidate,
  removeNode,
  soleElementChild,
  type TreeNode,
  textContent,
  textLength,
} from "../html-tree";
import { linkDensity } from "../predicates";
import { className, holdsClasses, sharesClass } from "./class-weight";
import { isCommentSection } from "./comments";
import { countMatches, TIME_OF_DAYS } from "./dated-streams";
import { newElement } from "./make-paragraphs";
import { heldByProse } from "./prose";
import { questionListsAfter } from "./question-lists";

/**
 * The article's lead, written before the chosen block in a wrapper of its own (an intro scored too deep to
 * join by score): a preceding sibling held by prose (two paragraphs or more that open with words of their own,
 * most of its text, under no linked heading), with fewer than two times of day (a ticker of other news is
 * dated line by line).
 */
export function isLead(el: ElementNode): boolean {
  if (el.tag === "p" || !heldByProse(el, textLength(el))) return false;
  return countMatches(textContent(el), TIME_OF_DAYS, 2) < 2;
}

/**
 * Whether a sibling of the chosen block joins it: a block scoring a fifth of it (at least 10), or a paragraph of
 * prose (`paragraph`: the sibling itself, or the one paragraph a wrapper holds, see slotWrappedParagraphs).
 */
export function mergesWith(
  sibling: ElementNode,
  candidate: ElementNode,
  scores: Map<ElementNode, number>,
  paragraph: ElementNode = sibling,
): boolean {
  const topScore = scores.get(candidate) ?? 0;
  const threshold = Math.max(10, topScore * 0.2);
  let bonus = 0;
  // A block of the chosen block's kind: its class, or every one of its class names (two or more) in any order
  // with a modifier of its own ("main-blog-post rich-text-block" beside "rich-text-block main-blog-post intro").
  if (className(sibling) && (className(sibling) === className(candidate) || holdsClasses(sibling, candidate)))
    bonus += topScore * 0.2;
  const siblingScore = scores.get(sibling);
  if (siblingScore !== undefined && siblingScore + bonus >= threshold) return true;
  if (paragraph.tag !== "p") return false;
  const density = linkDensity(paragraph);
  const text = innerText(paragraph);
  if (text.length > 80 && density < 0.25) return true;
  return text.length < 80 && text.length > 0 && density === 0 && /\.( |$)/.test(text);
}

/**
 * Paragraphs wrapped one by one beside the slots a script fills (a page that places an advertisement after its
 * paragraphs wraps each paragraph with the empty element the advertisement goes into): the siblings of the
 * chosen block that the walk left holding one paragraph and nothing else once it dropped the empty slot beside
 * it, each mapped to its paragraph, for the merge to judge as a paragraph. Only when SLOT_WRAPPED or more
 * siblings are such: one wrapper beside a slot is as often a box of its own (a disclaimer, a note on the author).
 */
export function slotWrappedParagraphs(
  siblings: TreeNode[],
  slotHolders: Set<ElementNode>,
): Map<ElementNode, ElementNode> {
  const wrapped = new Map<ElementNode, ElementNode>();
  for (const sibling of siblings) {
    if (typeof sibling === "string" || sibling.tag !== "div" || !slotHolders.has(sibling)) continue;
    const paragraph = loneParagraph(sibling);
    if (paragraph) wrapped.set(sibling, paragraph);
  }
  if (wrapped.size < SLOT_WRAPPED) wrapped.clear();
  return wrapped;
}
const SLOT_WRAPPED = 2;

/** The one paragraph a wrapper holds and nothing else (but whitespace), or null. */
function loneParagraph(wrapper: ElementNode): ElementNode | null {
  const only = soleElementChild(wrapper);
  return only?.tag === "p" ? only : null;
}

/**
 * A wrapper of the chosen block's kind (a class name in common, "storytext" beside "transcript storytext")
 * left holding one paragraph: the merge judges that paragraph.
 */
export function kindParagraph(sibling: ElementNode, candidate: ElementNode): ElementNode | undefined {
  if (sibling.tag !== "div" || !sharesClass(sibling, candidate)) return undefined;
  return loneParagraph(sibling) ?? undefined;
}

/**
 * The article: a new block holding the chosen block and those of its siblings that join it (up to the readers'
 * comments), then the question lists after it.
 */
export function joinSiblings(
  candidate: ElementNode,
  body: ElementNode,
  scores: Map<ElementNode, number>,
  slotHolders: Set<ElementNode>,
): ElementNode {
  const content = newElement("div", null);
  const questions = questionListsAfter(candidate, body);
  const parent = candidate.parent;
  const siblings = parent ? [...parent.children] : [candidate];
  const at = siblings.indexOf(candidate);
  const wrapped = slotWrappedParagraphs(siblings, slotHolders);
  // The article does not resume after the readers' comments: what follows them is their small print.
  let afterComments = false;
  const joins: boolean[] = siblings.map(() => false);
  for (const [index, sibling] of siblings.entries()) {
    if (typeof sibling === "string") continue;
    if (index > at && isCommentSection(sibling)) afterComments = true;
    if (afterComments) continue;
    joins[index] =
      sibling === candidate ||
      mergesWith(sibling, candidate, scores, wrapped.get(sibling) ?? kindParagraph(sibling, candidate)) ||
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
  return content;
}
