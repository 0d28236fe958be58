// Inline content of the block tree: text runs with their marks (bold, italic, code, ...), links and breaks,
// with HTML's whitespace collapsed as a browser shows it and neighbouring runs of the same marks joined.

import type { Inline } from "../types";
import { SPACE_TO_COLLAPSE } from "./html-tree";

export interface Marks {
  bold?: boolean;
  italic?: boolean;
  code?: boolean;
  strike?: boolean;
  sup?: boolean;
}

export const MARK_OF: Record<string, keyof Marks> = {
  strong: "bold",
  b: "bold",
  em: "italic",
  i: "italic",
  cite: "italic",
  dfn: "italic",
  code: "code",
  kbd: "code",
  samp: "code",
  tt: "code",
  var: "code",
  s: "strike",
  strike: "strike",
  del: "strike",
  sup: "sup",
};

function sameMarks(a: Inline, b: Marks): boolean {
  return (
    a.type === "text" &&
    !!a.bold === !!b.bold &&
    !!a.italic === !!b.italic &&
    !!a.code === !!b.code &&
    !!a.strike === !!b.strike &&
    !!a.sup === !!b.sup
  );
}

export function pushText(out: Inline[], text: string, marks: Marks): void {
  if (!text) return;
  const last = out[out.length - 1];
  if (last && last.type === "text" && sameMarks(last, marks)) {
    last.text += text;
    return;
  }
  const node: Inline = { type: "text", text };
  if (marks.bold) node.bold = true;
  if (marks.italic) node.italic = true;
  if (marks.code) node.code = true;
  if (marks.strike) node.strike = true;
  if (marks.sup) node.sup = true;
  out.push(node);
}

/**
 * A run of whitespace becomes one space, except a run of no-break spaces (with no tab, line break or plain
 * space among them), which the author put there on purpose. Text without a no-break space (nearly all of
 * it) takes the plain replacement, several times faster than calling a function for every run.
 */
function collapseInlineSpace(text: string): string {
  if (!text.includes("\u00a0")) return text.replace(SPACE_TO_COLLAPSE, " ");
  return text.replace(/[\s\u00a0]+/g, (m) => (m.includes("\u00a0") && !/[\t\n\r ]/.test(m) ? m : " "));
}

/** Where the whitespace collapse of a run of inlines stands (normalizeInlines). */
interface RunState {
  lastSpace: boolean;
  afterBreak: boolean;
}

// A function of its own, not a closure made on every call: the Worker's bundle names every function it
// creates (wrangler keeps names), which cost more than the walk itself on pages of many short paragraphs.
function collapseRun(list: Inline[], state: RunState): Inline[] {
  const out: Inline[] = [];
  for (const node of list) {
    if (node.type === "break") {
      if (state.afterBreak) continue;
      // Whitespace before a break is meaningless.
      const prev = out[out.length - 1];
      if (prev?.type === "text" && prev.text.endsWith(" ")) prev.text = prev.text.replace(/ +$/, "");
      out.push(node);
      state.lastSpace = true;
      state.afterBreak = true;
    } else if (node.type === "text") {
      let text = collapseInlineSpace(node.text);
      if (state.lastSpace && text.charCodeAt(0) === 32) text = text.replace(/^ +/, "");
      if (!text) continue;
      state.lastSpace = text.endsWith(" ");
      state.afterBreak = false;
      // The run's own nodes are changed in place, not copied: every caller drops the run it passes.
      node.text = text;
      out.push(node);
    } else {
      const children = collapseRun(node.children, state);
      if (children.length) {
        node.children = children;
        out.push(node);
      }
    }
  }
  return out;
}

/** Collapses runs of whitespace across inline boundaries and trims the ends of the run. */
export function normalizeInlines(inlines: Inline[]): Inline[] {
  // Breaks at the start of the run, or right after another break, only add empty lines.
  const result = collapseRun(inlines, { lastSpace: true, afterBreak: true });
  // Trim the end.
  for (let i = result.length - 1; i >= 0; i--) {
    const node = result[i]!;
    if (node.type === "break") {
      result.pop();
      continue;
    }
    if (node.type === "text") {
      node.text = node.text.replace(/\s+$/, "");
      if (!node.text) {
        result.pop();
        continue;
      }
    } else if (node.type === "link") {
      const last = node.children[node.children.length - 1];
      if (last?.type === "text") last.text = last.text.replace(/\s+$/, "");
    }
    break;
  }
  return result;
}

/**
 * Whether `inlineText(inlines).trim()` would be non-empty, without joining the text: the first text of a
 * paragraph usually answers it.
 */
export function hasVisibleText(inlines: Inline[]): boolean {
  for (const inline of inlines) {
    if (inline.type === "text" ? inline.text.trim() !== "" : inline.type === "link" && hasVisibleText(inline.children))
      return true;
  }
  return false;
}

export function inlineText(inlines: Inline[]): string {
  return inlines.map((i) => (i.type === "text" ? i.text : i.type === "break" ? "\n" : inlineText(i.children))).join("");
}
