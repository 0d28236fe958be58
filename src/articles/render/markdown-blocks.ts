// Reads Reddit markdown back into the engine's blocks, so a draft a person edited as markdown can be
// rendered again as forum rich text (toRedditRichText). It reads what people write in a post and what
// markdown.ts writes: paragraphs and line breaks, ATX headings, `-`/`*`/`+` and numbered lists, quotes,
// fenced and indented code, pipe tables, rules; inline bold, italic, strikethrough, superscript, code
// spans, links, backslash escapes and the three HTML entities the forum decodes. Anything else stays text.
import type { Block, Inline, TableRow } from "../types";

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)[^`]*$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t#]*$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^ {0,3}> ?(.*)$/;
const BULLET = /^( {0,3})([-*+])([ \t]+)(.*)$/;
const ORDERED = /^( {0,3})(\d{1,9})([.)])([ \t]+)(.*)$/;
const INDENTED = /^(?: {4}|\t)(.*)$/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

const blank = (line: string) => line.trim() === "";

/** True when `line` starts a block other than a paragraph (so it ends the paragraph before it). */
function startsBlock(line: string): boolean {
  return (
    FENCE.test(line) ||
    HEADING.test(line) ||
    RULE.test(line) ||
    QUOTE.test(line) ||
    BULLET.test(line) ||
    ORDERED.test(line)
  );
}

function splitRow(line: string): string[] {
  let text = line.trim();
  if (text.startsWith("|")) text = text.slice(1);
  if (text.endsWith("|") && !text.endsWith("\\|")) text = text.slice(0, -1);
  const cells: string[] = [];
  let current = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === "\\" && text[i + 1] === "|") {
      current += "\\|";
      i++;
    } else if (ch === "|") {
      cells.push(current.trim());
      current = "";
    } else current += ch;
  }
  cells.push(current.trim());
  return cells;
}

/** Parses the lines of a list starting at `start`; returns the block and the index after it. */
function parseList(lines: string[], start: number): { block: Block; next: number } {
  const first = lines[start]!;
  const ordered = !BULLET.test(first);
  const items: Block[][] = [];
  let startNumber: number | undefined;
  let i = start;
  while (i < lines.length) {
    const line = lines[i]!;
    const bullet = ordered ? null : BULLET.exec(line);
    const number = ordered ? ORDERED.exec(line) : null;
    if (!bullet && !number) break;
    const width = bullet
      ? bullet[1]!.length + bullet[2]!.length + bullet[3]!.length
      : number![1]!.length + number![2]!.length + number![3]!.length + number![4]!.length;
    if (number && startNumber === undefined) startNumber = Number(number[2]);
    const body = [bullet ? bullet[4]! : number![5]!];
    i++;
    // Continuation: indented lines, and blank lines followed by indented ones; a lazy paragraph line too.
    while (i < lines.length) {
      const next = lines[i]!;
      if (blank(next)) {
        const after = lines.slice(i + 1).find((l) => !blank(l));
        if (after !== undefined && /^\s/.test(after) && after.length - after.trimStart().length >= Math.min(width, 2)) {
          body.push("");
          i++;
          continue;
        }
        break;
      }
      const indent = next.length - next.trimStart().length;
      if (indent >= Math.min(width, 2)) body.push(next.slice(Math.min(indent, width)));
      else if (!startsBlock(next) && !blank(body[body.length - 1]!)) body.push(next);
      else break;
      i++;
    }
    items.push(parseBlocks(body));
    // A blank line between items keeps the list going.
    if (i < lines.length && blank(lines[i]!)) {
      const after = lines.slice(i).findIndex((l) => !blank(l));
      const nextLine = after >= 0 ? lines[i + after]! : "";
      if (after >= 0 && (ordered ? ORDERED.test(nextLine) : BULLET.test(nextLine))) i += after;
    }
  }
  const block: Block =
    ordered && startNumber !== undefined && startNumber !== 1
      ? { type: "list", ordered, start: startNumber, items }
      : { type: "list", ordered, items };
  return { block, next: i };
}

/** Markdown text → blocks. */
export function parseBlocks(lines: string[]): Block[] {
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (blank(line)) {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[1]!;
      const body: string[] = [];
      i++;
      while (i < lines.length && !lines[i]!.trim().startsWith(marker)) body.push(lines[i++]!);
      i++; // the closing fence (or the end)
      blocks.push({ type: "code", text: body.join("\n"), language: fence[2] || null });
      continue;
    }
    const indented = INDENTED.exec(line);
    if (indented) {
      const body: string[] = [];
      while (i < lines.length && (INDENTED.test(lines[i]!) || blank(lines[i]!))) {
        body.push(INDENTED.exec(lines[i]!)?.[1] ?? "");
        i++;
      }
      while (body.length && blank(body[body.length - 1]!)) body.pop();
      blocks.push({ type: "code", text: body.join("\n"), language: null });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({
        type: "heading",
        level: heading[1]!.length as 1 | 2 | 3 | 4 | 5 | 6,
        children: parseInlines(heading[2] ?? ""),
      });
      i++;
      continue;
    }
    if (RULE.test(line)) {
      blocks.push({ type: "rule" });
      i++;
      continue;
    }
    if (QUOTE.test(line)) {
      const body: string[] = [];
      while (i < lines.length && !blank(lines[i]!)) {
        const quoted = QUOTE.exec(lines[i]!);
        body.push(quoted ? quoted[1]! : lines[i]!);
        i++;
      }
      blocks.push({ type: "quote", children: parseBlocks(body) });
      continue;
    }
    if (BULLET.test(line) || ORDERED.test(line)) {
      const { block, next } = parseList(lines, i);
      blocks.push(block);
      i = next;
      continue;
    }
    if (line.includes("|") && i + 1 < lines.length && TABLE_SEPARATOR.test(lines[i + 1]!)) {
      const rows: TableRow[] = [{ header: true, cells: splitRow(line).map(parseInlines) }];
      i += 2;
      while (i < lines.length && !blank(lines[i]!) && lines[i]!.includes("|")) {
        rows.push({ header: false, cells: splitRow(lines[i]!).map(parseInlines) });
        i++;
      }
      blocks.push({ type: "table", rows });
      continue;
    }
    const body: string[] = [line];
    i++;
    while (i < lines.length && !blank(lines[i]!) && !startsBlock(lines[i]!)) body.push(lines[i++]!);
    blocks.push({ type: "paragraph", children: parseInlines(body.join("\n")) });
  }
  return blocks;
}

type Marks = Omit<Extract<Inline, { type: "text" }>, "type" | "text">;

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">" };
const ESCAPABLE = /[\\`*_{}[\]()#+\-.!|~^>&<]/;

function safeHref(raw: string): string | null {
  const href = raw.trim().replace(/^<(.*)>$/, "$1");
  try {
    const url = new URL(href);
    return ["http:", "https:", "mailto:"].includes(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

/** The index of the `)` closing a link destination that starts at `from` (parentheses may nest). */
function closingParen(text: string, from: number): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const ch = text[i];
    if (ch === "\\") i++;
    else if (ch === "(") depth++;
    else if (ch === ")") {
      if (depth === 0) return i;
      depth--;
    } else if (ch === "\n") return -1;
  }
  return -1;
}

/** The index of the `]` closing a link label that starts at `from` (brackets may nest). */
function closingBracket(text: string, from: number): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const ch = text[i];
    if (ch === "\\") i++;
    else if (ch === "[") depth++;
    else if (ch === "]") {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

/** Where the emphasis opened by `marker` at `from` closes: not after whitespace, not escaped. */
function closingMarker(text: string, marker: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === "\\") {
      i++;
      continue;
    }
    if (text[i] === "`") {
      const run = /^`+/.exec(text.slice(i))![0];
      const end = text.indexOf(run, i + run.length);
      if (end > 0) i = end + run.length - 1;
      continue;
    }
    if (text.startsWith(marker, i) && i > from && !/\s/.test(text[i - 1]!)) {
      // `**` inside `*...*` is not its close.
      if (marker.length === 1 && text[i + 1] === marker) {
        const inner = closingMarker(text, marker + marker, i + 2);
        if (inner > 0) {
          i = inner + 1;
          continue;
        }
      }
      if (marker === "_" && /[\p{L}\p{N}]/u.test(text[i + 1] ?? "")) continue;
      return i;
    }
  }
  return -1;
}

function inlines(text: string, marks: Marks): Inline[] {
  return new InlineReader(text, marks).read();
}

/**
 * One run of inline markdown read into inlines, a character at a time: each construct's reader returns whether it
 * took the text at `i` (moving `i` to its last character); what none takes is plain text.
 */
class InlineReader {
  private readonly out: Inline[] = [];
  private buffer = "";
  private i = 0;
  constructor(
    private readonly text: string,
    private readonly marks: Marks,
  ) {}

  read(): Inline[] {
    const text = this.text;
    for (this.i = 0; this.i < text.length; this.i++) {
      const ch = text[this.i]!;
      const rest = text.slice(this.i);
      if (
        this.escape(ch) ||
        this.newline(ch) ||
        this.entity(rest) ||
        this.code(ch, rest) ||
        this.link(ch) ||
        this.superscript(ch, rest) ||
        this.emphasis(ch, rest)
      )
        continue;
      this.buffer += ch;
    }
    this.flush();
    return this.out;
  }

  private flush(): void {
    if (this.buffer) this.out.push({ type: "text", text: this.buffer, ...this.marks });
    this.buffer = "";
  }

  private escape(ch: string): boolean {
    if (ch !== "\\") return false;
    const next = this.text[this.i + 1];
    if (next === "\n") {
      this.flush();
      this.out.push({ type: "break" });
      this.i++;
      return true;
    }
    if (!ESCAPABLE.test(next ?? "")) return false;
    this.buffer += this.text[++this.i];
    return true;
  }

  private newline(ch: string): boolean {
    if (ch !== "\n") return false;
    // Two trailing spaces make a line break; a plain newline is a space.
    if (/ {2,}$/.test(this.buffer)) {
      this.buffer = this.buffer.replace(/ +$/, "");
      this.flush();
      this.out.push({ type: "break" });
    } else this.buffer = `${this.buffer.replace(/ +$/, "")} `;
    return true;
  }

  private entity(rest: string): boolean {
    const entity = /^&(amp|lt|gt);/.exec(rest);
    if (!entity) return false;
    this.buffer += ENTITIES[entity[0]];
    this.i += entity[0].length - 1;
    return true;
  }

  private code(ch: string, rest: string): boolean {
    if (ch !== "`") return false;
    const { text, i } = this;
    const run = /^`+/.exec(rest)![0];
    const end = text.indexOf(run, i + run.length);
    if (end > 0) {
      this.flush();
      let code = text.slice(i + run.length, end).replace(/\n/g, " ");
      if (code.startsWith(" ") && code.endsWith(" ") && code.trim()) code = code.slice(1, -1);
      this.out.push({ type: "text", text: code, ...this.marks, code: true });
      this.i = end + run.length - 1;
      return true;
    }
    this.buffer += run;
    this.i += run.length - 1;
    return true;
  }

  private link(ch: string): boolean {
    if (ch !== "[") return false;
    const { text, i } = this;
    const close = closingBracket(text, i + 1);
    if (close <= 0 || text[close + 1] !== "(") return false;
    const end = closingParen(text, close + 2);
    const href = end > 0 ? safeHref(text.slice(close + 2, end)) : null;
    if (!href) return false;
    this.flush();
    this.out.push({ type: "link", href, children: inlines(text.slice(i + 1, close), this.marks) });
    this.i = end;
    return true;
  }

  private superscript(ch: string, rest: string): boolean {
    const { text, i } = this;
    if (ch !== "^" || /\s/.test(text[i + 1] ?? " ")) return false;
    this.flush();
    if (text[i + 1] === "(") {
      const end = closingParen(text, i + 2);
      if (end > 0) {
        this.out.push(...inlines(text.slice(i + 2, end), { ...this.marks, sup: true }));
        this.i = end;
        return true;
      }
    }
    const word = /^\^(\S+)/.exec(rest)![1]!;
    this.out.push(...inlines(word, { ...this.marks, sup: true }));
    this.i += word.length;
    return true;
  }

  private emphasis(ch: string, rest: string): boolean {
    const { text, i } = this;
    const marker = rest.startsWith("~~")
      ? "~~"
      : rest.startsWith("**")
        ? "**"
        : rest.startsWith("__")
          ? "__"
          : ch === "*" || ch === "_"
            ? ch
            : null;
    if (!marker || /\s/.test(text[i + marker.length] ?? " ")) return false;
    const wordInside = marker.startsWith("_") && /[\p{L}\p{N}]/u.test(text[i - 1] ?? "");
    const end = wordInside ? -1 : closingMarker(text, marker, i + marker.length);
    if (end <= 0) return false;
    this.flush();
    const inner = text.slice(i + marker.length, end);
    const mark: Marks = marker === "~~" ? { strike: true } : marker.length === 2 ? { bold: true } : { italic: true };
    this.out.push(...inlines(inner, { ...this.marks, ...mark }));
    this.i = end + marker.length - 1;
    return true;
  }
}

export function parseInlines(text: string): Inline[] {
  return inlines(text.trim(), {});
}

/** Reddit markdown → the engine's blocks. */
export function fromRedditMarkdown(markdown: string): Block[] {
  return parseBlocks(markdown.replace(/\r\n?/g, "\n").split("\n"));
}
