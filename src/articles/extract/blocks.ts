// The chosen content subtree becomes a block tree: headings, paragraphs, lists, quotes, code, tables,
// images and links, with absolute URLs. Only what the block tree can express survives, so markup that is
// unsafe to republish (scripts, styles, iframes, event handlers, `javascript:` links) cannot come through.
import type { ArticleImage, Block, Inline, TableRow } from "../types";
import { isDataTable } from "./content/data-tables";
import {
  collapseWhitespace,
  type ElementNode,
  findAll,
  isElement,
  SPACE_TO_COLLAPSE,
  type TreeNode,
  textContent,
} from "./html-tree";
import { mathText } from "./math";

interface Marks {
  bold?: boolean;
  italic?: boolean;
  code?: boolean;
  strike?: boolean;
  sup?: boolean;
}

const MARK_OF: Record<string, keyof Marks> = {
  strong: "bold",
  b: "bold",
  em: "italic",
  i: "italic",
  cite: "italic",
  dfn: "italic",
  code: "code",
  kbd: "code",
  samp: "code",
  tt: "code",
  var: "code",
  s: "strike",
  strike: "strike",
  del: "strike",
  sup: "sup",
};

const SKIP = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "iframe",
  "object",
  "embed",
  "svg",
  "canvas",
  "button",
  "input",
  "select",
  "textarea",
  "head",
  "title",
  "meta",
  "link",
  "audio",
  "video",
  "source",
  "track",
  "map",
]);
const BLOCK_CONTAINERS = new Set([
  "div",
  "section",
  "article",
  "main",
  "header",
  "footer",
  "aside",
  "nav",
  "center",
  "details",
  "summary",
  "fieldset",
  "address",
  "hgroup",
  "dl",
  "dd",
  "dt",
  "body",
  "#document",
  "html",
  "legend",
  "dialog",
  "menu",
  "form",
]);

/** Resolves `href` against the page; only http(s) and mailto survive (no `javascript:` links: docs/extraction.md). */

/** The text with whitespace and C0 control characters removed, as browsers ignore them in a URL's scheme. */
function stripControlAndSpace(text: string): string {
  // Every UTF-16 unit up to U+0020 (a string with none, nearly every address, is returned without a copy).
  return text.replace(/[^\u0021-\uffff]+/g, "");
}

export function safeUrl(href: string | undefined, base: string, allowMailto = true): string | null {
  if (!href) return null;
  const trimmed = href.trim();
  if (!trimmed || /^(javascript|vbscript|data|file|blob):/i.test(stripControlAndSpace(trimmed))) return null;
  try {
    const url = new URL(trimmed, base);
    if (url.protocol === "http:" || url.protocol === "https:") return url.href;
    if (allowMailto && url.protocol === "mailto:") return url.href;
  } catch {
    // not a URL
  }
  return null;
}

function bestFromSrcset(srcset: string): string | null {
  let best: string | null = null;
  let bestSize = -1;
  for (const candidate of srcset.split(/,\s+(?=\S)/)) {
    const [url, descriptor = "1x"] = candidate.trim().split(/\s+/);
    if (!url) continue;
    const size = parseFloat(descriptor) * (descriptor.endsWith("x") ? 1000 : 1);
    if (size > bestSize) {
      bestSize = size;
      best = url;
    }
  }
  return best;
}

/** The real source of an image, lazy-loading attributes included; placeholders and pixels are ignored. */
export function imageSource(img: ElementNode, base: string): string | null {
  const attrs = img.attrs;
  if (attrs.width === "1" && attrs.height === "1") return null;
  const candidates = [
    attrs["data-src"],
    attrs["data-lazy-src"],
    attrs["data-original"],
    attrs["data-url"],
    attrs["data-hi-res-src"],
    attrs["data-srcset"] ? (bestFromSrcset(attrs["data-srcset"]) ?? undefined) : undefined,
    attrs.srcset ? (bestFromSrcset(attrs.srcset) ?? undefined) : undefined,
    attrs.src,
  ];
  for (const candidate of candidates) {
    if (!candidate || /^data:/i.test(candidate.trim())) continue;
    const url = safeUrl(candidate, base, false);
    if (url) return url;
  }
  // A <picture> keeps its best candidates in <source> siblings.
  const picture = img.parent?.tag === "picture" ? img.parent : null;
  if (picture) {
    for (const source of picture.children) {
      if (isElement(source) && source.tag === "source" && source.attrs.srcset) {
        const url = safeUrl(bestFromSrcset(source.attrs.srcset) ?? undefined, base, false);
        if (url) return url;
      }
    }
  }
  return null;
}

const PERMALINK_CLASS =
  /(^|\s)(headerlink|header-anchor|heading-anchor|anchor-?link|anchorjs-link|hash-link|permalink)(\s|$)/i;

function isPermalink(a: ElementNode): boolean {
  if (PERMALINK_CLASS.test(a.attrs.class ?? "")) return true;
  return /^\s*[¶#§🔗⚓]\s*$/u.test(textContent(a)) && (a.attrs.href ?? "").includes("#");
}

function languageOf(el: ElementNode): string | null {
  for (const node of [el, ...findAll(el, "code")]) {
    const match =
      `${node.attrs.class ?? ""} ${node.attrs["data-lang"] ? `language-${node.attrs["data-lang"]}` : ""}`.match(
        /(?:^|\s)(?:language|lang|highlight-source|brush:?)-?([A-Za-z0-9_+#.-]+)/,
      );
    if (match?.[1]) return match[1].toLowerCase();
  }
  return null;
}

function sameMarks(a: Inline, b: Marks): boolean {
  return (
    a.type === "text" &&
    !!a.bold === !!b.bold &&
    !!a.italic === !!b.italic &&
    !!a.code === !!b.code &&
    !!a.strike === !!b.strike &&
    !!a.sup === !!b.sup
  );
}

function pushText(out: Inline[], text: string, marks: Marks): void {
  if (!text) return;
  const last = out[out.length - 1];
  if (last && last.type === "text" && sameMarks(last, marks)) {
    last.text += text;
    return;
  }
  const node: Inline = { type: "text", text };
  if (marks.bold) node.bold = true;
  if (marks.italic) node.italic = true;
  if (marks.code) node.code = true;
  if (marks.strike) node.strike = true;
  if (marks.sup) node.sup = true;
  out.push(node);
}

/**
 * A run of whitespace becomes one space, except a run of no-break spaces (with no tab, line break or plain
 * space among them), which the author put there on purpose. Text without a no-break space (nearly all of
 * it) takes the plain replacement, several times faster than calling a function for every run.
 */
function collapseInlineSpace(text: string): string {
  if (!text.includes("\u00a0")) return text.replace(SPACE_TO_COLLAPSE, " ");
  return text.replace(/[\s\u00a0]+/g, (m) => (m.includes("\u00a0") && !/[\t\n\r ]/.test(m) ? m : " "));
}

/** Where the whitespace collapse of a run of inlines stands (normalizeInlines). */
interface RunState {
  lastSpace: boolean;
  afterBreak: boolean;
}

// A function of its own, not a closure made on every call: the Worker's bundle names every function it
// creates (wrangler keeps names), which cost more than the walk itself on pages of many short paragraphs.
function collapseRun(list: Inline[], state: RunState): Inline[] {
  const out: Inline[] = [];
  for (const node of list) {
    if (node.type === "break") {
      if (state.afterBreak) continue;
      // Whitespace before a break is meaningless.
      const prev = out[out.length - 1];
      if (prev?.type === "text" && prev.text.endsWith(" ")) prev.text = prev.text.replace(/ +$/, "");
      out.push(node);
      state.lastSpace = true;
      state.afterBreak = true;
    } else if (node.type === "text") {
      let text = collapseInlineSpace(node.text);
      if (state.lastSpace && text.charCodeAt(0) === 32) text = text.replace(/^ +/, "");
      if (!text) continue;
      state.lastSpace = text.endsWith(" ");
      state.afterBreak = false;
      // The run's own nodes are changed in place, not copied: every caller drops the run it passes.
      node.text = text;
      out.push(node);
    } else {
      const children = collapseRun(node.children, state);
      if (children.length) {
        node.children = children;
        out.push(node);
      }
    }
  }
  return out;
}

/** Collapses runs of whitespace across inline boundaries and trims the ends of the run. */
function normalizeInlines(inlines: Inline[]): Inline[] {
  // Breaks at the start of the run, or right after another break, only add empty lines.
  const result = collapseRun(inlines, { lastSpace: true, afterBreak: true });
  // Trim the end.
  for (let i = result.length - 1; i >= 0; i--) {
    const node = result[i]!;
    if (node.type === "break") {
      result.pop();
      continue;
    }
    if (node.type === "text") {
      node.text = node.text.replace(/\s+$/, "");
      if (!node.text) {
        result.pop();
        continue;
      }
    } else if (node.type === "link") {
      const last = node.children[node.children.length - 1];
      if (last?.type === "text") last.text = last.text.replace(/\s+$/, "");
    }
    break;
  }
  return result;
}

/**
 * Whether `inlineText(inlines).trim()` would be non-empty, without joining the text: the first text of a
 * paragraph usually answers it.
 */
function hasVisibleText(inlines: Inline[]): boolean {
  for (const inline of inlines) {
    if (inline.type === "text" ? inline.text.trim() !== "" : inline.type === "link" && hasVisibleText(inline.children))
      return true;
  }
  return false;
}

export function inlineText(inlines: Inline[]): string {
  return inlines.map((i) => (i.type === "text" ? i.text : i.type === "break" ? "\n" : inlineText(i.children))).join("");
}

class BlockWriter {
  readonly blocks: Block[] = [];
  private readonly pending: Inline[] = [];
  constructor(
    private readonly base: string,
    private readonly images: ArticleImage[],
  ) {}

  flush(): void {
    if (!this.pending.length) return;
    // splice, not reassign: callers hold `this.pending` and compare against it.
    const children = normalizeInlines(this.pending.splice(0));
    if (children.length && hasVisibleText(children)) this.blocks.push({ type: "paragraph", children });
  }

  private emit(block: Block): void {
    this.flush();
    this.blocks.push(block);
  }

  private child(): BlockWriter {
    return new BlockWriter(this.base, this.images);
  }

  private addImage(img: ElementNode, caption: string | null, href: string | null): void {
    const url = imageSource(img, this.base);
    if (!url) {
      // The image cannot be shown, but its caption is article text.
      if (caption) this.emit({ type: "paragraph", children: [{ type: "text", text: caption }] });
      return;
    }
    const alt = collapseWhitespace(img.attrs.alt ?? img.attrs.title ?? "");
    if (!this.images.some((i) => i.url === url)) this.images.push({ url, alt, caption });
    this.emit({ type: "image", url, alt, caption, href });
  }

  /** Inline content of `node` into `out`; images met on the way are emitted as blocks. */
  inlines(node: TreeNode, out: Inline[], marks: Marks, href: string | null): void {
    if (typeof node === "string") {
      pushText(out, node, marks);
      return;
    }
    const tag = node.tag;
    if (SKIP.has(tag)) return;
    const mark = MARK_OF[tag];
    if (mark) marks = { ...marks, [mark]: true };
    switch (tag) {
      case "br":
        out.push({ type: "break" });
        return;
      case "math": {
        // A displayed equation is a paragraph of its own; an inline one stays in its sentence.
        const display = node.attrs.display === "block" && out === this.pending;
        if (display) this.flush();
        mathText(node)
          .split("\n")
          .forEach((line, i) => {
            if (i) out.push({ type: "break" });
            pushText(out, line, marks);
          });
        if (display) this.flush();
        return;
      }
      case "img":
        // An image inside a link or a table cell cannot be a block of its own there; it is left out.
        if (out === this.pending) this.addImage(node, null, href);
        return;
      case "a": {
        // Heading permalinks ("¶", "#", "🔗") are page furniture, not text.
        if (isPermalink(node)) return;
        const url = safeUrl(node.attrs.href, this.base);
        if (!url || href) break;
        const children: Inline[] = [];
        for (const child of node.children) {
          // Images directly inside a link become image blocks that keep the link.
          if (out === this.pending && isElement(child) && (child.tag === "img" || child.tag === "picture")) {
            if (children.length) this.pending.push({ type: "link", href: url, children: children.splice(0) });
            const img = child.tag === "img" ? child : findAll(child, "img")[0];
            if (img) this.addImage(img, null, url);
            continue;
          }
          this.inlines(child, children, marks, url);
        }
        if (children.length) out.push({ type: "link", href: url, children });
        return;
      }
    }
    if (!PHRASE_CONTAINER.has(tag) && tag !== "a" && tag !== "span" && out === this.pending) {
      // A block element met inside inline context (bad markup): treat it as a block.
      this.block(node);
      return;
    }
    for (const child of node.children) this.inlines(child, out, marks, href);
  }

  block(node: TreeNode): void {
    if (typeof node === "string") {
      this.inlines(node, this.pending, {}, null);
      return;
    }
    const tag = node.tag;
    if (SKIP.has(tag)) return;
    switch (tag) {
      case "p": {
        this.flush();
        for (const child of node.children) this.inlines(child, this.pending, {}, null);
        this.flush();
        return;
      }
      case "h1":
      case "h2":
      case "h3":
      case "h4":
      case "h5":
      case "h6": {
        const children: Inline[] = [];
        for (const child of node.children) this.inlines(child, children, {}, null);
        const normalized = normalizeInlines(children);
        if (hasVisibleText(normalized))
          this.emit({ type: "heading", level: Number(tag[1]) as 1 | 2 | 3 | 4 | 5 | 6, children: normalized });
        return;
      }
      case "ul":
      case "ol": {
        // A list without items only indents what it holds (old markup): a quote, as it reads.
        if (!node.children.some((c) => isElement(c) && c.tag === "li")) {
          this.quote(node);
          return;
        }
        const items: Block[][] = [];
        for (const child of node.children) {
          if (typeof child === "string") {
            if (child.trim())
              items.push([{ type: "paragraph", children: [{ type: "text", text: collapseWhitespace(child) }] }]);
            continue;
          }
          const writer = this.child();
          if (child.tag === "li") for (const c of child.children) writer.block(c);
          else writer.block(child);
          writer.flush();
          if (writer.blocks.length) items.push(writer.blocks);
        }
        if (!items.length) return;
        const list: Block = { type: "list", ordered: tag === "ol", items };
        const start = Number(node.attrs.start);
        if (tag === "ol" && Number.isInteger(start) && start !== 1) list.start = start;
        this.emit(list);
        return;
      }
      case "blockquote":
        this.quote(node);
        return;
      case "pre": {
        const text = preformattedText(node).replace(/^\n/, "").replace(/\s+$/, "");
        if (text.trim()) this.emit({ type: "code", text, language: languageOf(node) });
        return;
      }
      case "table":
        this.table(node);
        return;
      case "figure":
      case "picture": {
        const caption = findAll(node, "figcaption")[0];
        const captionText = caption ? collapseWhitespace(textContent(caption)) || null : null;
        // A logo inside the caption (a quote's source and their company's mark) is the caption's, not the figure's
        // picture: a figure with no picture of its own is read as blocks, its caption among them.
        const captionImgs = caption ? new Set(findAll(caption, "img")) : null;
        const imgs = captionImgs?.size ? findAll(node, "img").filter((i) => !captionImgs.has(i)) : findAll(node, "img");
        if (!imgs.length) break;
        this.flush();
        const link = findAll(node, "a").find((a) => findAll(a, "img").length);
        const href = link ? safeUrl(link.attrs.href, this.base) : null;
        const last = imgs[imgs.length - 1];
        const captionHolders = new Set<ElementNode>();
        for (let up = caption?.parent; up && up !== node; up = up.parent) captionHolders.add(up);
        // The figure's content in document order; the caption goes with its (last) image.
        const visit = (child: TreeNode): void => {
          if (typeof child === "string") {
            this.inlines(child, this.pending, {}, null);
            return;
          }
          if (child.tag === "figcaption") return;
          if (child.tag === "img") {
            this.addImage(child, child === last ? captionText : null, href);
            return;
          }
          // Wrappers of the image or of the caption are opened, so the caption is not read twice.
          if (findAll(child, "img").length || (caption && captionHolders.has(child))) {
            for (const c of child.children) visit(c);
            return;
          }
          this.block(child);
        };
        for (const child of node.children) visit(child);
        this.flush();
        return;
      }
      case "figcaption":
        break;
      case "hr":
        this.emit({ type: "rule" });
        return;
      case "img":
        this.addImage(node, null, null);
        return;
      case "li": {
        // A stray list item outside a list.
        this.emit({ type: "list", ordered: false, items: [this.childBlocks(node)] });
        return;
      }
    }
    if (BLOCK_CONTAINERS.has(tag) || !PHRASE_CONTAINER.has(tag)) {
      if (tag === "dt") this.flush();
      for (const child of node.children) this.block(child);
      if (BLOCK_CONTAINERS.has(tag)) this.flush();
      return;
    }
    this.inlines(node, this.pending, {}, null);
  }

  private quote(node: ElementNode): void {
    const children = this.childBlocks(node);
    if (children.length) this.emit({ type: "quote", children });
  }

  private childBlocks(node: ElementNode): Block[] {
    const writer = this.child();
    for (const c of node.children) writer.block(c);
    writer.flush();
    return writer.blocks;
  }

  private table(table: ElementNode): void {
    const rows: TableRow[] = [];
    for (const tr of findAll(table, "tr")) {
      // Rows of nested tables belong to the inner table.
      let owner = tr.parent;
      while (owner && owner.tag !== "table") owner = owner.parent;
      if (owner !== table) continue;
      const cells: Inline[][] = [];
      let header = true;
      for (const cell of tr.children) {
        if (!isElement(cell) || (cell.tag !== "td" && cell.tag !== "th")) continue;
        if (cell.tag === "td") header = false;
        const inlines: Inline[] = [];
        for (const child of cell.children) this.cellInlines(child, inlines);
        cells.push(normalizeInlines(inlines));
      }
      if (cells.length) rows.push({ header, cells });
    }
    // The caption is article text ("Table 6-1. Example symptoms and causes"): a paragraph before the table.
    const caption = table.children.find((c): c is ElementNode => isElement(c) && c.tag === "caption");
    if (caption) this.block({ ...caption, tag: "p" });
    if (!rows.length) return;
    // A layout table (one column, or not a data table) is read as the blocks it holds.
    const columns = Math.max(...rows.map((r) => r.cells.length));
    if (
      !isDataTable(table) &&
      (columns <= 1 || findAll(table, new Set(["p", "div", "ul", "ol", "img", "h2", "h3", "table"])).length > 0)
    ) {
      for (const cell of findAll(table, new Set(["td", "th"]))) {
        let owner = cell.parent;
        while (owner && owner.tag !== "table") owner = owner.parent;
        if (owner !== table) continue;
        for (const child of cell.children) this.block(child);
        this.flush();
      }
      return;
    }
    this.emit({ type: "table", rows });
  }

  private cellInlines(node: TreeNode, out: Inline[]): void {
    if (isElement(node) && (BLOCK_CONTAINERS.has(node.tag) || node.tag === "p" || node.tag === "li")) {
      if (out.length) out.push({ type: "text", text: " " });
      for (const child of node.children) this.cellInlines(child, out);
      return;
    }
    this.inlines(node, out, {}, null);
  }
}

/** The text of a `<pre>` as displayed: `<br>` (which some highlighters emit for line ends) is a newline. */
function preformattedText(node: TreeNode): string {
  if (typeof node === "string") return node;
  if (node.tag === "br") return "\n";
  if (!findAll(node, "br").length) return textContent(node);
  return node.children.map(preformattedText).join("");
}

const PHRASE_CONTAINER = new Set([
  "span",
  "a",
  "strong",
  "b",
  "em",
  "i",
  "u",
  "code",
  "kbd",
  "samp",
  "tt",
  "var",
  "s",
  "strike",
  "del",
  "ins",
  "sup",
  "sub",
  "small",
  "big",
  "font",
  "mark",
  "abbr",
  "acronym",
  "cite",
  "dfn",
  "q",
  "time",
  "label",
  "bdi",
  "bdo",
  "data",
  "ruby",
  "rt",
  "rp",
  "wbr",
  "nobr",
  "blink",
  "marquee",
  "center",
  "output",
  "meter",
  "progress",
  "math",
]);

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
