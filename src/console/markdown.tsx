// Renders a draft's Reddit markdown the way the forum shows it, as JSX elements built from an allowlist:
// text is always escaped by JSX, only the elements below are ever produced, links keep only http(s) targets,
// and images come only from the post's own image list. Nothing of the source reaches the page as raw HTML,
// so there is nothing left to sanitize afterwards. The block rules are the forum's (Reddit's snudown, tried
// in its order: heading, blank, rule, fenced code, table, quote, spoiler, indented code, lists, paragraph);
// test/fixtures/SOURCES.md names the source lines each follows.
import type { Child } from "hono/jsx";
import { renderInline, safeHref } from "./markdown-inline";
import { table } from "./markdown-table";

export { renderInline } from "./markdown-inline";

export interface DraftImage {
  url: string;
  alt: string;
  caption: string | null;
}

type Block = { node: Child; next: number } | null;
type BlockRule = (lines: string[], i: number, images: DraftImage[]) => Block;

const blank = (line: string | undefined) => line === undefined || line.trim() === "";
const HEADINGS = ["h1", "h2", "h3", "h4", "h5", "h6"] as const;
const RULE = /^ {0,3}([-*_])( *\1){2,} *$/;
const FENCE = /^ {0,3}(`{3,}|~{3,}) *\{?[^\s`}]*\}? *$/;
const BARE_FENCE = /^ {0,3}(`{3,}|~{3,}) *$/;
const QUOTE = /^ {0,3}>(?!!) ?/;
const SPOILER = /^ {0,3}>! ?/;
/** `>!` starts a block spoiler unless the line closes an inline one (`>!text!<`). */
const SPOILER_LINE = /^ {0,3}>!(?![^<]*!<)/;
const CODE = /^ {4}/;
const BULLET = /^( {0,3})[-*+] /;
const NUMBERED = /^( {0,3})\d+\. /;

function Heading({ level, text }: { level: number; text: string }) {
  const Tag = HEADINGS[Math.min(level, 6) - 1]!;
  return <Tag>{renderInline(text)}</Tag>;
}

const heading: BlockRule = (lines, i) => {
  const m = /^(#{1,6}) *(.*?)[ #]*$/.exec(lines[i]!);
  return m ? { node: <Heading level={m[1]!.length} text={m[2]!} />, next: i + 1 } : null;
};

const rule: BlockRule = (lines, i) => (RULE.test(lines[i]!) ? { node: <hr />, next: i + 1 } : null);

/** A fenced block closes at the next fence without a language (either character), else at the end. */
const fenced: BlockRule = (lines, i) => {
  if (!FENCE.test(lines[i]!)) return null;
  const found = lines.findIndex((line, n) => n > i && BARE_FENCE.test(line));
  const end = found < 0 ? lines.length : found;
  return { node: <CodeBlock text={lines.slice(i + 1, end).join("\n")} />, next: end + 1 };
};

const CodeBlock = ({ text }: { text: string }) => (
  <pre>
    <code>{text}</code>
  </pre>
);

const tableRule: BlockRule = (lines, i) => table(lines, i);

/**
 * A quote (or a block spoiler): its prefixed lines, the unprefixed lines that follow them (lazily), and blank
 * lines while the next line is prefixed again; the inside is read as blocks.
 */
function quoted(prefix: RegExp, spoiler: boolean): BlockRule {
  return (lines, i, images) => {
    if (!prefix.test(lines[i]!)) return null;
    const strip = spoiler ? SPOILER : QUOTE;
    const inner: string[] = [];
    let n = i;
    for (; n < lines.length; n++) {
      const line = lines[n]!;
      if (blank(line) && !prefix.test(lines[n + 1] ?? "")) break;
      inner.push(line.replace(strip, ""));
    }
    const children = renderBlocks(inner, images);
    const node = spoiler ? (
      <blockquote class="md-spoiler-text">{children}</blockquote>
    ) : (
      <blockquote>{children}</blockquote>
    );
    return { node, next: n };
  };
}

/** Indented code: lines of four spaces, and blank lines between them. */
const indentedCode: BlockRule = (lines, i) => {
  if (!CODE.test(lines[i]!)) return null;
  let end = i;
  while (end < lines.length && (CODE.test(lines[end]!) || blank(lines[end]))) end++;
  while (blank(lines[end - 1])) end--;
  const text = lines
    .slice(i, end)
    .map((line) => line.replace(CODE, ""))
    .join("\n");
  return { node: <CodeBlock text={text} />, next: end };
};

/**
 * A list (snudown's parse_listitem): an item goes on over indented lines, and over unindented ones until a
 * blank line; an item marker at the first item's indentation starts the next item, at another indentation a
 * list inside the item. A blank line inside an item makes its text paragraphs. An ordered list counts from 1.
 */
function list(marker: RegExp, ordered: boolean): BlockRule {
  return (lines, i, images) => {
    const first = marker.exec(lines[i]!);
    if (!first || RULE.test(lines[i]!)) return null;
    const indent = first[1]!.length;
    const items: { lines: string[]; loose: boolean }[] = [];
    let n = i;
    let loose = false;
    while (n < lines.length) {
      const item = listItem(lines, n, indent, marker);
      if (!item) break;
      // Once an item is loose, the ones after it are too (the forum keeps the flag for the whole list).
      loose ||= item.loose;
      items.push({ ...item, loose });
      n = item.next;
    }
    const children = items.map((item) => <li>{itemContent(item.lines, item.loose, images)}</li>);
    return { node: ordered ? <ol>{children}</ol> : <ul>{children}</ul>, next: n };
  };
}

function listItem(lines: string[], start: number, indent: number, marker: RegExp) {
  const head = marker.exec(lines[start]!);
  if (!head || head[1]!.length !== indent) return null;
  const body = [lines[start]!.slice(head[0].length)];
  let n = start + 1;
  let gap = false;
  let loose = false;
  for (; n < lines.length; n++) {
    const line = lines[n]!;
    if (blank(line)) {
      gap = true;
      continue;
    }
    const pre = /^ {0,4}/.exec(line)![0].length;
    const rest = line.slice(pre);
    const isItem = (BULLET.test(rest) && !RULE.test(rest)) || NUMBERED.test(rest);
    if (isItem && pre === indent) {
      loose ||= gap;
      break;
    }
    if (gap && pre === 0 && !isItem) break;
    if (gap) {
      body.push("");
      loose = true;
    }
    gap = false;
    body.push(rest);
  }
  return { lines: body, loose, next: n };
}

/** An item's text is inline unless the item is loose; a list inside it is a block either way. */
function itemContent(body: string[], loose: boolean, images: DraftImage[]): Child[] {
  if (loose) return renderBlocks(body, images);
  const sub = body.findIndex((line, n) => n > 0 && (BULLET.test(line) || NUMBERED.test(line)));
  const text = sub < 0 ? body : body.slice(0, sub);
  const inline = renderInline(text.join("\n"));
  return sub < 0 ? inline : [...inline, ...renderBlocks(body.slice(sub), images)];
}

const decoded = (url: string) => {
  try {
    return decodeURIComponent(url);
  } catch {
    return url;
  }
};

/** A paragraph that is only a link to one of the post's images is that image, shown inline. */
function imageOf(paragraph: string, images: DraftImage[]): DraftImage | undefined {
  const link = /^\[(?:\\.|[^\]\\])*\]\(([^()\s]+)\)$/.exec(paragraph.trim());
  if (!link) return undefined;
  const target = link[1]!;
  return images.find(
    (image) => image.url === target || encodeURI(image.url) === target || decoded(target) === image.url,
  );
}

const ends = (line: string | undefined) =>
  blank(line) || QUOTE.test(line!) || line!.startsWith("#") || RULE.test(line!);

/** A paragraph up to a blank line, a quote, a heading or a rule; a `===` or `---` line under it makes it a heading. */
const paragraph: BlockRule = (lines, i, images) => {
  let n = i + 1;
  while (n < lines.length && !ends(lines[n]) && !/^(=+|-+) *$/.test(lines[n]!)) n++;
  const setext = /^(=+|-+) *$/.exec(lines[n] ?? "");
  if (setext && n > i) {
    const before = n - 1 > i ? [<p>{renderInline(lines.slice(i, n - 1).join("\n"))}</p>] : [];
    const level = setext[1]!.startsWith("=") ? 1 : 2;
    const node = (
      <>
        {before}
        <Heading level={level} text={lines[n - 1]!} />
      </>
    );
    return { node, next: n + 1 };
  }
  // The forum's markdown cannot embed an image, so a draft links it (with its caption on the next line);
  // the forum's rich-text post shows it inline, and so does the preview.
  const image = imageOf(lines[i]!.replace(/ {2,}$/, ""), images);
  const src = image ? safeHref(image.url) : undefined;
  if (image && src) {
    const node = (
      <figure>
        <img src={src} alt={image.alt} loading="lazy" />
        {image.caption ? <figcaption>{image.caption}</figcaption> : null}
      </figure>
    );
    return { node, next: n };
  }
  return { node: <p>{renderInline(lines.slice(i, n).join("\n"))}</p>, next: n };
};

const BLOCKS: BlockRule[] = [
  heading,
  rule,
  fenced,
  tableRule,
  quoted(QUOTE, false),
  quoted(SPOILER_LINE, true),
  indentedCode,
  list(BULLET, false),
  list(NUMBERED, true),
  paragraph,
];

function renderBlocks(lines: string[], images: DraftImage[]): Child[] {
  const out: Child[] = [];
  for (let i = 0; i < lines.length; ) {
    if (blank(lines[i])) {
      i++;
      continue;
    }
    const block = BLOCKS.reduce<Block>((found, parse) => found ?? parse(lines, i, images), null);
    out.push(block!.node);
    i = block!.next;
  }
  return out;
}

function expandTabs(line: string): string {
  let out = "";
  for (const ch of line) out += ch === "\t" ? " ".repeat(4 - (out.length % 4)) : ch;
  return out;
}

/** Block structure of the draft, then its inline text; tabs count as the forum counts them (to 4 columns). */
export function renderMarkdown(markdown: string, images: DraftImage[] = []): Child[] {
  const lines = markdown.replace(/\r\n?/g, "\n").split("\n").map(expandTabs);
  return renderBlocks(lines, images);
}
