// Reader comments are not the article, even when a page puts them inside it: comment sections, their intros
// and the small print after them.

import {
  cutFrom,
  type ElementNode,
  findDescendant,
  indexIn,
  isElement,
  removeFollowing,
  removeNode,
  textLength,
  walkElements,
} from "../html-tree";
import { hasAncestorNode, isHeading, literal, PHRASING, PROSE_TAGS } from "../predicates";
import { classOrIdMatches } from "./class-weight";

const COMMENT_TOKENS = new Set([
  "comments",
  "comment-list",
  "commentlist",
  "comments-area",
  "comments-section",
  "comment-section",
  "comment-respond",
  "respond",
  "disqus_thread",
  "discussion",
  "replies",
  "comments-wrapper",
  "comments-container",
]);
/** Any of the tokens inside a class or id: most hold none, and are answered without splitting them. */
const COMMENT_WORD = new RegExp([...COMMENT_TOKENS].map(literal).join("|"), "i");

export function isCommentSection(el: ElementNode): boolean {
  if (el.attrs.class === undefined && el.attrs.id === undefined) return false;
  if (!classOrIdMatches(el, COMMENT_WORD)) return false;
  const tokens = `${el.attrs.class ?? ""} ${el.attrs.id ?? ""}`.toLowerCase().split(/\s+/);
  return tokens.some((t) => COMMENT_TOKENS.has(t));
}

/**
 * The intro left beside an empty comment section (a script fills it): the block that held the section, when
 * what it holds besides is a line or two (COMMENT_INTRO characters, no heading): "Thank you for being part of
 * our community. Read our comment policy before posting."
 */
export function removeCommentIntros(content: ElementNode, holders: Set<ElementNode>): void {
  for (const holder of holders) {
    if (holder === content || !holder.parent || !hasAncestorNode(holder, content)) continue;
    const length = textLength(holder);
    if (length === 0 || length > COMMENT_INTRO || findDescendant(holder, isHeading)) continue;
    removeNode(holder);
  }
}
const COMMENT_INTRO = 200;

/**
 * Comments after their marker: a short element named as the comment section (the anchor a page's "6 comments"
 * link points to, holding that count at most) starts the readers' comments, which the page lays out as the
 * marker's following siblings rather than inside it. They go with it. Then every comment section goes.
 */
export function removeCommentSections(content: ElementNode): void {
  const markers: ElementNode[] = [];
  // The outermost comment sections, in document order.
  const sections: ElementNode[] = [];
  walkElements(content, (el) => {
    if (isCommentSection(el)) {
      sections.push(el);
      // A link to the comments ("12 comments" in a post's meta line) is not where they start: its target is.
      if (textLength(el) <= COMMENT_MARKER && el.attrs.href === undefined) {
        // The marker is the largest block holding nothing else (an anchor wrapped in the count's paragraph).
        let marker = el;
        for (let level = 0; level < MARKER_LEVELS; level++) {
          const up = marker.parent;
          if (!up || up === content || textLength(up) !== textLength(el)) break;
          marker = up;
        }
        // Inside a paragraph's text it is a word of the text, not where a section starts.
        const holder = marker.parent?.tag ?? "";
        if (!PROSE_TAGS.has(holder) && !PHRASING.has(holder)) markers.push(marker);
      }
      return false;
    }
    return undefined;
  });
  // In document order: a later marker among the siblings an earlier one cut is gone with them.
  for (const marker of markers) {
    const parent = marker.parent;
    // The comments come after the article: a marker with little of it before (a count in the head) cuts nothing.
    if (!parent || !textBefore(marker, content, COMMENT_AFTER)) continue;
    removeFollowing(marker);
  }
  // The sections the cuts left in the article: as `cleanMatching(content, isCommentSection)` would remove them,
  // without a walk of its own over the article (the cuts only take whole subtrees, so the outermost sections
  // still in the article are those found above that are still in it).
  for (const section of sections) {
    const parent = section.parent;
    if (parent && (parent === content || hasAncestorNode(parent, content))) removeNode(section);
  }
}

const COMMENT_MARKER = 30;
const MARKER_LEVELS = 3;
const COMMENT_AFTER = 500;

/**
 * Whether `el` has at least `length` characters of `content`'s text before it, looking at no more than
 * SIBLINGS_BEFORE siblings at each level up (a marker deep in a wide block is judged by its near siblings).
 */
function textBefore(el: ElementNode, content: ElementNode, length: number): boolean {
  let total = 0;
  for (let at: ElementNode = el; at !== content && at.parent; at = at.parent) {
    const siblings = at.parent.children;
    const index = indexIn(siblings, at);
    for (let i = index - 1; i >= 0 && i >= index - SIBLINGS_BEFORE; i--) {
      total += textLength(siblings[i]!);
      if (total >= length) return true;
    }
  }
  return false;
}
const SIBLINGS_BEFORE = 64;

/**
 * The small print after readers' comments: the blocks from the one that followed a comment section to the end of
 * their parent, when they are a line or two (COMMENT_INTRO characters, no heading: "By posting a comment, you
 * consent to …", "Back to top"). The article does not resume after its comments.
 */
export function removeCommentSmallPrint(content: ElementNode, firsts: Set<ElementNode>): void {
  for (const first of firsts) {
    const parent = first.parent;
    if (!parent || !hasAncestorNode(first, content)) continue;
    const siblings = parent.children;
    const from = indexIn(siblings, first);
    let length = 0;
    let heading = false;
    for (let i = from; i < siblings.length && !heading && length <= COMMENT_INTRO; i++) {
      const sibling = siblings[i]!;
      length += textLength(sibling);
      if (isElement(sibling) && (isHeading(sibling) || findDescendant(sibling, isHeading))) heading = true;
    }
    if (heading || length === 0 || length > COMMENT_INTRO) continue;
    cutFrom(first, parent);
  }
}

export function inCommentSection(el: ElementNode, body: ElementNode): boolean {
  for (let up: ElementNode | null = el; up && up !== body; up = up.parent) if (isCommentSection(up)) return true;
  return false;
}
