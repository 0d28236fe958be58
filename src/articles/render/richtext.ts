// Reddit rich-text JSON (RTJSON), the document format the forum's `richtext_json` submit field takes:
// blocks `par`, `h` (level `l`), `list` (ordered `o`) of `li`, `blockquote`, `code` (lines as `raw`),
// `table` (`h` header cells with alignment `a`, `c` rows), media `img` / `gif` with the uploaded asset `id`
// and optional caption `c`; inline `text` with format ranges `f` = [[bits, start, length]] (1 bold,
// 2 italic, 8 strikethrough, 32 superscript, 64 monospace), `link` with `t`, `u` and its own `f`,
// and `raw` (unformatted text, used in headings and code). Offsets count code points.
import type { Article, Block, Inline, TableRow } from "../types";
import { charLength, type FittedBody, postTitle, READ_MORE } from "./limits";
import { fitBody } from "./markdown";

type FormatRange = [number, number, number];
type RtInline =
  | { e: "text"; t: string; f?: FormatRange[] }
  | { e: "link"; t: string; u: string; f?: FormatRange[] }
  | { e: "raw"; t: string };
type RtBlock =
  | { e: "par"; c: RtInline[] }
  | { e: "h"; l: number; c: RtInline[] }
  | { e: "list"; o: boolean; c: { e: "li"; c: RtBlock[] }[] }
  | { e: "blockquote"; c: RtBlock[] }
  | { e: "code"; c: { e: "raw"; t: string }[] }
  | { e: "table"; h: { a: "L"; c: RtInline[] }[]; c: { c: RtInline[] }[][] }
  | { e: "img" | "gif"; id: string; c?: string };

export interface RichTextDocument {
  document: RtBlock[];
}

function bitsOf(node: Extract<Inline, { type: "text" }>): number {
  return (
    (node.bold ? 1 : 0) | (node.italic ? 2 : 0) | (node.strike ? 8 : 0) | (node.sup ? 32 : 0) | (node.code ? 64 : 0)
  );
}

/** Flattens text runs into one string with format ranges (merging adjacent runs of the same format). */
function formatted(runs: { text: string; bits: number }[]): { t: string; f?: FormatRange[] } {
  let t = "";
  let offset = 0;
  const ranges: FormatRange[] = [];
  for (const run of runs) {
    const length = charLength(run.text);
    if (run.bits) {
      const last = ranges[ranges.length - 1];
      if (last && last[0] === run.bits && last[1] + last[2] === offset) last[2] += length;
      else ranges.push([run.bits, offset, length]);
    }
    t += run.text;
    offset += length;
  }
  return ranges.length ? { t, f: ranges } : { t };
}

function textRuns(inlines: Inline[]): { text: string; bits: number }[] {
  return inlines.flatMap((node) =>
    node.type === "text"
      ? [{ text: node.text, bits: bitsOf(node) }]
      : node.type === "break"
        ? [{ text: " ", bits: 0 }]
        : textRuns(node.children),
  );
}

/** Inline nodes of one line (breaks already split out). */
function lineInlines(inlines: Inline[], raw: boolean): RtInline[] {
  const out: RtInline[] = [];
  let pending: Inline[] = [];
  const flush = () => {
    if (!pending.length) return;
    const { t, f } = formatted(textRuns(pending));
    pending = [];
    if (!t) return;
    out.push(raw ? { e: "raw", t } : f ? { e: "text", t, f } : { e: "text", t });
  };
  for (const node of inlines) {
    if (node.type === "link") {
      flush();
      const { t, f } = formatted(textRuns(node.children));
      const label = t.trim() ? t : node.href;
      out.push(f && !raw ? { e: "link", t: label, u: node.href, f } : { e: "link", t: label, u: node.href });
    } else pending.push(node);
  }
  flush();
  return out;
}

/** A paragraph with line breaks becomes several `par` blocks, as Reddit's own converter does. */
function paragraphs(inlines: Inline[]): RtBlock[] {
  const lines: Inline[][] = [[]];
  for (const node of inlines) {
    if (node.type === "break") lines.push([]);
    else lines[lines.length - 1]!.push(node);
  }
  return lines
    .map((line) => lineInlines(line, false))
    .filter((c) => c.length)
    .map((c) => ({ e: "par", c }));
}

function tableBlock(rows: TableRow[]): RtBlock {
  const columns = Math.max(...rows.map((r) => r.cells.length));
  const cells = (row: TableRow) =>
    Array.from({ length: columns }, (_, i) => ({ c: lineInlines(row.cells[i] ?? [], false) }));
  const [head, ...body] = rows;
  return { e: "table", h: cells(head!).map((cell) => ({ a: "L" as const, c: cell.c })), c: body.map(cells) };
}

function convert(blocks: Block[], assetIds: Record<string, string>): RtBlock[] {
  const out: RtBlock[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case "paragraph":
        out.push(...paragraphs(block.children));
        break;
      case "heading": {
        const c = lineInlines(
          block.children.filter((n) => n.type !== "break"),
          true,
        );
        if (c.length) out.push({ e: "h", l: block.level, c });
        break;
      }
      case "list":
        out.push({
          e: "list",
          o: block.ordered,
          c: block.items.map((item) => ({ e: "li", c: convert(item, assetIds) })),
        });
        break;
      case "quote":
        out.push({ e: "blockquote", c: convert(block.children, assetIds) });
        break;
      case "code":
        out.push({ e: "code", c: block.text.split("\n").map((t) => ({ e: "raw", t })) });
        break;
      case "table":
        out.push(tableBlock(block.rows));
        break;
      case "image": {
        const id = assetIds[block.url];
        if (id) {
          const kind = /\.gif($|\?)/i.test(block.url) ? "gif" : "img";
          out.push(block.caption ? { e: kind, id, c: block.caption } : { e: kind, id });
        } else {
          // Not uploaded (media off, or the upload failed): a link to the image keeps it reachable.
          out.push({ e: "par", c: [{ e: "link", t: block.alt || block.caption || "Image", u: block.url }] });
        }
        break;
      }
      case "rule":
        // RTJSON has no horizontal rule; the block boundary itself separates the parts.
        break;
    }
  }
  return out;
}

/**
 * The article as a Reddit rich-text document; images become media nodes with the asset ids the caller
 * uploaded (`assetIds`: image URL → asset id). Cut by `fitBody`, at the same block boundary as the markdown
 * form (pass that rendering's `fitted` to cut once), so the post stays within 40,000 characters, ending
 * with a link to the original.
 */
export function toRedditRichText(
  article: Article,
  assetIds: Record<string, string>,
  options: { maxLength?: number; fitted?: FittedBody } = {},
): { title: string; document: RichTextDocument; truncated: boolean } {
  const { blocks, truncated, url } = options.fitted ?? fitBody(article, options);
  const document = convert(blocks, assetIds);
  if (truncated) document.push({ e: "par", c: [{ e: "link", t: READ_MORE, u: url }] });
  return { title: postTitle(article), document: { document }, truncated };
}
