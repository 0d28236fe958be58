// After the article's last paragraph: blocks of links to the site's own pages.

import { type ElementNode, findAll, invalidate, type TreeNode, textLength } from "../html-tree";
import { endsProse, FILE_LINK, isInternal, MAX_TAIL_DEPTH, PROSE_TAGS } from "../predicates";

/**
 * The article ends with its last unit of prose. What follows it (at each level, down the last block that
 * holds prose) goes when it is mostly links to the site's own pages: three or more links, 80 % of its text
 * or more (a menu, other stories, tags). Links to files (a PDF the article offers) do not count as pages.
 */
export function trimTail(content: ElementNode, sites: Set<string>): void {
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
