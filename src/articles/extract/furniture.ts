// Page furniture inside the chosen article, removed after cleaning: datelines and date lines, counts and
// bylines at its head, the author's bio box and trailing headings or labels at its end, a slot's label, the
// box around a removed form, calls to action and lone buttons (docs/extraction.md, eighth round).
import {
  cutFrom,
  descendants,
  type ElementNode,
  findAll,
  findDescendant,
  indexIn,
  isElement,
  removeNode,
  type TreeNode,
  textContent,
  textLength,
} from "./html-tree";
import {
  adjacentElement,
  endsProse,
  FILE_LINK,
  HEADING_TAGS,
  hasAncestorBelow,
  hasAncestorNode,
  hasMedia,
  isHeading,
  isInternal,
  isProse,
  lastChildWithText,
  linkDensity,
  literal,
  MAX_TAIL_DEPTH,
  PHRASING,
  PROSE_LENGTH,
  PROSE_TAGS,
} from "./predicates";
import { hasWord } from "./signals";

/**
 * A dateline: the largest block of at most 80 characters around a `<time>` element (or an element carrying a
 * `datetime`), when that block is not part of a longer sentence (a time inside a paragraph's text stays).
 */
export function removeDatelines(content: ElementNode): void {
  const lines = new Set<ElementNode>();
  const stack: ElementNode[] = [content];
  while (stack.length) {
    const time = stack.pop()!;
    for (const c of time.children) if (typeof c !== "string") stack.push(c);
    if (time.tag !== "time" && time.attrs.datetime === undefined) continue;
    let line = time;
    while (line.parent && line.parent !== content && textLength(line.parent) <= DATELINE_LENGTH) line = line.parent;
    if (textLength(line) > DATELINE_LENGTH || inProse(line, content)) continue;
    lines.add(line);
  }
  for (const line of lines) if (line.parent) removeNode(line);
}

const DATELINE_LENGTH = 80;

/**
 * The short lines before the article's first unit of prose and after its last one, in document order: each the
 * largest element of at most `LINE_LENGTH` characters with text (not inside a paragraph, item or heading).
 */
export function edgeLines(content: ElementNode): { head: ElementNode[]; tail: ElementNode[] } {
  const head: ElementNode[] = [];
  let tail: ElementNode[] = [];
  let seenProse = false;
  const visit = (el: ElementNode): void => {
    for (const child of el.children) {
      if (typeof child === "string") continue;
      const length = textLength(child);
      if (length === 0) continue;
      if (PROSE_TAGS.has(child.tag) && isProse(child)) {
        seenProse = true;
        tail = [];
        continue;
      }
      if (EDGE_OPAQUE.has(child.tag)) {
        // A list or a table is the article's (references, data): not lines, and prose when it holds some.
        if (endsProse(child)) {
          seenProse = true;
          tail = [];
        }
        continue;
      }
      if (length <= LINE_LENGTH && !HEADING_TAGS.has(child.tag) && !PROSE_TAGS.has(child.tag)) {
        (seenProse ? tail : head).push(child);
        continue;
      }
      if (PROSE_TAGS.has(child.tag) || HEADING_TAGS.has(child.tag)) {
        // A short paragraph or item is a line of its own; a heading is a heading.
        if (child.tag === "p" && length <= LINE_LENGTH) (seenProse ? tail : head).push(child);
        continue;
      }
      visit(child);
    }
  };
  visit(content);
  return { head: seenProse ? head : [], tail };
}

const LINE_LENGTH = 80;

const EDGE_OPAQUE = new Set(["ul", "ol", "dl", "table", "li", "dd", "dt", "td", "th", "tr", "tbody"]);

/**
 * A line that is a date: a year (four digits from 1900) with a day's number beside it (at most one word, the
 * month, between them: "December 18, 2025", "15 Dec, 2025", "2025-12-18"), in ten words or fewer.
 */
function isDateLine(el: ElementNode): boolean {
  const text = textContent(el).trim();
  // A line ending in a colon introduces what follows it ("Posted on the forum on 2025-07-09:").
  if (text.endsWith(":")) return false;
  const words = text.match(WORDS);
  if (!words || words.length > DATE_LINE_WORDS) return false;
  for (let i = 0; i < words.length; i++) {
    if (!YEAR.test(words[i]!)) continue;
    for (let j = Math.max(0, i - 2); j <= Math.min(words.length - 1, i + 2); j++)
      if (j !== i && DAY.test(words[j]!)) return true;
  }
  return false;
}

const YEAR = /^(?:19|20)\d\d$/;

const DAY = /^(?:0?[1-9]|[12]\d|3[01])(?!\d)/;

const WORDS = /[\p{L}\p{N}]+/gu;

const wordCount = (el: ElementNode) => textContent(el).match(WORDS)?.length ?? 0;

const DATE_LINE_WORDS = 10;

/** Date lines at the article's head or tail ("March 25, 2025", "Last updated: April 21, 2025"). */
export function removeEdgeDates({ head, tail }: { head: ElementNode[]; tail: ElementNode[] }): void {
  for (const line of [...head, ...tail]) if (line.parent && isDateLine(line)) removeNode(line);
}

/** A count at the article's head ("8 min read", "59 Comments"): a line before the first prose of a few words, one a number. */
export function removeHeadCounts(head: ElementNode[]): void {
  for (const line of head) {
    const words = textContent(line).match(WORDS);
    if (!words || words.length > HEAD_COUNT_WORDS) continue;
    // A formula's numbers are not a count.
    if (findDescendant(line, (d) => d.tag === "math" || d.tag.includes("-"))) continue;
    if (words.some((w) => /^\d+$/.test(w)) && line.parent) removeNode(line);
  }
}

const HEAD_COUNT_WORDS = 5;

/**
 * A slot's label: a block that held an empty slot for a script to fill (an advertisement) and is left with
 * nothing but a short label ("Advertisement", "Article continues below"): a few words, no link. A heading may be
 * that label (the title of a form or a player the script fills: "Register"), but not the holder itself.
 */
export function removeSlotLabels(content: ElementNode, holders: Set<ElementNode>): void {
  for (const holder of holders) {
    if (holder === content || !holder.parent || !hasAncestorNode(holder, content)) continue;
    const length = textLength(holder);
    if (length === 0 || length > SLOT_LABEL_LENGTH) continue;
    if (wordCount(holder) > SLOT_LABEL_WORDS) continue;
    if (findDescendant(holder, (d) => d.tag === "a") || isHeading(holder)) continue;
    removeNode(holder);
  }
}

const SLOT_LABEL_LENGTH = 30;

const SLOT_LABEL_WORDS = 3;

/** The byline's words, lowercased and joined by single spaces ("" when it has fewer than two words). */
export function bylineName(byline: string | null): string {
  const words = byline?.toLowerCase().match(WORDS);
  return words && words.length >= 2 && words.length <= 6 ? words.join(" ") : "";
}

/**
 * The author's bio at the article's end: one of its last units of prose opening with the author's name
 * ("Rebecca Norris is a freelance writer living in…"), under 600 characters.
 */
export function removeAuthorBio(content: ElementNode, name: string): void {
  // The last units, found from the end (reverse document order), then taken in document order.
  const units: ElementNode[] = [];
  const visit = (el: ElementNode): void => {
    for (let i = el.children.length - 1; i >= 0 && units.length < BIO_LAST_UNITS; i--) {
      const child = el.children[i]!;
      if (typeof child !== "string") visit(child);
    }
    if (units.length < BIO_LAST_UNITS && el !== content && el.tag === "p" && isProse(el)) units.push(el);
  };
  visit(content);
  units.reverse();
  for (const unit of units) {
    if (textLength(unit) > BIO_LENGTH) continue;
    const words = textContent(unit).toLowerCase().match(WORDS);
    if (!words || words.slice(0, name.split(" ").length).join(" ") !== name) continue;
    // Its box: the ancestors adding little text besides (the name as a heading, a line of links).
    let box = unit;
    for (let depth = 0; depth < BIO_BOX_LEVELS; depth++) {
      const up = box.parent;
      if (!up || up === content || textLength(up) > textLength(unit) + BIO_BOX_EXTRA) break;
      box = up;
    }
    // An author's box shows the author: a picture, or a link carrying the name (to the author's page).
    const shown = findDescendant(
      box,
      (d) => d.tag === "img" || d.tag === "picture" || (d.tag === "a" && d !== unit && namesAuthor(d, name)),
    );
    if (shown) removeNode(box);
  }
}

const BIO_BOX_LEVELS = 4;

const BIO_BOX_EXTRA = 200;

/** Whether an element's words hold the name's words in a row. */
function namesAuthor(el: ElementNode, name: string): boolean {
  const words = textContent(el).toLowerCase().match(WORDS);
  return !!words && ` ${words.join(" ")} `.includes(` ${name} `);
}

const BIO_LAST_UNITS = 2;

const BIO_LENGTH = 600;

/**
 * Headings at the very end of the article, with nothing after them: the titles of boxes that cleaning
 * emptied ("Related posts", "Share this"). The last element holding text is followed down, level by level.
 */
export function removeTrailingHeadings(content: ElementNode): void {
  for (let round = 0; round < TRAILING_HEADINGS; round++) {
    let el = content;
    let last: ElementNode | null = null;
    for (let depth = 0; depth < MAX_TAIL_DEPTH; depth++) {
      last = lastChildWithText(el);
      if (
        !last ||
        HEADING_TAGS.has(last.tag) ||
        isLeadIn(last) ||
        (isShortLabel(last) && last.children.every((c) => !isElement(c) || PHRASING.has(c.tag)))
      )
        break;
      el = last;
    }
    if (!last?.parent || textLength(last) > TRAILING_HEADING_LENGTH) return;
    // A line introducing what is no longer there ("Related posts:", "Tags:") ends nothing, nor does a heading
    // with no text after it, unless right after another (its box or list was cleaned away); a short label goes when it is the title of an
    // emptied box, all its parent holds, or when only pictures follow it.
    const emptiedBox =
      (HEADING_TAGS.has(last.tag) || isShortLabel(last)) &&
      ((last.parent !== content && textLength(last.parent) === textLength(last)) ||
        mediaAfter(last) ||
        loneHeading(last));
    if (!isLeadIn(last) && !emptiedBox) return;
    // Only after an article: a page of headings and pictures keeps its headings.
    if (textLength(content) - textLength(last) < TRAILING_HEADING_AFTER) return;
    removeNode(last);
  }
}

const TRAILING_HEADINGS = 10;

/** A heading not right after another heading: empty headings in a row are an outline, not a box's title. */
function loneHeading(el: ElementNode): boolean {
  if (!HEADING_TAGS.has(el.tag)) return false;
  const siblings = el.parent?.children ?? [];
  for (let i = siblings.indexOf(el) - 1; i >= 0; i--) {
    const sib = siblings[i]!;
    if (typeof sib === "string") {
      if (sib.trim()) return true;
      continue;
    }
    if (textLength(sib) > 0) return !HEADING_TAGS.has(sib.tag);
  }
  return true;
}

/** Whether pictures, and no text, follow an element to the end of its parent (a "Pin this" heading over its image). */
function mediaAfter(el: ElementNode): boolean {
  const siblings = el.parent?.children ?? [];
  for (let i = siblings.indexOf(el) + 1; i < siblings.length; i++) {
    const sib = siblings[i]!;
    if (isElement(sib) && hasMedia(sib)) return true;
  }
  return false;
}

/** At most four words: "What others are reading" (five took a readability page's closing line). */
const SHORT_LABEL_WORDS = 4;
const SHORT_LABEL_LENGTH = 30;

/** A few words: at most SHORT_LABEL_LENGTH characters and SHORT_LABEL_WORDS words (a label, a caption). */
const fewWords = (el: ElementNode) => textLength(el) <= SHORT_LABEL_LENGTH && wordCount(el) <= SHORT_LABEL_WORDS;

/** A label of a few words (a box's title or a button's caption), not a heading. */
function isShortLabel(el: ElementNode): boolean {
  if (!fewWords(el)) return false;
  // A list's last item or a table's last row is the list's, not a label.
  for (let up: ElementNode | null = el; up; up = up.parent) if (EDGE_OPAQUE.has(up.tag)) return false;
  return true;
}

/** A short line ending in a colon: it introduces what follows it. */
export function isLeadIn(el: ElementNode): boolean {
  return textLength(el) <= TRAILING_HEADING_LENGTH && /[:：]\s*$/.test(textContent(el));
}

const TRAILING_HEADING_LENGTH = 100;

const TRAILING_HEADING_AFTER = 500;

/** A byline at the article's head: a line before its first unit of prose holding the author's name and little else. */
export function removeAuthorLines(content: ElementNode, name: string): void {
  const size = name.split(" ").length;
  for (const line of edgeLines(content).head) {
    const words = textContent(line).toLowerCase().match(WORDS);
    if (!words || words.length > size + AUTHOR_LINE_EXTRA_WORDS) continue;
    if (line.parent && ` ${words.join(" ")} `.includes(` ${name} `)) removeNode(line);
  }
}

const AUTHOR_LINE_EXTRA_WORDS = 3;

/** Whether an element sits inside a paragraph or item holding more text than it (a sentence around it). */
function inProse(el: ElementNode, content: ElementNode): boolean {
  for (let up = el.parent; up && up !== content; up = up.parent) {
    if (PROSE_TAGS.has(up.tag) || HEADING_TAGS.has(up.tag)) return true;
  }
  return false;
}

/**
 * The box a removed form sat in (a newsletter sign-up: a heading, a line of pitch, the form) goes with it: the
 * largest ancestor of the form's place, inside the article, holding no prose of its own, or a heading and one
 * paragraph of it in under 300 characters in all (the pitch written as a sentence or two).
 */
export function removeFormBoxes(content: ElementNode, forms: ElementNode[][]): void {
  // Whether an ancestor holds prose is asked again for every form under it: a page of thousands of forms
  // in one block searched that block once per form. Removing a box without prose changes no ancestor's
  // answer; removing a pitched one forgets its ancestors'. A page's first FORM_BOXES forms are looked at.
  const prose = new Map<ElementNode, boolean>();
  const holds = (el: ElementNode) => {
    let known = prose.get(el);
    if (known === undefined) {
      known = holdsProseBlock(el);
      prose.set(el, known);
    }
    return known;
  };
  for (const holders of forms.slice(0, FORM_BOXES)) {
    // The nearest of the form's ancestors still in the article (cleaning may have removed the emptied ones).
    const holder = holders.find((h) => hasAncestorNode(h, content));
    if (!holder) continue;
    // The largest box without prose, and the largest holding a pitch (one or two units of prose, short in all).
    let box: ElementNode | null = null;
    let pitched: ElementNode | null = null;
    for (let up: ElementNode | null = holder; up && up !== content; up = up.parent) {
      if (!holds(up)) box = up;
      else if (textLength(up) <= FORM_BOX_PITCH && proseUnits(up) <= 2) pitched = up;
      else break;
    }
    // A pitch goes only with a heading (a sign-up box); a paragraph beside a search form is the article's.
    if (pitched && findDescendant(pitched, isTitle)) {
      box = pitched;
      for (let up = pitched.parent; up; up = up.parent) prose.delete(up);
    }
    if (box) removeNode(box);
  }
}

/** How many of a page's forms are looked at for their boxes (an article has a handful). */
const FORM_BOXES = 200;

/** The buttons inside `content` (not inside one another), as calls to action and lone buttons see them. */
function findButtons(content: ElementNode, links?: ElementNode[]): ElementNode[] {
  const buttons: ElementNode[] = [];
  // Children are pushed in order, so the buttons come last first (not `walkElements`' document order): the
  // passes act on them in that order, and a page's output depends on it (WCXB `0323`).
  const stack: ElementNode[] = [content];
  while (stack.length) {
    const el = stack.pop()!;
    if (el !== content && isButton(el)) {
      buttons.push(el);
      continue;
    }
    // The links standing as buttons, when asked for (calls to action look at them; lone buttons do not).
    if (links && el !== content && isStandaloneLink(el)) links.push(el);
    for (const c of el.children) if (typeof c !== "string") stack.push(c);
  }
  return buttons;
}

/** Class and id words of a link drawn as a button. */
const BUTTON_WORDS = new Set(["btn", "button"]);

/** A button: a `<button>`, a submit or button input, or a link the page draws as one (role or class). */
export function isButton(el: ElementNode): boolean {
  if (el.tag === "button") return true;
  if (el.tag === "input") return /^(?:submit|button)$/i.test(el.attrs.type ?? "");
  if (el.tag !== "a") return false;
  return (el.attrs.role ?? "").toLowerCase() === "button" || hasWord(el, BUTTON_WORDS);
}

/**
 * A link standing as a block of its own, as a button does: a link of a few words to another page that is all the
 * text of the block around it.
 */
function isStandaloneLink(el: ElementNode): boolean {
  if (el.tag !== "a") return false;
  const href = (el.attrs.href ?? "").trim();
  if (!href || href.startsWith("#") || /^javascript:/i.test(href) || FILE_LINK.test(href)) return false;
  const length = textLength(el);
  if (length === 0) return false;
  const parent = el.parent;
  if (!parent || (parent.tag !== "div" && parent.tag !== "p") || textLength(parent) !== length) return false;
  // Words counted last: the count searches the text, the checks above read cached lengths.
  return wordCount(el) <= SHORT_LABEL_WORDS;
}

/** Whether a box holds a heading and a link, and no other text: a title and its button. */
function titleAndLink(box: ElementNode, link: ElementNode): boolean {
  if (textLength(box) - textLength(link) > TRAILING_HEADING_LENGTH) return false;
  const heading = findDescendant(box, isHeading);
  return !!heading && textLength(box) === textLength(heading) + textLength(link);
}

/**
 * A call to action: the box a button sits in, when that box holds no prose (a heading, a line of pitch, the
 * button: "Ready to start? Book a demo"). The largest ancestor of the button inside the article with no unit of
 * prose, no code, figure or caption, no list of three or more items of text (a product's pros and cons), and not the
 * title's `h1`; it must hold some text besides the button's (a lone button in a paragraph's place stays), and
 * it is not a card whose headline or image links where its button does (a listing of courses, of products).
 */
export function removeActionBoxes(content: ElementNode, sites: Set<string>): void {
  const links: ElementNode[] = [];
  const buttons = findButtons(content, links);
  // Each button's box is searched for upwards through its siblings: a page of thousands of buttons in one
  // block made that quadratic, so a page's first ACTION_BUTTONS buttons are looked at (an article has a few),
  // then its first ACTION_BUTTONS links standing as buttons.
  for (const button of [...buttons.slice(0, ACTION_BUTTONS), ...links.slice(0, ACTION_BUTTONS)]) {
    if (!hasAncestorNode(button, content)) continue;
    // A button to another page of the site may come with a pitch of one unit of prose ("Built to last. Our
    // desks are made to ...", then "Shop desks"); a product's card sends its reader elsewhere (a shop).
    const target = button.attrs.href ?? "";
    const ownPage = target !== "" && !target.startsWith("#") && isInternal(target, sites);
    const box = actionBox(button, content, ownPage ? ACTION_PITCH : 0);
    if (!box) continue;
    if (textLength(box) < textLength(button) + ACTION_OWN_TEXT) {
      // A button set between the article's paragraphs under a title of its own, a short paragraph all in bold
      // right before it ("Stop searching. Talk to our experts", then "Talk to us!"): both go.
      const title = isButton(button) ? adjacentElement(box, -1) : null;
      if (title?.tag === "p" && textLength(title) <= ACTION_TITLE && whollyBold(title)) {
        removeNode(title);
        removeNode(box);
      }
      continue;
    }
    // A link standing alone is a button only as all a box holds besides its title ("Book a demo").
    if (!isButton(button) && !titleAndLink(box, button)) continue;
    const href = button.attrs.href;
    if (href && findAll(box, "a").some((a) => a !== button && a.attrs.href === href)) continue;
    removeNode(box);
  }
}

const ACTION_OWN_TEXT = 20;

/** A button's title set right before it: at most this many characters. */
const ACTION_TITLE = 150;

const ACTION_BUTTONS = 100;

const ACTION_BOX_CHILDREN = 64;

/**
 * A lone button: a button leading to another page (not a place on this one, not a file the article offers),
 * with its box when the box holds nothing else.
 */
const LONE_BUTTONS = 2;

export function removeLoneButtons(content: ElementNode): void {
  const buttons = findButtons(content);
  // Buttons again and again are the article's own (a listicle's "Shop the …" under every item).
  if (buttons.length > LONE_BUTTONS) return;
  for (const button of buttons) {
    const href = (button.attrs.href ?? "").trim();
    if (!href || href.startsWith("#") || /^javascript:/i.test(href) || FILE_LINK.test(href)) continue;
    if (textLength(button) === 0) continue;
    let box = button;
    while (box.parent && box.parent !== content && textLength(box.parent) === textLength(button)) box = box.parent;
    if (box.parent) removeNode(box);
  }
}

const ACTION_PITCH = 250;

const ACTION_LIST_ITEMS = 3;

const ACTION_BOX_EXCLUDED = new Set(["pre", "figure", "figcaption", "h1"]);

/**
 * The largest ancestor of a button below `content` that may be a call to action's box: no unit of prose, no
 * code, figure, caption or title heading, no list of three or more items of text (a product's pros and cons).
 * With a `pitch` length, the box may instead hold one unit of prose and a heading, `pitch` characters in all.
 * Each level looks only at what the level below did not hold.
 */
function actionBox(button: ElementNode, content: ElementNode, pitch: number): ElementNode | null {
  let items = 0;
  let prose = 0;
  // Whether an element inside the box (not the box itself) rules the box out.
  const rulesOut = (d: ElementNode): boolean => {
    if (ACTION_BOX_EXCLUDED.has(d.tag) || d.tag === "code") return true;
    if (PROSE_TAGS.has(d.tag) && isProse(d) && ++prose > (pitch ? 1 : 0)) return true;
    if (d.tag === "li" && textLength(d) > 0 && linkDensity(d) < 0.5) items++;
    return items >= ACTION_LIST_ITEMS;
  };
  let box: ElementNode | null = null;
  let pitched: ElementNode | null = null;
  let prev: ElementNode | null = null;
  for (let up: ElementNode | null = button; up && up !== content; prev = up, up = up.parent) {
    if (ACTION_BOX_EXCLUDED.has(up.tag) || (PROSE_TAGS.has(up.tag) && isProse(up))) break;
    // An inline element with words right beside it is part of a sentence (a term with its tooltip, whose
    // bubble holds the button), not a box of its own: the box is what it holds below it.
    if (up !== button && PHRASING.has(up.tag) && amidWords(up)) break;
    // The level below was the box so far; inside this one it is a descendant like any other.
    if (prev && rulesOut(prev)) break;
    // A block of dozens of children is a listing or a page part, not a call to action's box (and scanning
    // it for every button in it was quadratic).
    if (up.children.length > ACTION_BOX_CHILDREN) break;
    let blocked = false;
    for (const child of up.children) {
      if (typeof child === "string" || child === prev) continue;
      if (rulesOut(child) || findDescendant(child, rulesOut)) {
        blocked = true;
        break;
      }
    }
    if (blocked) break;
    if (prose === 0) box = up;
    else if (textLength(up) <= pitch) pitched = up;
    else break;
  }
  // A pitch goes only with a heading over it, as a form's does.
  if (pitched && findDescendant(pitched, isTitle)) return pitched;
  return box;
}

const FORM_BOX_PITCH = 300;

/** Whether the text right before or right after `el` in its parent holds a word. */
function amidWords(el: ElementNode): boolean {
  const kids = el.parent?.children;
  if (!kids) return false;
  const at = indexIn(kids, el);
  const word = (node: TreeNode | undefined) => typeof node === "string" && WORD_CHAR.test(node);
  return at >= 0 && (word(kids[at - 1]) || word(kids[at + 1]));
}
const WORD_CHAR = /[\p{L}\p{N}]/u;

/** How many units of prose a block holds (itself included). */
function proseUnits(el: ElementNode): number {
  let n = PROSE_TAGS.has(el.tag) && isProse(el) ? 1 : 0;
  for (const d of descendants(el)) if (PROSE_TAGS.has(d.tag) && isProse(d)) n++;
  return n;
}

function holdsProseBlock(el: ElementNode): boolean {
  return (PROSE_TAGS.has(el.tag) && isProse(el)) || !!findDescendant(el, (d) => PROSE_TAGS.has(d.tag) && isProse(d));
}

/**
 * The article's last paragraph when it is wholly one link to another page of the site (an event, a promotion,
 * "Continue reading the main story"), or a short one (TRAILING_PITCH characters) closing with a bold link to
 * another page of the site (a pitch and its call: "... <b><a>Subscribe here</a></b>."), after at least
 * TRAILING_LINK_AFTER characters of article.
 */
export function removeTrailingLink(content: ElementNode, sites: Set<string>): void {
  const last = closingParagraph(content);
  if (!last) return;
  const links = findAll(last, "a");
  const href = links[0]?.attrs.href ?? "";
  const closing = closingLink(last);
  const pitch =
    !!closing &&
    textLength(last) <= TRAILING_PITCH &&
    isInternal(closing.attrs.href ?? "", sites) &&
    !FILE_LINK.test(closing.attrs.href ?? "");
  if (pitch && articleBesides(content, last)) {
    removeNode(last);
    return;
  }
  if (
    links.length === 1 &&
    textLength(links[0]!) === textLength(last) &&
    isInternal(href, sites) &&
    !FILE_LINK.test(href) &&
    articleBesides(content, last)
  )
    removeNode(last);
}

/**
 * The article's closing paragraph: its last element holding text, followed down level by level through the
 * blocks that wrap it, when that is a `<p>`; null when the article ends in a heading or other prose (an item,
 * a quote, a table).
 */
function closingParagraph(content: ElementNode): ElementNode | null {
  let el = content;
  for (let depth = 0; depth < MAX_TAIL_DEPTH; depth++) {
    const last = lastChildWithText(el);
    if (!last) return null;
    if (last.tag === "p") return last;
    if (PROSE_TAGS.has(last.tag) || HEADING_TAGS.has(last.tag)) return null;
    el = last;
  }
  return null;
}

const TRAILING_LINK_AFTER = 500;

/** Whether the article holds TRAILING_LINK_AFTER characters or more besides `el`: the line is not all of it. */
function articleBesides(content: ElementNode, el: ElementNode): boolean {
  return textLength(content) - textLength(el) >= TRAILING_LINK_AFTER;
}

const TRAILING_PITCH = 300;

/** The link an element's text closes with (nothing after it but punctuation), if any. */
function closingLink(el: ElementNode, anyLink = false): ElementNode | null {
  let node: ElementNode = el;
  let bold = anyLink;
  for (let depth = 0; depth < MAX_TAIL_DEPTH; depth++) {
    let next: ElementNode | null = null;
    for (let i = node.children.length - 1; i >= 0; i--) {
      const child = node.children[i]!;
      if (typeof child === "string") {
        if (/[\p{L}\p{N}]/u.test(child)) return null;
        continue;
      }
      if (textLength(child) > 0) {
        next = child;
        break;
      }
    }
    if (!next) return null;
    if (next.tag === "a")
      return next.attrs.href && (bold || findDescendant(next, (d) => BOLD.has(d.tag))) ? next : null;
    if (BOLD.has(next.tag)) bold = true;
    node = next;
  }
  return null;
}

/**
 * A label shown twice in a row (once on screen, once again for screen readers: "Article continues below"):
 * two consecutive lines, each a block of phrasing only, with the same short text of a few words, no link and no
 * heading. Both go: an article does not repeat a short line straight after itself.
 */
export function removeDoubledLabels(content: ElementNode): void {
  const doubled: ElementNode[] = [];
  let previous: ElementNode | null = null;
  let previousText = "";
  const stack: ElementNode[] = [content];
  while (stack.length) {
    const el = stack.pop()!;
    if (textLength(el) === 0) continue;
    // A table's cells and a list's items repeat short values ("Yes", "Yes"): not lines.
    if (EDGE_OPAQUE.has(el.tag)) {
      previous = null;
      continue;
    }
    if (el === content || el.children.some((c) => isElement(c) && !PHRASING.has(c.tag) && textLength(c) > 0)) {
      for (let i = el.children.length - 1; i >= 0; i--) {
        const c = el.children[i]!;
        if (isElement(c)) stack.push(c);
      }
      continue;
    }
    // A line: a block holding phrasing only.
    const text = isLabelLine(el) ? textContent(el).toLowerCase().replace(/\s+/g, " ").trim() : "";
    if (text && previous && text === previousText) doubled.push(previous, el);
    previous = el;
    previousText = text;
  }
  for (const el of doubled) if (el.parent) removeNode(el);
}

/** A short line of a few words, no link, not a heading. */
function isLabelLine(el: ElementNode): boolean {
  if (!fewWords(el) || isHeading(el) || PHRASING.has(el.tag)) return false;
  return !findDescendant(el, (d) => d.tag === "a" || isHeading(d));
}

const BOLD = new Set(["strong", "b"]);

/** A box's title: a heading, or a paragraph all in bold (a heading drawn without heading markup). */
const isTitle = (el: ElementNode) => isHeading(el) || (el.tag === "p" && whollyBold(el));

/** Whether all of an element's words are bold: a heading drawn without heading markup. */
function whollyBold(el: ElementNode): boolean {
  return whollyStyled(el, BOLD);
}

/** Whether all of an element's words are inside elements of `tags` (bold, italics). */
function whollyStyled(el: ElementNode, tags: Set<string>, inside = false): boolean {
  for (const child of el.children) {
    if (typeof child === "string") {
      if (!inside && /[\p{L}\p{N}]/u.test(child)) return false;
      continue;
    }
    if (!whollyStyled(child, tags, inside || tags.has(child.tag))) return false;
  }
  return inside || textLength(el) > 0;
}

/**
 * A sponsor's box: a short label of a few words ("In partnership with") over a picture linking to another site
 * (the sponsor's logo or banner), and nothing else. A picture the article shows links to its own file or has a
 * caption of its own words after it, not a label before it.
 */
export function removeSponsorBoxes(content: ElementNode, sites: Set<string>): void {
  const boxes: ElementNode[] = [];
  for (const link of findAll(content, "a").slice(0, SPONSOR_LINKS)) {
    const href = (link.attrs.href ?? "").trim();
    if (textLength(link) > 0 || !href || isInternal(href, sites) || !hasMedia(link)) continue;
    let held = link;
    while (held.parent && held.parent !== content && textLength(held.parent) === 0) held = held.parent;
    const box = held.parent;
    if (!box || box === content || !fewWords(box) || PHRASING.has(box.tag)) continue;
    // A paragraph holding a line and a picture is the article's line; a table's cell or a list's item is its own.
    if (PROSE_TAGS.has(box.tag) || inListOrTable(box, content)) continue;
    // A box of dozens of children is a gallery or a page part, not a label and its picture.
    if (box.children.length > ACTION_BOX_CHILDREN) continue;
    // The label comes first, the picture after it; no other link, no heading.
    const kids = box.children.filter((c) => typeof c !== "string" || c.trim());
    const at = kids.indexOf(held);
    if (at < 1 || kids.slice(at + 1).some((c) => typeof c === "string" || textLength(c) > 0)) continue;
    if (findDescendant(box, (d) => (d.tag === "a" && textLength(d) > 0) || isHeading(d))) continue;
    boxes.push(box);
  }
  for (const box of boxes) if (box.parent) removeNode(box);
}

const SPONSOR_LINKS = 500;

function inListOrTable(el: ElementNode, content: ElementNode): boolean {
  for (let up: ElementNode | null = el; up && up !== content; up = up.parent) if (EDGE_OPAQUE.has(up.tag)) return true;
  return false;
}

/**
 * A person's box at the article's end (the author's, the testers'): a portrait whose alternative text is a name
 * (two to four capitalised words), the same name as the text right after it (the line under the portrait), and,
 * a little further, a sentence about that person opening with the name or its first word ("Tim explores …",
 * "Joanna specializes in …"). When little text is left after the portrait, it and everything after it go: what
 * follows a person's box at the end is the site's (the box's links, the next box of the same kind).
 */
export function removePortraitTail(content: ElementNode): void {
  const pictures = findAll(content, "img");
  for (const picture of pictures.slice(-PORTRAIT_LAST)) {
    const name = (picture.attrs.alt ?? "").replace(/\s+/g, " ").trim();
    // A picture with a caption of its own is the article's figure, its caption no name line.
    if (!PERSON_NAME.test(name) || hasAncestorBelow(picture, content, (a) => a.tag === "figure")) continue;
    // The portrait's block: its ancestors holding no text (the picture's link, figure, wrapper).
    let block = picture;
    while (block.parent && block.parent !== content && textLength(block.parent) === 0) block = block.parent;
    const after = textAfter(block, content, PORTRAIT_TAIL + 1);
    if (after.length > PORTRAIT_TAIL || !after.startsWith(name)) continue;
    // The box ends an article: most of the text comes before it.
    if (textLength(content) < after.length * PORTRAIT_SHARE) continue;
    const first = name.split(" ")[0]!;
    const about = after.slice(name.length, name.length + PORTRAIT_ABOUT);
    const sentence = new RegExp(`(?:^|[\\s.!?])(?:${literal(name)}|${literal(first)})\\s+\\p{Ll}`, "u");
    if (!sentence.test(about)) continue;
    cutFrom(block, content);
    return;
  }
}

/** The pictures looked at: the article's last few (a person's box is at its end). */
const PORTRAIT_LAST = 5;
/** At most this much text after the portrait (a box or two, not a part of the article). */
const PORTRAIT_TAIL = 1500;
/** The sentence about the person starts within this many characters after the name. */
const PORTRAIT_ABOUT = 300;
/** The article's text is at least this many times the text from the portrait on. */
const PORTRAIT_SHARE = 4;
/** A person's name: two to four capitalised words. */
const NAME = "\\p{Lu}[\\p{L}'’.-]+(?: \\p{Lu}[\\p{L}'’.-]+){1,3}";
const PERSON_NAME = new RegExp(`^${NAME}$`, "u");

/**
 * The text after `el` in document order, whitespace collapsed, up to about `limit` characters. When it is longer
 * than `limit`, what is returned is only longer than `limit` (a start of it): its callers then look no further.
 */
function textAfter(el: ElementNode, content: ElementNode, limit: number): string {
  let text = "";
  for (let at: ElementNode = el; at !== content && at.parent && text.length < limit; at = at.parent) {
    const siblings = at.parent.children;
    for (let i = indexIn(siblings, at) + 1; i < siblings.length && text.length < limit; i++)
      text += ` ${textContent(siblings[i]!)}`;
  }
  // A sibling's text may be the rest of the article: collapsing all of it cost more than the pass's other work.
  // Collapsed, a start of the text is a start of the whole collapsed, which ends in one space at most, so a
  // start longer than `limit + 1` characters tells that the whole is longer than `limit`.
  if (text.length > 4 * limit) {
    const start = text
      .slice(0, 4 * limit)
      .replace(/\s+/g, " ")
      .trimStart();
    if (start.length > limit + 1) return start;
  }
  return text.replace(/\s+/g, " ").trim();
}

/**
 * A notice over the article: its first line of prose, when short (TRAILING_PITCH characters) and closing with a
 * link to another page of the site that says more ("Editorial note: … may contain affiliate links … Learn
 * more."; "Note: … Read more in our Privacy Policy."), with the article after it. The article's own opening
 * sentence ends in a full stop of its own words, not in a pointer to the site's policy pages. A notice may also
 * stand between the parts the merge joined (a lead, then the notice, then the body): a paragraph of its own among
 * the article's first NOTICE_PARTS blocks.
 */
export function removeHeadNotice(content: ElementNode, sites: Set<string>): void {
  const first = findDescendant(content, (d) => isLine(d) && textLength(d) >= PROSE_LENGTH);
  if (first && isNotice(first, content, sites)) removeNode(first);
  const parts = content.children.slice(0, NOTICE_PARTS);
  for (const part of parts) if (isElement(part) && part.tag === "p" && isNotice(part, content, sites)) removeNode(part);
}

const NOTICE_PARTS = 64;

function isNotice(line: ElementNode, content: ElementNode, sites: Set<string>): boolean {
  const length = textLength(line);
  if (length < PROSE_LENGTH || length > TRAILING_PITCH || inListOrTable(line, content)) return false;
  // It is labelled as a notice: a word or two and a colon open it ("Editorial note:", "Disclosure:").
  if (!NOTICE_LABEL.test(textContent(line))) return false;
  const link = closingLink(line, true);
  const href = link?.attrs.href ?? "";
  if (!link || href.startsWith("#") || !isInternal(href, sites) || FILE_LINK.test(href)) return false;
  return articleBesides(content, line);
}

const NOTICE_LABEL = /^\s*\p{L}+(?: \p{L}+)?:\s/u;

/** A paragraph, or a block holding only text and phrasing elements. */
function isLine(el: ElementNode): boolean {
  if (el.tag === "p") return true;
  if (PHRASING.has(el.tag) || HEADING_TAGS.has(el.tag) || EDGE_OPAQUE.has(el.tag)) return false;
  return el.children.every((c) => typeof c === "string" || PHRASING.has(c.tag));
}

/**
 * A credit line closing the article: its last paragraph, a few words leading to a link that is all a person's
 * name ("Written by <a>Paulinho Giovannini</a>"), the byline written at the end when the page's metadata names no
 * author.
 */
export function removeClosingCredit(content: ElementNode): void {
  const last = closingParagraph(content);
  if (!last) return;
  if (wordCount(last) > CREDIT_WORDS || !articleBesides(content, last)) return;
  const link = closingLink(last, true);
  if (!link || findAll(last, "a").length !== 1) return;
  const name = textContent(link).replace(/\s+/g, " ").trim();
  if (!PERSON_NAME.test(name) || wordCount(last) - wordCount(link) < 1) return;
  removeNode(last);
}

const CREDIT_WORDS = 6;

/**
 * A person's box at the article's end titled with their name ("Written by Cassidy Horton", then "Cassidy Horton
 * is a finance writer who …"): one of the article's last headings ending in a name (two to four capitalised
 * words), and the text right after it opening with that whole name and a word in small letters (a sentence about
 * the person). As with a portrait, when little text is left from the heading on, it and everything after it go.
 */
export function removeNamedBoxTail(content: ElementNode): void {
  const headings = findAll(content, HEADING_TAGS);
  for (const heading of headings.slice(-PORTRAIT_LAST)) {
    const name = textContent(heading).replace(/\s+/g, " ").trim().match(TRAILING_NAME)?.[1];
    if (!name) continue;
    const after = textAfter(heading, content, PORTRAIT_TAIL + 1);
    if (after.length > PORTRAIT_TAIL || textLength(content) < (after.length + textLength(heading)) * PORTRAIT_SHARE)
      continue;
    // As `^name\s+\p{Ll}` would, without compiling a pattern with a letter class per heading (compiling it took
    // about 0.7 % of the engine's time on the readability and WCXB pages, more than the rest of this pass).
    if (!after.startsWith(name)) continue;
    SPACE_THEN_SMALL.lastIndex = name.length;
    if (!SPACE_THEN_SMALL.test(after)) continue;
    cutFrom(heading, content);
    return;
  }
}

/** Whitespace and a small letter, where it is looked for (sticky). */
const SPACE_THEN_SMALL = /\s+\p{Ll}/uy;
const TRAILING_NAME = new RegExp(`\\p{Ll}\\s+(${NAME})$`, "u");

/**
 * A note set apart below the article: its last paragraph, all in italics, right after a horizontal rule ("Playful
 * Void is a production of … If you liked this article, please consider …"). The rule ends the article; what the
 * page sets in italics under it is about the article or the site, not part of it.
 */
export function removeRuledNote(content: ElementNode): void {
  const last = closingParagraph(content);
  if (!last || !whollyStyled(last, ITALIC) || adjacentElement(last, -1)?.tag !== "hr") return;
  if (!articleBesides(content, last)) return;
  removeNode(last);
}

const ITALIC = new Set(["em", "i"]);
