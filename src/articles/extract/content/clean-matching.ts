// The walk most cleaning steps share: every element a test picks goes, with everything inside it.

import { type ElementNode, invalidate, type TreeNode } from "../html-tree";

export function cleanMatching(content: ElementNode, test: (el: ElementNode) => boolean): void {
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
