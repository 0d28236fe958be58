// Finding the article body in a page: score paragraphs by their text, hand the score up to their
// containers, take the best container with its related siblings, then clean it of what is not article
// (navigation, share widgets, related lists, comment and ad blocks). The heuristics are the ones reader
// modes have converged on; when a pass finds too little text it is retried with the filters relaxed.

import {
  bylineName,
  edgeLines,
  isButton,
  isLeadIn,
  removeActionBoxes,
  removeAuthorBio,
  removeAuthorLines,
  removeClosingCredit,
  removeDatelines,
  removeDoubledLabels,
  removeEdgeDates,
  removeFormBoxes,
  removeHeadCounts,
  removeHeadNotice,
  removeLoneButtons,
  removeNamedBoxTail,
  removePortraitTail,
  removeRuledNote,
  removeSlotLabels,
  removeSponsorBoxes,
  removeTrailingHeadings,
  removeTrailingLink,
} from "./furniture";
import {
  commaCount,
  createElement,
  cutFrom,
  descendants,
  type ElementNode,
  findAll,
  findDescendant,
  hasAncestor,
  indexIn,
  innerText,
  invalidate,
  isElement,
  linkTextLength,
  removeFollowing,
  removeNode,
  replaceNode,
  type TreeNode,
  textContent,
  textLength,
  walkElements,
} from "./html-tree";
import {
  adjacentElement,
  ancestors,
  endsProse,
  FILE_LINK,
  HAN,
  HEADING_TAGS,
  hasAncestorBelow,
  hasAncestorNode,
  hasMedia,
  holdsSentence,
  isHeading,
  isInternal,
  isProse,
  linkDensity,
  literal,
  MAX_TAIL_DEPTH,
  MEDIA_ELEMENTS,
  PHRASING,
  PROSE_LENGTH,
  PROSE_TAGS,
  siteOf,
} from "./predicates";
import {
  attributeWords,
  BOILERPLATE_ROLES,
  BOILERPLATE_WORDS,
  BYLINE_WORDS,
  CONTAINER_WORDS,
  hasWord,
  idWords,
  inVocabulary,
  LEANING_BOILERPLATE_WORDS,
  SHARE_WORDS,
} from "./signals";

const RELATED = /related/i;
const AUTHOR_BOX =
  /(^|[\s_-])(author-?(bio|box|info|card|profile|details|about)|about-?(the-?)?author|(article|post|entry)-?author)([\s_-]|$)/i;

/** An embed that plays video (kept in a block like a picture): its address names a player or a video file. */
function isVideoEmbed(src: string | undefined): boolean {
  if (!src) return false;
  const words = src.toLowerCase().split(/[^a-z0-9]+/);
  return (
    words.some((w) => w === "player" || w === "video" || w === "videos" || w === "embed") ||
    /\.(mp4|webm|ogv)(\?|$)/i.test(src)
  );
}

const TAGS_TO_SCORE = new Set(["section", "h2", "h3", "h4", "h5", "h6", "p", "td", "pre"]);
const LIST_TAGS = new Set(["ul", "ol"]);
const DIV_TO_P_BLOCKS = new Set(["blockquote", "dl", "div", "img", "ol", "p", "pre", "table", "ul"]);
/**
 * Dropped before anything else: never content. Everything else stays in the tree while scoring, because it
 * shapes it (a form wrapping a whole page, a button beside the article); what is unsafe or useless in a
 * forum post is removed after the article is chosen and never survives the block tree (docs/extraction.md).
 */
const ALWAYS_DROP = new Set(["script", "style", "noscript", "template", "head", "select", "datalist", "textarea"]);
/** Removed from the chosen article (interactive or embedded things a post cannot carry). */
const NOT_CONTENT = new Set([
  "iframe",
  "frame",
  "frameset",
  "object",
  "embed",
  "applet",
  "link",
  "meta",
  "base",
  "input",
  "button",
  "select",
  "textarea",
  "option",
  "dialog",
  "map",
  "area",
  "audio",
  "video",
  "track",
  "source",
  "param",
  "portal",
  "canvas",
]);

interface Flags {
  stripUnlikely: boolean;
  weightClasses: boolean;
  cleanConditionally: boolean;
}

function className(el: ElementNode): string {
  return el.attrs.class ?? "";
}

/**
 * Whether `pattern` (no `g` flag) matches the class or the id. Asked of the class and the id apart, not of the
 * two joined by a space: the same answer for a pattern whose match holds no whitespace and may begin or end at a
 * space or at either end, without building a string per element (the cleaning passes ask every element).
 */
function classOrIdMatches(el: ElementNode, pattern: RegExp): boolean {
  const { class: cls, id } = el.attrs;
  return (cls !== undefined && pattern.test(cls)) || (id !== undefined && pattern.test(id));
}

function isHidden(el: ElementNode): boolean {
  const style = el.attrs.style;
  if (style && /(^|;)\s*(display\s*:\s*none|visibility\s*:\s*hidden)/i.test(style)) return true;
  if ("hidden" in el.attrs) return true;
  // aria-hidden widgets are decoration; fallback images inside them are the exception readers make.
  if (el.attrs["aria-hidden"] === "true" && !/fallback-image/.test(className(el))) return true;
  return false;
}

function classWeight(el: ElementNode, flags: Flags): number {
  if (!flags.weightClasses) return 0;
  let weight = 0;
  // Class and id count separately, as two statements the author made about the element.
  for (const words of [attributeWords(el.attrs.class), idWords(el)]) {
    if (words.some((w) => inVocabulary(w, LEANING_BOILERPLATE_WORDS))) weight -= 25;
    if (words.some((w) => CONTAINER_WORDS.has(w))) weight += 25;
  }
  return weight;
}

/**
 * Whether the words that weigh a block down are only the leaning ones ("header", "caption", "sidebar"...),
 * none of the words whose blocks are almost never article text ("comment", "related", "footer"...).
 */
function onlyLeaning(el: ElementNode): boolean {
  for (const words of [attributeWords(el.attrs.class), idWords(el)])
    if (words.some((w) => inVocabulary(w, BOILERPLATE_WORDS))) return false;
  return true;
}

function initialScore(el: ElementNode, flags: Flags): number {
  let score = 0;
  switch (el.tag) {
    case "div":
      score = 5;
      break;
    case "pre":
    case "td":
    case "blockquote":
      score = 3;
      break;
    case "address":
    case "ol":
    case "ul":
    case "dl":
    case "dd":
    case "dt":
    case "li":
    case "form":
      score = -3;
      break;
    case "h1":
    case "h2":
    case "h3":
    case "h4":
    case "h5":
    case "h6":
    case "th":
      score = -5;
      break;
  }
  return score + classWeight(el, flags);
}

function isWhitespace(node: TreeNode): boolean {
  return typeof node === "string" ? node.trim() === "" : node.tag === "br";
}

function isPhrasing(node: TreeNode): boolean {
  if (typeof node === "string") return true;
  if (PHRASING.has(node.tag)) return true;
  return (node.tag === "a" || node.tag === "del" || node.tag === "ins") && node.children.every(isPhrasing);
}

function hasBlockChild(el: ElementNode): boolean {
  for (const child of el.children) {
    if (typeof child === "string") continue;
    if (DIV_TO_P_BLOCKS.has(child.tag) || hasBlockChild(child)) return true;
  }
  return false;
}

function newElement(tag: string, parent: ElementNode | null, children: TreeNode[] = []): ElementNode {
  const el = createElement(tag, {}, parent, children);
  for (const child of children) if (isElement(child)) child.parent = el;
  return el;
}

/** `<p>`s turned into containers of paragraphs: written as text by the author, so never cleaned away as a container. */
const splitParagraphs = new WeakSet<ElementNode>();
/** The best-scored block of an article gathered from parts, and its ancestors below the parts' common one. */
const gathered = new WeakSet<ElementNode>();

/**
 * `<br><br>` inside a container separates paragraphs: make them real paragraphs. A `<p>` that holds several
 * such paragraphs (a common CMS habit) becomes a `<div>` of paragraphs, so each one counts when scoring.
 */
function replaceDoubleBreaks(body: ElementNode): void {
  for (const el of descendants(body)) {
    if (el.tag === "pre" || el.tag === "code") continue;
    const kids = el.children;
    let hasDouble = false;
    for (let i = 0; i < kids.length; i++) {
      const node = kids[i]!;
      if (isElement(node) && node.tag === "br") {
        let j = i + 1;
        while (j < kids.length && typeof kids[j] === "string" && (kids[j] as string).trim() === "") j++;
        const next = kids[j];
        if (next && isElement(next) && next.tag === "br") {
          hasDouble = true;
          break;
        }
      }
    }
    if (!hasDouble || hasAncestor(el, "pre", 0) || hasAncestor(el, "code", 0)) continue;
    if (el.tag === "p") {
      el.tag = "div";
      splitParagraphs.add(el);
    }
    const out: TreeNode[] = [];
    let run: TreeNode[] = [];
    let breaks = 0;
    const flush = () => {
      while (run.length && isWhitespace(run[run.length - 1]!)) run.pop();
      while (run.length && isWhitespace(run[0]!)) run.shift();
      if (run.length) out.push(newElement("p", el, run));
      run = [];
    };
    for (const node of kids) {
      if (isElement(node) && node.tag === "br") {
        breaks++;
        run.push(node);
        continue;
      }
      if (typeof node === "string" && node.trim() === "") {
        run.push(node);
        continue;
      }
      if (breaks >= 2) {
        // Drop the trailing breaks that formed the paragraph boundary.
        while (run.length && isWhitespace(run[run.length - 1]!)) run.pop();
        flush();
      }
      breaks = 0;
      if (isPhrasing(node)) run.push(node);
      else {
        flush();
        out.push(node);
      }
    }
    flush();
    el.children = out;
    invalidate(el);
  }
}

/** Wraps each run of phrasing content (text, inline elements) of a container in a paragraph. */
function wrapPhrasing(el: ElementNode): void {
  const out: TreeNode[] = [];
  let p: ElementNode | null = null;
  for (const child of el.children) {
    if (isPhrasing(child)) {
      if (p) {
        p.children.push(child);
        if (isElement(child)) child.parent = p;
      } else if (!isWhitespace(child)) {
        p = newElement("p", el, [child]);
        out.push(p);
      } else out.push(child);
      continue;
    }
    if (p) while (p.children.length && isWhitespace(p.children[p.children.length - 1]!)) p.children.pop();
    p = null;
    out.push(child);
  }
  if (p) while (p.children.length && isWhitespace(p.children[p.children.length - 1]!)) p.children.pop();
  el.children = out;
  invalidate(el);
}

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

/**
 * A drop cap written as an element of its own (a block holding the first letter of the article, styled large,
 * and the paragraph after it opening with the rest of the word, "D" and "uring the pandemic"): a single capital
 * letter in an element with no picture, followed (past whitespace) by an element whose text opens with a small
 * letter. The letter is put back before that text; returns whether it was.
 */
function joinDropCap(cap: ElementNode, siblings: TreeNode[], at: number): boolean {
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
 * Questions and answers after the article (an FAQ, often in a section of its own below the article's
 * column): a block following the chosen block, or one of its two ancestors below the body, that is a list
 * of three or more items of one kind (tag and class) with few links, three or more of them opening with a
 * short line holding a question mark (the question, not a link: cards of other stories open with their
 * headline link) and holding a paragraph of prose (the answer), the items making most of the list's text.
 */
function questionListsAfter(candidate: ElementNode, body: ElementNode): ElementNode[] {
  const found: ElementNode[] = [];
  let level = 0;
  for (let a: ElementNode | null = candidate; a && a !== body && a.parent && level < QUESTION_LEVELS; a = a.parent) {
    level++;
    const kids = a.parent.children;
    for (let i = kids.indexOf(a) + 1; i < kids.length; i++) {
      const kid = kids[i]!;
      if (isElement(kid) && isQuestionList(kid)) found.push(kid);
    }
  }
  return found;
}
const QUESTION_LEVELS = 3;

function isQuestionList(el: ElementNode): boolean {
  const length = textLength(el);
  if (length < PROSE_LENGTH * 3 || linkDensity(el) > 0.3) return false;
  // The list is the block itself or a block inside holding most of its text (under a heading "FAQ"): at most
  // one child holds 80 % of a block's text, so this follows a single path down.
  for (let list: ElementNode | undefined = el; list; ) {
    if (hasQuestionItems(list)) return true;
    list = list.children.find((c): c is ElementNode => isElement(c) && textLength(c) * 10 >= length * 8);
  }
  return false;
}

function hasQuestionItems(list: ElementNode): boolean {
  // A heading over the items is the list's title ("FAQs"), not an item: the kind is the first other child's.
  const items = list.children.filter((c): c is ElementNode => isElement(c) && !isHeading(c));
  if (items.length < 3) return false;
  const first = items[0]!;
  const same = items.filter((item) => item.tag === first.tag && className(item) === className(first));
  // The items make most of the list's text (cheap, from cached lengths: most blocks fail here).
  if (same.length < 3 || same.reduce((sum, item) => sum + textLength(item), 0) * 10 < textLength(list) * 8)
    return false;
  let answered = 0;
  for (const item of same) {
    if (nearlyOpeningLink(item)) return false;
    const question = questionOf(item);
    if (
      question &&
      QUESTION_MARK.test(question) &&
      findAll(item, PROSE_UNITS).some((p) => isProse(p) && !openingLink(p))
    )
      answered++;
  }
  return answered >= 3;
}
const QUESTION_MARK = /[?？]/;

/** A link that opens nothing but a toggle: no address, a fragment, or a script. */
function isToggleLink(a: ElementNode): boolean {
  const href = (a.attrs.href ?? "").trim();
  return href === "" || href.startsWith("#") || /^javascript:/i.test(href);
}

/** The first line of an item: its first child with text, looked into while that child holds all of the item's text. */
function questionOf(item: ElementNode): string | null {
  let el = item;
  for (;;) {
    const first = el.children.find((c) => (typeof c === "string" ? c.trim() !== "" : textLength(c) > 0));
    if (first === undefined) return null;
    if (typeof first === "string") return first.trim();
    if (textLength(first) >= textLength(el) - 1 && first.children.some(isElement)) {
      el = first;
      continue;
    }
    if (textLength(first) > QUESTION_LENGTH) return null;
    return textContent(first).trim();
  }
}
const QUESTION_LENGTH = 300;

/**
 * The article's lead, written before the chosen block in a wrapper of its own (an intro scored too deep to
 * join by score): a preceding sibling held by prose (two paragraphs or more that open with words of their own,
 * most of its text, under no linked heading), with fewer than two times of day (a ticker of other news is
 * dated line by line).
 */
function isLead(el: ElementNode): boolean {
  if (el.tag === "p" || !heldByProse(el, textLength(el))) return false;
  return countMatches(textContent(el), TIME_OF_DAYS, 2) < 2;
}

/**
 * Whether a sibling of the chosen block joins it: a block scoring a fifth of it (at least 10), or a paragraph of
 * prose (`paragraph`: the sibling itself, or the one paragraph a wrapper holds, see slotWrappedParagraphs).
 */
function mergesWith(
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
function slotWrappedParagraphs(siblings: TreeNode[], slotHolders: Set<ElementNode>): Map<ElementNode, ElementNode> {
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
function kindParagraph(sibling: ElementNode, candidate: ElementNode): ElementNode | undefined {
  if (sibling.tag !== "div" || !sharesClass(sibling, candidate)) return undefined;
  return loneParagraph(sibling) ?? undefined;
}

/**
 * The article split over several wrappers of one kind (the same tag and class, side by side: a story body in
 * parts, with asides between them): when the chosen block's parent has a sibling of its exact kind holding a
 * block of the chosen block's kind (its tag and a class name in common) that scores as much as the merge of
 * siblings asks, the parent is taken, and the
 * merge of same-class siblings below brings in the other parts.
 */
function climbToRepeatedWrapper(
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
function gatherParts(
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
 * Whether `a` carries every class name of `b`, in any order, with names of its own besides, when `b` has
 * KIND_CLASSES names or more: one name alone is as often a layout's utility ("col", "mt-8") shared by unlike blocks.
 */
function holdsClasses(a: ElementNode, b: ElementNode): boolean {
  const theirs = (b.attrs.class ?? "").split(/\s+/).filter(Boolean);
  if (theirs.length < KIND_CLASSES) return false;
  const mine = new Set((a.attrs.class ?? "").split(/\s+/));
  return theirs.every((c) => mine.has(c));
}
const KIND_CLASSES = 2;

/** Whether two elements share a class name (a part of a story body, "body body-1" and "body body-2"). */
function sharesClass(a: ElementNode, b: ElementNode): boolean {
  const mine = (b.attrs.class ?? "").split(/\s+/).filter(Boolean);
  if (!mine.length) return false;
  return (a.attrs.class ?? "").split(/\s+/).some((c) => c && mine.includes(c));
}

/**
 * A layout table (or one of its rows) chosen as the article holds the page's columns side by side: when one
 * cell holds most of its own text (text outside links), that cell is the article and the other columns
 * (menus, lists of other stories) are not.
 */
function narrowLayoutTable(candidate: ElementNode, scores: Map<ElementNode, number>): ElementNode {
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

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** The words of a text: runs of letters and digits, lowercased, cut to their stem; Chinese, Japanese and Korean by character. */
function wordsOf(text: string): string[] {
  const out: string[] = [];
  for (const run of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (CJK.test(run)) out.push(...run);
    // Inflected languages change a word's ending ("американцы", "американские"): its first five letters stand for it.
    else if (run.length >= 3) out.push(run.slice(0, 5));
  }
  return out;
}

/**
 * The share of the title's distinct words (as `wordsOf` gives them) that occur in the element's text: a
 * character of Chinese, Japanese or Korean anywhere; another stem at the start of a word, and a stem
 * shorter than five letters as a whole word. One search over the text, which may be the whole page.
 */
function titleWordCover(el: ElementNode, titleWords: Set<string>, enough: number): number {
  const text = textContent(el);
  // The search stops once `enough` of the title's words are found: the share is then at least that.
  const wanted = enough * titleWords.size;
  let found = 0;
  const stems: string[] = [];
  for (const w of titleWords) {
    if (CJK.test(w)) {
      if (text.includes(w)) found++;
    } else stems.push(w);
  }
  if (stems.length) {
    // As one case-insensitive pattern, `(?<![\p{L}\p{N}])(?:stem|short(?![\p{L}\p{N}])|...)` searched
    // with matchAll, but without compiling the letter classes for every title (about a millisecond each
    // time, more than the search): a plain alternation of the stems finds where one starts, and there the
    // precompiled lookarounds and each stem in order decide as that pattern would.
    const { any, each } = stemPatterns(stems);
    const seen = new Set<string>();
    let from = 0;
    for (;;) {
      any.lastIndex = from;
      const hit = any.exec(text);
      if (!hit) break;
      const at = hit.index;
      const match = stemAt(text, at, stems, each);
      if (match === null) {
        from = at + ((text.codePointAt(at) ?? 0) > 0xffff ? 2 : 1);
        continue;
      }
      from = at + match.length;
      seen.add(match.toLowerCase());
      if (found + seen.size >= wanted) break;
    }
    found += seen.size;
  }
  return found / titleWords.size;
}

/**
 * The search patterns of a title's stems: the alternation and each stem alone. The same title is searched for
 * in several candidates and in each of a page's passes, so the last title's patterns are kept (building them
 * anew was a third of this search's time on the readability and WCXB pages). Their `lastIndex` is set before
 * every use.
 */
function stemPatterns(stems: string[]): { any: RegExp; each: RegExp[] } {
  const key = stems.join("\n");
  if (lastStems?.key !== key) {
    const each: RegExp[] = [];
    for (const w of stems) each.push(new RegExp(literal(w), "iuy"));
    lastStems = { key, any: new RegExp(stems.map(literal).join("|"), "giu"), each };
  }
  return lastStems;
}
let lastStems: { key: string; any: RegExp; each: RegExp[] } | null = null;

/** The lookarounds of a title word (see titleWordCover), compiled once for every page. */
const NOT_AFTER_WORD = /(?<![\p{L}\p{N}])/iuy;
const NOT_BEFORE_WORD = /(?![\p{L}\p{N}])/iuy;

/** The first stem (in order) matching at `at`, not inside a word, a stem shorter than five letters ending one. */
function stemAt(text: string, at: number, stems: string[], each: RegExp[]): string | null {
  NOT_AFTER_WORD.lastIndex = at;
  if (!NOT_AFTER_WORD.test(text)) return null;
  for (let i = 0; i < stems.length; i++) {
    const re = each[i]!;
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m) continue;
    if (stems[i]!.length < 5) {
      NOT_BEFORE_WORD.lastIndex = at + m[0].length;
      if (!NOT_BEFORE_WORD.test(text)) continue;
    }
    return m[0];
  }
  return null;
}

/**
 * An article talks about what its title says: when the best-scored block shares (almost) none of the
 * title's words and another strong candidate shares most of them, that one is the article (a legal notice
 * or a list of other stories, full of commas, outscoring a short news item).
 */
function preferTitleWords(
  initial: ElementNode,
  top: ElementNode[],
  scores: Map<ElementNode, number>,
  title: string,
): ElementNode {
  const titleWords = new Set(wordsOf(title));
  if (titleWords.size < 3) return initial;
  if (titleWordCover(initial, titleWords, TITLE_COVER_LOW) >= TITLE_COVER_LOW) return initial;
  const topScore = scores.get(initial)!;
  for (const candidate of top.slice(1)) {
    if (scores.get(candidate)! < topScore * TITLE_SCORE_SHARE) continue;
    if (hasAncestorNode(initial, candidate)) continue;
    if (titleWordCover(candidate, titleWords, TITLE_COVER_HIGH) >= TITLE_COVER_HIGH) return candidate;
  }
  return initial;
}
/**
 * A list is the article's only when nothing above it has prose of its own: a list that wins (a slideshow's
 * fifty captions, a stream of items) while one of the best candidates around it holds paragraphs outside
 * it gives way to that candidate, which is the article the list sits in.
 */
function climbFromList(candidate: ElementNode, top: ElementNode[]): ElementNode {
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

const TITLE_COVER_LOW = 0.2;
const TITLE_COVER_HIGH = 0.5;
const TITLE_SCORE_SHARE = 0.2;

function refineTop(
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
 * A block that holds prose in its own right: 1,500 characters or more in paragraphs, with few links. A
 * page-part name on such a block is a wrapper's (a theme's "branding" around the whole page), not a verdict.
 */
function holdsProse(el: ElementNode): boolean {
  if (textLength(el) < 1500 || linkDensity(el) > 0.2) return false;
  let prose = 0;
  for (const d of descendants(el)) if (d.tag === "p") prose += textLength(d);
  return prose >= 1500;
}

/** A block marked up as a person (`itemtype` schema.org/Person, or `itemprop="author"`) of bio length. */
function isPersonBox(el: ElementNode): boolean {
  if (PHRASING.has(el.tag)) return false;
  const { itemtype, itemprop } = el.attrs;
  if (itemtype === undefined && itemprop === undefined) return false;
  const marked = /schema\.org\/Person$/i.test(itemtype ?? "") || /(^|\s)author(\s|$)/i.test(itemprop ?? "");
  return marked && textLength(el) < 1000;
}

/** Whether a form has a field a reader fills in (not only hidden inputs and buttons). */
function hasField(form: ElementNode): boolean {
  return (
    findDescendant(
      form,
      (d) =>
        d.tag === "textarea" ||
        d.tag === "select" ||
        (d.tag === "input" && !/^(hidden|submit|button|image|reset)$/i.test(d.attrs.type ?? "text")),
    ) !== null
  );
}

function isByline(el: ElementNode): boolean {
  const rel = el.attrs.rel ?? "";
  const itemprop = el.attrs.itemprop ?? "";
  if (rel !== "author" && !itemprop.includes("author") && !hasWord(el, BYLINE_WORDS)) return false;
  const text = innerText(el);
  return text.length > 0 && text.length < 100;
}

/** Drops what is never article content, whatever the flags. */
function prune(body: ElementNode): void {
  const drop = (el: ElementNode) => {
    const kids = el.children;
    // A new child list only when something goes (most elements lose nothing).
    let kept: TreeNode[] | null = null;
    for (let i = 0; i < kids.length; i++) {
      const child = kids[i]!;
      if (typeof child !== "string") {
        if (ALWAYS_DROP.has(child.tag)) {
          kept ??= kids.slice(0, i);
          continue;
        }
        drop(child);
      }
      kept?.push(child);
    }
    if (kept) el.children = kept;
  };
  drop(body);
}

// ---------------------------------------------------------------------------------------------------------
// Cleaning the chosen content

function prepArticle(
  content: ElementNode,
  flags: Flags,
  title: string,
  sites: Set<string>,
  controls: Map<ElementNode, number>,
  placed: Set<ElementNode>,
): void {
  markDataTables(content);
  // A pager (links numbered 1, 2, 3, ...) ends the page's part of the article: what follows it is not the article.
  cutAtPager(content);
  // A call to action (a heading, a line of pitch and a button) is not the article.
  removeActionBoxes(content, sites);
  cleanConditionally(content, ["form"], flags);
  // An aside held by a passage of prose (three paragraphs or more) is a boxed part of the article: a note; so
  // is one paragraph of a few sentences with nothing else in the box (a tip), and a list of the article's own
  // words (a recipe's ingredients, key points).
  cleanMatching(
    content,
    (el) =>
      el.tag === "footer" ||
      el.tag === "nav" ||
      (el.tag === "aside" &&
        !heldByProse(el, textLength(el), ASIDE_PROSE, sites) &&
        !isAsideNote(el) &&
        !isAsideList(el)),
  );
  keepQuestionToggles(content);
  cleanMatching(content, (el) => NOT_CONTENT.has(el.tag));
  // Reader comments are not the article, even when a page puts them inside it (issue 3): after their markers,
  // then the comment sections themselves.
  removeCommentSections(content);
  cleanMatching(content, (el) => hasWord(el, SHARE_WORDS) && textLength(el) < 500 && el !== content);
  // Related-post blocks that survived scoring because their class also says "article" ("related-article-links").
  cleanMatching(content, (el) => classOrIdMatches(el, RELATED) && linkDensity(el) > 0.5);
  // "About the author" boxes: a bio is not the article.
  cleanMatching(content, (el) => classOrIdMatches(el, AUTHOR_BOX) && textLength(el) < 1000);
  // A stream of teasers for other stories of the site (headline link, a line of summary, again and again), before
  // conditional cleaning takes their headline links and leaves the summaries looking like the article's own list.
  cleanMatching(content, (el) => el !== content && isTeaserStream(el, sites));
  // Other posts of the site offered in a sentence each, with the line over them ("You may also like:", "More on
  // this school:"), before conditional cleaning: an entry of a listicle that ends in such a box is judged on its
  // own words, not on the box's links (which took half its text, and with them the whole entry).
  cleanMatching(content, (el) => el !== content && pointersBox(el, sites));
  cleanConditionally(content, ["fieldset", "table", "ul", "div"], flags, sites);
  // A lone button to another page ("Sign up", "Book a demo"): a call to action with no box around it.
  removeLoneButtons(content);
  // Reader comments and news tickers: a block of many short lines carrying a time of day, after the article.
  removeDatedStreams(content);
  // A short list of nothing but links to the site's own pages ("read also", a section menu).
  cleanMatching(content, (el) => el !== content && isInternalLinkList(el, sites));
  // A slideshow's captions, each opening with its slide's number out of the total ("1/50", "2/50", ...).
  const slideCaptions = (el: ElementNode) => el !== content && isSlideCaptions(el);
  // Headings with a negative class weight are usually widget titles.
  const widgetTitle = (el: ElementNode) => (el.tag === "h1" || el.tag === "h2") && classWeight(el, flags) < 0;
  if (!controls.size && placed.size < PLACED_LABELS) {
    // The two passes below have nothing between them (no control panel or placed labels to look for): one walk
    // asks both, as the two would decide. The widget title's test reads the element's own tag and attributes,
    // which the first pass does not change, and the captions' test reads the element's own subtree, which the
    // walk has not entered yet when it asks. A walk over the article saved (of about fifteen).
    cleanMatching(content, (el) => slideCaptions(el) || widgetTitle(el));
  } else {
    cleanMatching(content, slideCaptions);
    // A widget of controls (a video player's buttons, sliders and settings menus): no prose, only labels.
    removeControlPanels(content, controls);
    // A chart drawn as an image with its labels placed over it by coordinates.
    removePlacedLabels(content, placed);
    cleanMatching(content, widgetTitle);
  }
  removeTitleHeading(content, title);
  // A dateline ("Posted on <time>… by …", "Updated <time>…"): the short block around a time element.
  removeDatelines(content);
  // Date lines at the head or tail, and counts at the head ("8 min read"), from one look at the edges.
  const edges = edgeLines(content);
  removeEdgeDates(edges);
  removeHeadCounts(edges.head);
  // After the article's last paragraph: blocks of links to the site's own pages (menus, other stories).
  trimTail(content, sites);
  // The article's last paragraph when it is one link to another of the site's pages (an event, a promotion,
  // "Continue reading the main story").
  removeTrailingLink(content, sites);
  removeClosingCredit(content);
  removeRuledNote(content);
  // A notice over the article ("Editorial note: … affiliate links. Learn more").
  removeHeadNotice(content, sites);
  // A person's box at the end (a portrait over a name and a sentence about them), and what follows it.
  removePortraitTail(content);
  removeNamedBoxTail(content);
  // A heading with nothing after it (the title of a box cleaning emptied: "Related posts", "Share").
  removeTrailingHeadings(content);
  // A sponsor's box: a short label over a picture linking to another site.
  removeSponsorBoxes(content, sites);
  // A label shown twice in a row, the second time for screen readers ("Article continues below").
  removeDoubledLabels(content);
  // A block that repeats an earlier block word for word (a page that carries its article twice).
  removeRepeats(content);
  // Paragraphs left empty after cleaning, and paragraphs that are nothing but links: ten or more anywhere (a
  // column of other stories written as links and breaks), or three or more to the site's own pages. One pass.
  cleanMatching(
    content,
    (el) => el.tag === "p" && ((textLength(el) === 0 && !hasMedia(el)) || isLinksParagraph(el, sites)),
  );
}

const ASIDE_PROSE = 3;

/**
 * A boxed note of the article (a tip, a reminder): an aside that is one paragraph of prose of two sentences or
 * more, with no link, heading, picture or control in it. A box of links, a titled box or a one-line sponsor's
 * notice is not one.
 */
function isAsideNote(el: ElementNode): boolean {
  if (linkTextLength(el) > 0 || findDescendant(el, (d) => ASIDE_NOTE_EXCLUDED.has(d.tag))) return false;
  if (!heldByProse(el, textLength(el), 1)) return false;
  return countMatches(textContent(el), SENTENCE_ENDS, ASIDE_NOTE_SENTENCES) >= ASIDE_NOTE_SENTENCES;
}
const ASIDE_NOTE_SENTENCES = 2;

/**
 * A boxed list of the article (a recipe's ingredients, the key points): an aside whose lists hold three items or
 * more and most of its text (ASIDE_LIST_SHARE), links under half of it (a box of links to other pages is a
 * menu), and no picture or control.
 */
function isAsideList(el: ElementNode): boolean {
  const length = textLength(el);
  if (!length || linkDensity(el) >= ASIDE_LIST_DENSITY) return false;
  if (findDescendant(el, (d) => ASIDE_LIST_EXCLUDED.has(d.tag))) return false;
  let items = 0;
  let inLists = 0;
  for (const list of findAll(el, LIST_TAGS)) {
    if (hasAncestor(list, "li", 0)) continue;
    inLists += textLength(list);
    for (const item of list.children) if (isElement(item) && item.tag === "li" && textLength(item) > 0) items++;
  }
  return items >= ASIDE_LIST_ITEMS && inLists >= length * ASIDE_LIST_SHARE;
}
/** What no boxed note or list of the article holds: a picture, a player or a control. */
const ASIDE_LIST_EXCLUDED = new Set([...MEDIA_ELEMENTS, "form", "button", "input"]);
/** Besides, a boxed note has no heading (a titled box is not a note). */
const ASIDE_NOTE_EXCLUDED = new Set([...HEADING_TAGS, ...ASIDE_LIST_EXCLUDED]);
const ASIDE_LIST_ITEMS = 3;
const ASIDE_LIST_SHARE = 0.6;
const ASIDE_LIST_DENSITY = 0.5;
const SENTENCE_ENDS = /[.!?](?=\s|$)|[。！？]/g;

function isLinksParagraph(el: ElementNode, sites: Set<string>): boolean {
  if (linkDensity(el) <= LINK_LIST_DENSITY) return false;
  const links = findAll(el, "a");
  if (links.length >= LINK_LIST_ITEMS) return true;
  return links.length >= INTERNAL_LIST_ITEMS && allInternal(links, sites);
}

/** The link holding the first words of an element, if they are a link's. */
function openingLink(el: ElementNode): ElementNode | null {
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
function nearlyOpeningLink(el: ElementNode): ElementNode | null {
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
function isTeaserStream(el: ElementNode, sites: Set<string>): boolean {
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
function isInternalLinkList(el: ElementNode, sites: Set<string>): boolean {
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
function pointersBox(el: ElementNode, sites: Set<string>): boolean {
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

/**
 * A list whose items open with "k/N" counting up, N the same for every item and at least the number of items:
 * the numbered captions of a slideshow (its slides are shown one at a time; the captions are not the text of
 * the article that embeds it). An article numbers its own list items, if at all, without their total.
 */
function isSlideCaptions(el: ElementNode): boolean {
  if (!LIST_TAGS.has(el.tag)) return false;
  let items = 0;
  let total = -1;
  for (const child of el.children) {
    if (!isElement(child) || child.tag !== "li") continue;
    const counter = SLIDE_COUNTER.exec(innerText(child));
    if (!counter) return false;
    const n = Number(counter[2]);
    if (Number(counter[1]) !== items + 1 || (total >= 0 && n !== total)) return false;
    total = n;
    items++;
  }
  return items >= SLIDE_CAPTIONS && total >= items;
}
const SLIDE_COUNTER = /^(\d{1,3}) ?\/ ?(\d{1,3})(?!\d)/;
const SLIDE_CAPTIONS = 3;

/**
 * An accordion's question: a disclosure toggle (a button with `aria-expanded` or `aria-controls`) whose label is
 * a question (at most 200 characters, ending in a question mark) right before a block holding a unit of prose
 * (the answer) is a line of the text, not a control: it becomes a paragraph. A page's first 200 buttons.
 */
function keepQuestionToggles(content: ElementNode): void {
  for (const button of findAll(content, "button").slice(0, 200)) {
    if (button.attrs["aria-expanded"] === undefined && button.attrs["aria-controls"] === undefined) continue;
    const label = textContent(button).trim();
    if (!label.endsWith("?") || label.length > 200) continue;
    // The answer follows the button, or the block the button alone fills (a paragraph wrapping it).
    let answer = adjacentElement(button, 1);
    for (let a = button, up = 0; !answer && a.parent && up < 2; a = a.parent, up++) {
      if (a.parent.children.some((c) => c !== a && (isElement(c) || c.trim()))) break;
      answer = adjacentElement(a.parent, 1);
    }
    if (!answer || !(isProse(answer) || findDescendant(answer, (d) => PROSE_UNITS.has(d.tag) && isProse(d)))) continue;
    button.tag = "p";
    invalidate(button);
  }
}

/** The hidden block following a toggle, or following the parent the toggle is the only element of. */
function panelAfter(toggle: ElementNode): ElementNode | null {
  for (let el: ElementNode | null = toggle, up = 0; el?.parent && up < 2; el = el.parent, up++) {
    const siblings = el.parent.children;
    let next: ElementNode | null = null;
    for (let i = siblings.indexOf(el) + 1; i < siblings.length && !next; i++) {
      const sibling = siblings[i]!;
      if (isElement(sibling)) next = sibling;
    }
    if (next) return isHidden(next) ? next : null;
    if (el.parent.children.some((c) => isElement(c) && c !== el)) return null;
  }
  return null;
}

/**
 * A block holding three or more elements that the page marks as controls (ARIA roles: button, slider, tab,
 * menu item, ...) and no text of a sentence's length anywhere is a widget's control panel (a video player
 * with its play, volume and settings buttons and the labels of its settings menus), not article text.
 */
function removeControlPanels(content: ElementNode, controls: Map<ElementNode, number>): void {
  if (!controls.size) return;
  cleanMatching(content, (el) => (controls.get(el) ?? 0) >= PANEL_CONTROLS && !hasSentence(el));
}

/**
 * Read on the page as parsed, before the walk that prepares scoring changes it: how many controls each
 * element holds (a player's buttons are often empty elements, an icon drawn by CSS, which the walk removes;
 * empty when the page has fewer than PANEL_CONTROLS), and the labels placed by coordinates with everything
 * inside them (the walk turns a `div` holding one paragraph into that paragraph, dropping the div's style).
 */
function findWidgets(body: ElementNode): {
  controls: Map<ElementNode, number>;
  placed: Set<ElementNode>;
  formAncestors: Set<ElementNode>;
  panels: Set<string>;
  toggledPanels: Set<ElementNode>;
} {
  const controls: ElementNode[] = [];
  const placed = new Set<ElementNode>();
  // The blocks that hold a form a reader fills in (a block removed by its words takes its form with it).
  const formAncestors = new Set<ElementNode>();
  const panels = new Set<string>();
  const toggledPanels = new Set<ElementNode>();
  const stack: ElementNode[] = body.children.filter(isElement);
  while (stack.length) {
    const el = stack.pop()!;
    const { role, style } = el.attrs;
    const controlled = el.attrs["aria-controls"];
    // A collapsed panel (an accordion's answer, a tab) is named by the control that opens it.
    if (controlled) for (const id of controlled.split(/\s+/)) if (id) panels.add(id);
    if (el.attrs["aria-expanded"] !== undefined) {
      // A disclosure's toggle opens the hidden block right after it (or after the heading it sits in): an
      // accordion's answer. So it does when it names a panel too: the name may be on a block inside that one
      // (the collapsing wrapper hides the panel), or on no element at all.
      const panel = panelAfter(el);
      if (panel) toggledPanels.add(panel);
    }
    if (role && CONTROL_ROLES.has(role.toLowerCase())) controls.push(el);
    if (el.tag === "form" && hasField(el))
      for (let up = el.parent; up && !formAncestors.has(up); up = up.parent) formAncestors.add(up);
    if (style && PLACED_TOP.test(style) && PLACED_SIDE.test(style) && isLabel(el)) {
      // A label with everything inside it; its inside is not searched again.
      placed.add(el);
      for (const inner of descendants(el)) placed.add(inner);
      continue;
    }
    for (const child of el.children) if (typeof child !== "string") stack.push(child);
  }
  const counts = new Map<ElementNode, number>();
  if (controls.length >= PANEL_CONTROLS)
    for (const control of controls)
      for (let up: ElementNode | null = control; up && up !== body; up = up.parent)
        counts.set(up, (counts.get(up) ?? 0) + 1);
  return { controls: counts, placed, formAncestors, panels, toggledPanels };
}
const CONTROL_ROLES = new Set([
  "button",
  "slider",
  "tab",
  "tablist",
  "menu",
  "menuitem",
  "menuitemradio",
  "menuitemcheckbox",
  "checkbox",
  "radio",
  "switch",
  "spinbutton",
  "scrollbar",
  "listbox",
  "option",
]);
const PANEL_CONTROLS = 3;

/**
 * Labels placed by coordinates (an inline style giving both `top` and `left` or `right`, and text shorter than a
 * sentence) are a chart's or a map's: figures, years and axis names laid over an image. A block whose text is mostly such
 * labels (PLACED_SHARE), five or more of them, goes.
 */
function removePlacedLabels(content: ElementNode, placed: Set<ElementNode>): void {
  if (placed.size < PLACED_LABELS) return;
  // The outermost placed elements still in the tree (a label inside another counts once, as the outer one).
  const labels = descendants(content).filter((el) => placed.has(el) && !(el.parent && placed.has(el.parent)));
  if (labels.length < PLACED_LABELS) return;
  const counts = new Map<ElementNode, { n: number; length: number }>();
  for (const label of labels) {
    const length = textLength(label);
    for (let up: ElementNode | null = label.parent; up && up !== content; up = up.parent) {
      const c = counts.get(up) ?? { n: 0, length: 0 };
      c.n++;
      c.length += length;
      counts.set(up, c);
    }
  }
  cleanMatching(content, (el) => {
    const c = counts.get(el);
    return !!c && c.n >= PLACED_LABELS && c.length >= textLength(el) * PLACED_SHARE;
  });
}
/** Short text, under a sentence's length: a figure, a year, an axis name. */
const isLabel = (el: ElementNode) => textLength(el) > 0 && textLength(el) < PROSE_LENGTH;
const PLACED_TOP = /(?:^|;)\s*top\s*:/i;
const PLACED_SIDE = /(?:^|;)\s*(?:left|right)\s*:/i;
const PLACED_LABELS = 5;
const PLACED_SHARE = 0.8;

/**
 * A pager: a block whose numbered links count 1, 2, 3, ... in order (three or more, the current page's number
 * perhaps not a link; other links such as "next" aside) and whose text is its links' and a few characters more.
 */
function isPager(el: ElementNode): boolean {
  if (el.tag === "a" || (PHRASING.has(el.tag) && el.tag !== "span")) return false;
  // Nothing but the pager's own words: its text is its links' and a few more characters (cached: checked first).
  const length = textLength(el);
  if (length === 0 || length - linkTextLength(el) >= PAGER_OWN_TEXT) return false;
  const links = findAll(el, "a");
  if (links.length < PAGER_LINKS) return false;
  // A code listing's line numbers count 1, 2, 3 as links too.
  if (
    findDescendant(el, (d) => d.tag === "pre" || d.tag === "code") ||
    hasAncestor(el, "pre", 0) ||
    hasAncestor(el, "code", 0)
  )
    return false;
  let expected = 1;
  let numbered = 0;
  for (const link of links) {
    const text = innerText(link);
    if (!/^\d{1,3}$/.test(text)) continue;
    if (Number(text) === expected) {
      numbered++;
      expected++;
    } else if (Number(text) === expected + 1 && expected === 1) {
      // the current page (1) is often not a link
      numbered++;
      expected += 2;
    } else return false;
  }
  return numbered >= PAGER_LINKS - 1;
}
const PAGER_LINKS = 3;
const PAGER_OWN_TEXT = 20;

/**
 * A pager ends the page's part of an article (a story split over pages, a list over pages): what follows it in
 * the chosen block (a notice, a rating, other stories) goes, with the pager. Only when a unit of prose comes
 * before it (a pager above the article ends nothing).
 */
function cutAtPager(content: ElementNode): void {
  const pager = findDescendant(content, isPager);
  if (!pager || !proseBefore(content, pager)) return;
  cutFrom(pager, content);
}

/** Whether a unit of prose (isProse) comes before `el` in the block, in document order. */
function proseBefore(content: ElementNode, el: ElementNode): boolean {
  let stop = false;
  const walk = (node: ElementNode): boolean => {
    for (const child of node.children) {
      if (typeof child === "string") continue;
      if (child === el) {
        stop = true;
        return false;
      }
      if (PROSE_TAGS.has(child.tag) && isProse(child)) return true;
      if (walk(child)) return true;
      if (stop) return false;
    }
    return false;
  };
  return walk(content);
}

/** Whether any text node under `el` is as long as a sentence (PROSE_LENGTH characters, whitespace collapsed). */
function hasSentence(el: ElementNode): boolean {
  for (const child of el.children) {
    if (typeof child === "string") {
      if (child.length >= PROSE_LENGTH && innerText(child).length >= PROSE_LENGTH) return true;
    } else if (hasSentence(child)) return true;
  }
  return false;
}

const INTERNAL_LIST_ITEMS = 3;
const INTERNAL_LIST_DENSITY = 0.8;

const allInternal = (links: ElementNode[], sites: Set<string>) =>
  links.every((a) => isInternal(a.attrs.href ?? "", sites));

/** A time of day, "9:05", "21:40" or "21:40:05" (not part of a longer run of digits and colons). */
const TIME_OF_DAY = /(?<![\d:])(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)?(?![\d:])/;
const TIME_OF_DAYS = new RegExp(TIME_OF_DAY.source, "g");

/** Matches of a global pattern in a text, counted up to `enough`. */
function countMatches(text: string, pattern: RegExp, enough: number): number {
  pattern.lastIndex = 0;
  let n = 0;
  while (n < enough && pattern.exec(text)) n++;
  pattern.lastIndex = 0;
  return n;
}

/**
 * Reader comments and news tickers carry a time of day on a short line of their own (the author and the
 * hour, "yo (guest) 01.01.12, 21:53", "10:17 Headline"); an article mentions times inside its sentences. A
 * block after the first 300 characters of the chosen content, holding under 80 % of it, with four or more
 * such lines (the largest element of 1-100 characters whose parent holds more), at least one per 800
 * characters, is a stream of dated posts and goes. Blocks with code are left alone (logs have timestamps).
 */
function removeDatedStreams(content: ElementNode): void {
  // Most articles carry fewer times of day than a stream needs: one search of the whole text settles it.
  if (countMatches(textContent(content), TIME_OF_DAYS, STREAM_STAMPS) < STREAM_STAMPS) return;
  const whole = textLength(content);
  const stamps = new Map<ElementNode, number>();
  const code = new Set<ElementNode>();
  const count = (el: ElementNode, parentLength: number): number => {
    const length = textLength(el);
    if (!length) return 0;
    let n =
      length <= STAMP_LINE_LENGTH && parentLength > STAMP_LINE_LENGTH && TIME_OF_DAY.test(textContent(el)) ? 1 : 0;
    for (const child of el.children) {
      if (typeof child === "string") continue;
      n += count(child, length);
      if (child.tag === "pre" || child.tag === "code" || code.has(child)) code.add(el);
    }
    stamps.set(el, n);
    return n;
  };
  count(content, Infinity);
  let before = 0;
  const visit = (el: ElementNode): void => {
    let kept: TreeNode[] | null = null;
    const kids = el.children;
    for (let i = 0; i < kids.length; i++) {
      const child = kids[i]!;
      if (typeof child !== "string" && isDatedStream(child, before, whole, stamps, code)) {
        child.parent = null;
        kept ??= kids.slice(0, i);
        continue;
      }
      kept?.push(child);
      if (typeof child === "string") before += child.trim().length;
      else if (child.tag === "pre" || child.tag === "code") before += textLength(child);
      else visit(child);
    }
    if (kept) {
      el.children = kept;
      for (let a: ElementNode | null = el; a; a = a.parent) invalidate(a);
    }
  };
  visit(content);
}

function isDatedStream(
  el: ElementNode,
  before: number,
  whole: number,
  stamps: Map<ElementNode, number>,
  code: Set<ElementNode>,
): boolean {
  const length = textLength(el);
  const lines = stamps.get(el) ?? 0;
  return (
    before >= STREAM_AFTER &&
    length >= STREAM_MIN_LENGTH &&
    length < whole * STREAM_MAX_SHARE &&
    lines >= STREAM_STAMPS &&
    lines * STREAM_CHARS_PER_STAMP >= length &&
    el.tag !== "pre" &&
    el.tag !== "code" &&
    !code.has(el)
  );
}
const STAMP_LINE_LENGTH = 100;
const STREAM_AFTER = 300;
const STREAM_MIN_LENGTH = 200;
const STREAM_MAX_SHARE = 0.8;
const STREAM_STAMPS = 4;
const STREAM_CHARS_PER_STAMP = 800;

/**
 * A block of 100+ characters and two or more parts with text that repeats, word for word, an earlier block
 * that is not its ancestor: pages that carry the article twice (a second copy for print or another layout)
 * had every word counted double. Blocks are compared by text length first, so only blocks of equal length
 * build their text.
 */
function removeRepeats(content: ElementNode): void {
  // Blocks by length, then (once a second block of that length comes) by text: a listing of thousands of
  // entries of one length made a search of every earlier one per entry, quadratic.
  const byLength = new Map<number, { blocks: ElementNode[]; byText: Map<string, ElementNode[]> | null }>();
  cleanMatching(content, (el) => {
    const length = textLength(el);
    if (el === content || length < REPEAT_MIN_LENGTH) return false;
    let parts = 0;
    for (const child of el.children) if (typeof child !== "string" && textLength(child) > 0) parts++;
    if (parts < 2) return false;
    const bucket = byLength.get(length);
    if (!bucket) {
      byLength.set(length, { blocks: [el], byText: null });
      return false;
    }
    if (!bucket.byText) {
      bucket.byText = new Map();
      for (const first of bucket.blocks) pushTo(bucket.byText, innerText(first), first);
    }
    const text = innerText(el);
    if (bucket.byText.get(text)?.some((first) => !hasAncestorNode(el, first))) return true;
    pushTo(bucket.byText, text, el);
    return false;
  });
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
const REPEAT_MIN_LENGTH = 100;

/**
 * The article ends with its last unit of prose. What follows it (at each level, down the last block that
 * holds prose) goes when it is mostly links to the site's own pages: three or more links, 80 % of its text
 * or more (a menu, other stories, tags). Links to files (a PDF the article offers) do not count as pages.
 */
function trimTail(content: ElementNode, sites: Set<string>): void {
  let el = content;
  for (let depth = 0; depth < MAX_TAIL_DEPTH; depth++) {
    const kids = el.children;
    let last = kids.length - 1;
    while (last >= 0 && !endsProse(kids[last]!)) last--;
    if (last < 0) return;
    let kept: TreeNode[] | null = null;
    for (let i = last + 1; i < kids.length; i++) {
      const kid = kids[i]!;
      if (typeof kid !== "string" && isSiteLinks(kid, sites)) {
        kid.parent = null;
        kept ??= kids.slice(0, i);
        continue;
      }
      kept?.push(kid);
    }
    if (kept) {
      el.children = kept;
      for (let a: ElementNode | null = el; a; a = a.parent) invalidate(a);
    }
    const next = el.children[last]!;
    if (typeof next === "string" || PROSE_TAGS.has(next.tag)) return;
    el = next;
  }
}

function isSiteLinks(el: ElementNode, sites: Set<string>): boolean {
  const text = textLength(el);
  if (!text) return false;
  let links = 0;
  let count = 0;
  for (const a of el.tag === "a" ? [el] : findAll(el, "a")) {
    const href = a.attrs.href ?? "";
    if (!isInternal(href, sites) || FILE_LINK.test(href)) continue;
    links += textLength(a);
    count++;
  }
  return count >= TAIL_LINKS && links >= text * TAIL_LINK_SHARE;
}
const TAIL_LINKS = 3;
const TAIL_LINK_SHARE = 0.8;

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

function isCommentSection(el: ElementNode): boolean {
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
function removeCommentIntros(content: ElementNode, holders: Set<ElementNode>): void {
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
function removeCommentSections(content: ElementNode): void {
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
function removeCommentSmallPrint(content: ElementNode, firsts: Set<ElementNode>): void {
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

function inCommentSection(el: ElementNode, body: ElementNode): boolean {
  for (let up: ElementNode | null = el; up && up !== body; up = up.parent) if (isCommentSection(up)) return true;
  return false;
}

function cleanMatching(content: ElementNode, test: (el: ElementNode) => boolean): void {
  const visit = (el: ElementNode) => {
    const kids = el.children;
    // A new child list only when something goes (most elements lose nothing).
    let kept: TreeNode[] | null = null;
    for (let i = 0; i < kids.length; i++) {
      const child = kids[i]!;
      if (typeof child !== "string" && test(child)) {
        child.parent = null;
        kept ??= kids.slice(0, i);
        continue;
      }
      if (typeof child !== "string") visit(child);
      kept?.push(child);
    }
    if (kept) {
      el.children = kept;
      invalidate(el);
    }
  };
  visit(content);
}

const dataTables = new WeakSet<ElementNode>();

function markDataTables(content: ElementNode): void {
  for (const table of findAll(content, "table")) {
    const role = table.attrs.role;
    if (role === "presentation") continue;
    if (table.attrs.datatable === "0") continue;
    if (
      table.attrs.summary ||
      findAll(table, "caption").length ||
      findAll(table, new Set(["col", "colgroup", "tfoot", "thead", "th"])).length
    ) {
      dataTables.add(table);
      continue;
    }
    if (findAll(table, "table").length) continue;
    const rows = findAll(table, "tr");
    const columns = Math.max(
      0,
      ...rows.map((r) => r.children.filter((c) => isElement(c) && (c.tag === "td" || c.tag === "th")).length),
    );
    if (rows.length >= 10 || columns > 4 || rows.length * columns > 10) dataTables.add(table);
  }
}

export function isDataTable(table: ElementNode): boolean {
  return dataTables.has(table);
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
function cleanConditionally(content: ElementNode, tags: string[], flags: Flags, sites: Set<string> = new Set()): void {
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
  const remove = (el: ElementNode) => {
    // The removed subtree no longer counts for its ancestors.
    const vector = vectors.get(el)!.slice();
    const own = COUNTED[el.tag];
    if (own !== undefined) vector[own]!++;
    for (let a = el.parent; a; a = a.parent) {
      const target = vectors.get(a);
      if (target) for (let i = 0; i < 6; i++) target[i]! -= vector[i]!;
    }
    removeNode(el);
  };
  // Bottom-up so inner junk goes before its container is judged.
  nodes.reverse();
  for (const el of nodes) {
    if (!el.parent || el === content || splitParagraphs.has(el) || gathered.has(el)) continue;
    if (tag === "table" && isDataTable(el)) continue;
    if (hasAncestorTable(el)) continue;
    if (hasAncestor(el, "code", 0) || hasAncestor(el, "pre", 0)) continue;
    const weight = classWeight(el, flags);
    const isList = LIST_TAGS.has(tag) || listTextRatio(el) > 0.9;
    // Only the class weight decides here: a list's or a container's own score is negative by construction
    // (lists start at -3) and says nothing about whether it is junk.
    // A class word that only leans to boilerplate ("header", "caption") yields to a passage of prose: three
    // paragraphs or more (a banner's two lines of sales copy still go).
    if (weight < 0 && !(heldByProse(el, textLength(el), 3) && onlyLeaning(el))) {
      remove(el);
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
    const [p = 0, img = 0, liCount = 0, input = 0, headings = 0, embedCount = 0] = vectors.get(el)!;
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
      (isList &&
        weight < 25 &&
        density > LINK_LIST_DENSITY &&
        liCount >= LINK_LIST_ITEMS &&
        !isReadingList(el, sites)) ||
      (weight >= 25 && density > 0.5) ||
      (embeds === 1 && contentLength < 75) ||
      embeds > 1 ||
      // No text in paragraphs, list items, cells or spans, and no image: nothing worth keeping.
      (img === 0 && !hasTextishText(el));
    if (junk) {
      // A list whose items hold one thing each and as many images as items (a gallery; also a list
      // without items or images, such as an indented quote) is content.
      if (
        isList &&
        el.children.filter(isElement).every((c) => c.children.filter(isElement).length <= 1) &&
        img === liCount
      )
        continue;
      // A <ul>/<ol> without any item is the old way of indenting a passage, not a list: text, unless mostly links.
      if (LIST_TAGS.has(tag) && liCount === 0 && density < 0.5 && contentLength > 0) continue;
      remove(el);
    } else if (weight >= 25 && el.parent && soleElementChild(el.parent) === el) keptForClass.add(el.parent);
  }
}

/**
 * The one element child of `el` when it has no other element child and no text of its own (looked for among
 * at most WRAPPER_CHILDREN children: a wrapper holds its block and the blank text around it).
 */
function soleElementChild(el: ElementNode): ElementNode | null {
  if (el.children.length > WRAPPER_CHILDREN) return null;
  let only: ElementNode | null = null;
  for (const child of el.children) {
    if (typeof child === "string") {
      if (child.trim()) return null;
    } else if (only) return null;
    else only = child;
  }
  return only;
}
const WRAPPER_CHILDREN = 16;

/**
 * A list of ten or more items that is nothing but links (link density over 0.9) is a menu or a column of
 * other stories, not the article's own list (which holds words of its own, or a few references).
 */
const LINK_LIST_DENSITY = 0.9;

/**
 * A reading list the article gives: nine links in ten or more go to other sites (its sources, further reading).
 * A menu or a column of other stories links to the site's own pages.
 */
function isReadingList(el: ElementNode, sites: Set<string>): boolean {
  const links = findAll(el, "a");
  let outside = 0;
  for (const a of links) if (!isInternal(a.attrs.href ?? "", sites)) outside++;
  return outside * 10 >= links.length * 9;
}
const LINK_LIST_ITEMS = 10;

/**
 * A block whose text is mostly paragraphs of prose (`paragraphs` or more; a list item holding no paragraph or
 * item of its own is one) that open with words of their own (not a headline link), under no linked heading (a
 * link to a place on the page, a section's own anchor, or to no address is not a headline): a part of the
 * article whose links (a source named in a sentence, a button below it) raise its link density, or whose class
 * names only a layout detail ("pane-header-alignment-left").
 */
function heldByProse(el: ElementNode, length: number, paragraphs = 2, sites?: Set<string>): boolean {
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

const PROSE_UNITS = new Set(["p", "li"]);

/**
 * A paragraph of the article naming its sources as links inside its sentences, which raise its link density:
 * at most one `<p>`, no heading or list, no opening link, SENTENCES_WITH_LINKS sentences or more and as many units
 * of prose in length, and words after its last link (a pointer or small print ends on its link) unless every
 * link goes to another site.
 */
function isLinkedSentences(el: ElementNode, length: number, sites: Set<string>): boolean {
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
function isPartOfProse(el: ElementNode, content: ElementNode, sites: Set<string>): boolean {
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

/**
 * One of a run of entries written alike (a listicle's items, a guide's chapters, a grid of described links)
 * whose fellows carry few links: the block, or an ancestor up to two levels above that is little more than
 * it, has a class that a nearby sibling of the same tag shares, that sibling holding a unit of prose and
 * links for at most a fifth of its text (so conditional cleaning keeps it). Entries of one kind are judged
 * alike: this one's links (a title linking to its source) weigh more only because its description is shorter.
 */
function isLikeKeptEntry(el: ElementNode, content: ElementNode, sites: Set<string>): boolean {
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

const TEXTISH = new Set(["span", "li", "td", ...DIV_TO_P_BLOCKS]);

function hasTextishText(el: ElementNode): boolean {
  return (
    findDescendant(
      el,
      (d) => (TEXTISH.has(d.tag) && textLength(d) > 0) || (HEADING_TAGS.has(d.tag) && isQuestion(d)),
    ) !== null
  );
}

/** A heading that asks a question (a question list's item, its answer below it). */
function isQuestion(heading: ElementNode): boolean {
  const text = textContent(heading).trim();
  return text.length <= QUESTION_LENGTH && QUESTION_MARK.test(text.slice(-1));
}

function hasAncestorTable(el: ElementNode): boolean {
  let current = el.parent;
  while (current) {
    if (current.tag === "table" && isDataTable(current)) return true;
    current = current.parent;
  }
  return false;
}

function listTextRatio(el: ElementNode): number {
  const total = textLength(el);
  if (!total) return 0;
  const listText = findAll(el, "li").reduce((sum, li) => sum + textLength(li), 0);
  return listText / total;
}

/**
 * The article's title repeated as its first heading goes (the post carries the title on its own): the same
 * words, or, when the heading opens the article (no text before it), a heading made of the title's words
 * (a shortened headline, or its kicker, "Lupita Nyong'o" over "Lupita Nyong'o's Oscar dress stolen").
 */
function removeTitleHeading(content: ElementNode, title: string): void {
  if (!title) return;
  const norm = (s: string) =>
    s
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, " ")
      .trim();
  const wanted = norm(title);
  for (const heading of findAll(content, new Set(["h1", "h2"]))) {
    const text = norm(innerText(heading));
    if (!text) continue;
    if (
      text === wanted ||
      (wanted.includes(text) && text.length > wanted.length * 0.75) ||
      (text.includes(wanted) && wanted.length > text.length * 0.75) ||
      (opensArticle(content, heading) && titleWordShare(text, wanted) >= 0.75)
    ) {
      removeNode(heading);
    }
    return;
  }
}

/** The share of a heading's characters that belong to words of the title. */
function titleWordShare(heading: string, title: string): number {
  const titleWords = new Set(title.split(" "));
  const words = heading.split(" ");
  const foreign = words.filter((w) => !titleWords.has(w)).join(" ");
  return 1 - foreign.length / heading.length;
}

/** No text comes before `el` in the content. */
function opensArticle(content: ElementNode, el: ElementNode): boolean {
  let found = false;
  const before = (node: ElementNode): boolean => {
    for (const child of node.children) {
      if (child === el) {
        found = true;
        return true;
      }
      if (typeof child === "string") {
        if (child.trim()) return true;
      } else if (before(child)) return true;
    }
    return false;
  };
  before(content);
  return found;
}
