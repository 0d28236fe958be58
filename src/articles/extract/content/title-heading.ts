// The article's title repeated as its first heading goes: the post carries the title on its own.

import { type ElementNode, findAll, innerText, removeNode } from "../html-tree";

/**
 * The article's title repeated as its first heading goes (the post carries the title on its own): the same
 * words, or, when the heading opens the article (no text before it), a heading made of the title's words
 * (a shortened headline, or its kicker, "Lupita Nyong'o" over "Lupita Nyong'o's Oscar dress stolen").
 */
export function removeTitleHeading(content: ElementNode, title: string): void {
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
