// The chosen content subtree becomes a block tree: headings, paragraphs, lists, quotes, code, tables,
// images and links, with absolute URLs. Only what the block tree can express survives, so markup that is
// unsafe to republish (scripts, styles, iframes, event handlers, `javascript:` links) cannot come through.

import type { ArticleImage, Block } from "../types";
import { BlockWriter } from "./block-writer";
import type { ElementNode } from "./html-tree";
import { inlineText } from "./inline-text";

export function toBlocks(content: ElementNode, base: string): { blocks: Block[]; images: ArticleImage[] } {
  const images: ArticleImage[] = [];
  const writer = new BlockWriter(base, images);
  for (const child of content.children) writer.block(child);
  writer.flush();
  return { blocks: writer.blocks, images };
}

/**
 * Plain text of a block tree: blocks separated by blank lines, list items on their own lines, table cells
 * apart by tabs. A bulleted list's items are marked "- " (the usual plain-text bullet), an item's further lines
 * (its own paragraphs, a nested list) indented under its first. A numbered list's items are left unmarked: the
 * numbers come from its markup, not from the page's text, and as digits they would be words the text never held.
 */
export function blocksToText(blocks: Block[]): string {
  const parts: string[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case "heading":
      case "paragraph":
        parts.push(inlineText(block.children));
        break;
      case "list":
        parts.push(block.items.map((item) => listItemText(item, block.ordered ? "" : "- ")).join("\n"));
        break;
      case "quote":
        parts.push(blocksToText(block.children));
        break;
      case "code":
        parts.push(block.text);
        break;
      case "table":
        parts.push(block.rows.map((row) => row.cells.map(inlineText).join("\t")).join("\n"));
        break;
      case "image":
        if (block.caption) parts.push(block.caption);
        break;
      case "rule":
        break;
    }
  }
  return parts.filter((p) => p.trim()).join("\n\n");
}

/** A list item's text behind its mark; the item's further lines (its own paragraphs, a nested list) are indented under it. */
function listItemText(item: Block[], mark: string): string {
  const text = blocksToText(item);
  if (!text) return "";
  const indent = " ".repeat(mark.length);
  return mark + text.replace(/\n(?=.)/g, `\n${indent}`);
}
