// Read off the page as parsed, before the walk changes it: controls, placed labels, forms and collapsed panels,
// which later steps judge with what was learnt here.

import { descendants, type ElementNode, findDescendant, innerText, isElement, textLength } from "../html-tree";
import { PROSE_LENGTH } from "../predicates";
import { className } from "./class-weight";
import { cleanMatching } from "./clean-matching";
import { hasSentence } from "./pager";
import { LIST_TAGS } from "./tags";

export function isHidden(el: ElementNode): boolean {
  const style = el.attrs.style;
  if (style && /(^|;)\s*(display\s*:\s*none|visibility\s*:\s*hidden)/i.test(style)) return true;
  if ("hidden" in el.attrs) return true;
  // aria-hidden widgets are decoration; fallback images inside them are the exception readers make.
  if (el.attrs["aria-hidden"] === "true" && !/fallback-image/.test(className(el))) return true;
  return false;
}

/** Whether a form has a field a reader fills in (not only hidden inputs and buttons). */
export function hasField(form: ElementNode): boolean {
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

/**
 * A list whose items open with "k/N" counting up, N the same for every item and at least the number of items:
 * the numbered captions of a slideshow (its slides are shown one at a time; the captions are not the text of
 * the article that embeds it). An article numbers its own list items, if at all, without their total.
 */
export function isSlideCaptions(el: ElementNode): boolean {
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
export function removeControlPanels(content: ElementNode, controls: Map<ElementNode, number>): void {
  if (!controls.size) return;
  cleanMatching(content, (el) => (controls.get(el) ?? 0) >= PANEL_CONTROLS && !hasSentence(el));
}

/**
 * Read on the page as parsed, before the walk that prepares scoring changes it: how many controls each
 * element holds (a player's buttons are often empty elements, an icon drawn by CSS, which the walk removes;
 * empty when the page has fewer than PANEL_CONTROLS), and the labels placed by coordinates with everything
 * inside them (the walk turns a `div` holding one paragraph into that paragraph, dropping the div's style).
 */
export function findWidgets(body: ElementNode): {
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
export function removePlacedLabels(content: ElementNode, placed: Set<ElementNode>): void {
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
export const PLACED_LABELS = 5;
const PLACED_SHARE = 0.8;
