// Paragraphs written without `<p>`: double line breaks and loose text in a container become paragraphs, so
// each one counts when scoring.

import {
  createElement,
  descendants,
  type ElementNode,
  hasAncestor,
  invalidate,
  isElement,
  type TreeNode,
} from "../html-tree";
import { PHRASING } from "../predicates";
import { DIV_TO_P_BLOCKS } from "./tags";

function isWhitespace(node: TreeNode): boolean {
  return typeof node === "string" ? node.trim() === "" : node.tag === "br";
}

function isPhrasing(node: TreeNode): boolean {
  if (typeof node === "string") return true;
  if (PHRASING.has(node.tag)) return true;
  return (node.tag === "a" || node.tag === "del" || node.tag === "ins") && node.children.every(isPhrasing);
}

export function hasBlockChild(el: ElementNode): boolean {
  for (const child of el.children) {
    if (typeof child === "string") continue;
    if (DIV_TO_P_BLOCKS.has(child.tag) || hasBlockChild(child)) return true;
  }
  return false;
}

export function newElement(tag: string, parent: ElementNode | null, children: TreeNode[] = []): ElementNode {
  const el = createElement(tag, {}, parent, children);
  for (const child of children) if (isElement(child)) child.parent = el;
  return el;
}

/** `<p>`s turned into containers of paragraphs: written as text by the author, so never cleaned away as a container. */
export const splitParagraphs = new WeakSet<ElementNode>();

/**
 * `<br><br>` inside a container separates paragraphs: make them real paragraphs. A `<p>` that holds several
 * such paragraphs (a common CMS habit) becomes a `<div>` of paragraphs, so each one counts when scoring.
 */
export function replaceDoubleBreaks(body: ElementNode): void {
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
export function wrapPhrasing(el: ElementNode): void {
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
