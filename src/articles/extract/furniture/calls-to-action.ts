// Calls to action in the article: the box around a removed form (its heading, a line of pitch), a heading
// with a line of pitch and a button, and lone buttons to another page. Removed after cleaning.

import {
  descendants,
  type ElementNode,
  findAll,
  findDescendant,
  indexIn,
  removeNode,
  type TreeNode,
  textLength,
} from "../html-tree";
import {
  adjacentElement,
  FILE_LINK,
  hasAncestorNode,
  isHeading,
  isInternal,
  isProse,
  linkDensity,
  PHRASING,
  PROSE_TAGS,
} from "../predicates";
import { hasWord } from "../signals";
import { wordCount } from "./datelines";
import { isTitle, SHORT_LABEL_WORDS, TRAILING_HEADING_LENGTH, whollyBold } from "./labels";

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

export const ACTION_BOX_CHILDREN = 64;

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
