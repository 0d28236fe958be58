// Reddit's limits on a self post: title 1..300 characters, body at most 40,000. A long article is cut at a
// block boundary and ends with a link to the original, in markdown and rich text alike.
import type { Article, Block } from "../types";

export const MAX_TITLE = 300;
export const MAX_BODY = 40_000;

/** Counts characters the way the forum does (code points, not UTF-16 units). */
export function charLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** Cuts `text` to at most `max` code points, at a word boundary when one is close, ending with "…". */
export function cutText(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  const head = chars.slice(0, max - 1).join("");
  const space = head.search(/\s+\S*$/);
  const cut = space > head.length * 0.6 ? head.slice(0, space) : head;
  return `${cut.replace(/[\s,;:.–—-]+$/, "")}…`;
}

/** The post title: whitespace collapsed, 1..300 characters; an article without a title is named by its URL. */
export function postTitle(article: Article): string {
  let title = article.title.replace(/\s+/g, " ").trim();
  if (!title) {
    const url = new URL(article.canonicalUrl || article.url);
    const slug = decodeURIComponent(url.pathname.split("/").filter(Boolean).pop() ?? "")
      .replace(/\.[a-z0-9]+$/i, "")
      .replace(/[-_]+/g, " ")
      .trim();
    title = slug || url.hostname;
  }
  return cutText(title, MAX_TITLE);
}

export const READ_MORE = "Read the full article";

/** An article's body cut to the limit: the leading blocks kept, and the original's URL the closing link names. */
export interface FittedBody {
  blocks: Block[];
  truncated: boolean;
  url: string;
}

/**
 * How many leading blocks fit in `max` characters once rendered by `render`, leaving room for the closing
 * link. Returns every block when the whole body fits.
 */
export function fitBlocks(
  blocks: Block[],
  render: (blocks: Block[]) => string,
  max: number,
  footer: string,
): { blocks: Block[]; truncated: boolean } {
  if (charLength(render(blocks)) <= max) return { blocks, truncated: false };
  const budget = max - charLength(footer) - 2;
  let fitted = 0;
  let used = 0;
  for (let i = 0; i < blocks.length; i++) {
    const size = charLength(render([blocks[i]!])) + (i > 0 ? 2 : 0);
    if (used + size > budget) break;
    used += size;
    fitted = i + 1;
  }
  return { blocks: blocks.slice(0, fitted), truncated: true };
}
