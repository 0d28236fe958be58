// Reddit markdown for a self post. Indented code blocks and pipe tables render on old and new Reddit alike;
// images cannot be embedded in a markdown post, so they become links (the rich-text form embeds them).
import type { Article, Block, Inline, TableRow } from "../types";
import { type FittedBody, fitBlocks, MAX_BODY, postTitle, READ_MORE } from "./limits";

/** Escapes characters Reddit's markdown would read as syntax. */
function escapeText(text: string): string {
  return text
    .replace(/([\\`*_~^[\]|])/g, "\\$1")
    .replace(/&(?=[#A-Za-z0-9]+;)/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
}

/** Escapes what would start a block at the beginning of a line (headings, quotes, list markers). */
function escapeLineStarts(text: string): string {
  return text.replace(/^(\s*)(#|[-+](?=\s))/gm, "$1\\$2").replace(/^(\s*\d+)([.)])(?=\s)/gm, "$1\\$2");
}

function linkUrl(url: string): string {
  return url.replace(/[()\s<>]/g, (c) => encodeURIComponent(c).replace(/\(/g, "%28").replace(/\)/g, "%29"));
}

function codeSpan(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((m) => m.length));
  const fence = "`".repeat(longest + 1);
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

function wrap(text: string, marker: string): string {
  // Markers must hug the text: "** bold **" is not bold.
  const match = text.match(/^(\s*)([\s\S]*?)(\s*)$/);
  if (!match?.[2]) return text;
  return `${match[1]}${marker}${match[2]}${marker}${match[3]}`;
}

function renderText(node: Extract<Inline, { type: "text" }>): string {
  if (node.code) return node.text.trim() ? codeSpan(node.text.replace(/\n/g, " ")) : node.text;
  let out = escapeText(node.text);
  if (node.strike) out = wrap(out, "~~");
  if (node.italic) out = wrap(out, "*");
  if (node.bold) out = wrap(out, "**");
  if (node.sup) out = out.trim() ? `^(${out.replace(/\)/g, "\\)")})` : out;
  return out;
}

export function renderInlines(inlines: Inline[]): string {
  const out = inlines
    .map((node) => {
      if (node.type === "break") return "  \n";
      if (node.type === "text") return renderText(node);
      const label = renderInlines(node.children).trim() || escapeText(node.href);
      return `[${label}](${linkUrl(node.href)})`;
    })
    .join("");
  return escapeLineStarts(out);
}

function indent(text: string, prefix: string, first = prefix): string {
  return text
    .split("\n")
    .map((line, i) => (line ? (i === 0 ? first : prefix) + line : line))
    .join("\n");
}

function renderTable(rows: TableRow[]): string {
  const columns = Math.max(...rows.map((r) => r.cells.length));
  const cell = (inlines: Inline[] | undefined) =>
    inlines
      ? renderInlines(inlines)
          .replace(/\s*\n\s*/g, " ")
          .trim()
      : "";
  const line = (row: TableRow) => `|${Array.from({ length: columns }, (_, i) => ` ${cell(row.cells[i])} `).join("|")}|`;
  const [head, ...body] = rows;
  return [line(head!), `|${Array.from({ length: columns }, () => ":--").join("|")}|`, ...body.map(line)].join("\n");
}

function renderBlock(block: Block): string {
  switch (block.type) {
    case "heading":
      return `${"#".repeat(block.level)} ${renderInlines(block.children).replace(/\s*\n\s*/g, " ")}`;
    case "paragraph":
      return renderInlines(block.children);
    case "list": {
      let number = block.start ?? 1;
      return block.items
        .map((item) => {
          const marker = block.ordered ? `${number++}. ` : "- ";
          const body = renderBlocks(item) || " ";
          return indent(body, " ".repeat(marker.length), marker);
        })
        .join("\n");
    }
    case "quote":
      return renderBlocks(block.children)
        .split("\n")
        .map((line) => (line ? `> ${line}` : ">"))
        .join("\n");
    case "code":
      return block.text
        .split("\n")
        .map((line) => `    ${line}`)
        .join("\n");
    case "table":
      return renderTable(block.rows);
    case "image": {
      const label = escapeText(block.alt || block.caption || "Image");
      const link = `[${label}](${linkUrl(block.url)})`;
      return block.caption && block.caption !== block.alt ? `${link}  \n*${escapeText(block.caption)}*` : link;
    }
    case "rule":
      return "---";
  }
}

export function renderBlocks(blocks: Block[]): string {
  return blocks
    .map(renderBlock)
    .filter((text) => text.trim())
    .join("\n\n");
}

function readMore(url: string): string {
  return `[${READ_MORE}](${linkUrl(url)})`;
}

/**
 * Cuts the article to the body limit (≤ maxLength) at a block boundary, for both renderings: the length is
 * measured on this markdown form, which is what the forum stores as the post's text, closing link included.
 * Rendering markdown and rich text from one cut keeps them at the same block.
 */
export function fitBody(article: Article, options: { maxLength?: number } = {}): FittedBody {
  const url = article.canonicalUrl || article.url;
  return { ...fitBlocks(article.blocks, renderBlocks, options.maxLength ?? MAX_BODY, readMore(url)), url };
}

/**
 * The article's images that are still in the body after the cut: a draft lists (and
 * publishing would upload) only what the post shows, and an article with thousands of images cannot make
 * a stored row larger than the body itself allows.
 */
export function imagesKept(article: Article, fitted: FittedBody): Article["images"] {
  const shown = new Set<string>();
  const visit = (blocks: Block[]): void => {
    for (const block of blocks) {
      if (block.type === "image") shown.add(block.url);
      else if (block.type === "list") block.items.forEach(visit);
      else if (block.type === "quote") visit(block.children);
    }
  };
  visit(fitted.blocks);
  return article.images.filter((image) => shown.has(image.url));
}

/**
 * The article as a Reddit markdown self post, within Reddit's limits (title 1..300, body ≤ maxLength).
 * `fitted` is a cut already made by `fitBody` (shared with the rich-text rendering).
 */
export function toRedditMarkdown(
  article: Article,
  options: { maxLength?: number; fitted?: FittedBody } = {},
): { title: string; markdown: string; truncated: boolean } {
  const { blocks, truncated, url } = options.fitted ?? fitBody(article, options);
  const footer = readMore(url);
  const body = renderBlocks(blocks);
  const markdown = truncated ? (body ? `${body}\n\n${footer}` : footer) : body;
  return { title: postTitle(article), markdown, truncated };
}
