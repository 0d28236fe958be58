// The first step: what is never article content goes before the page is read.

import type { ElementNode, TreeNode } from "../html-tree";
import { ALWAYS_DROP } from "./tags";

/** Drops what is never article content, whatever the flags. */
export function prune(body: ElementNode): void {
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
