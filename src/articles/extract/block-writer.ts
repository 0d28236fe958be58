// The walk that writes the block tree: each element of the chosen content becomes a heading, paragraph, list,
// quote, code block, table, image or rule, or is read through as a container; what the tree cannot express
// (scripts, embeds, controls) is skipped.

import type { ArticleImage, Block, Inline, TableRow } from "../types";
import { imageSource, isPermalink, safeUrl } from "./block-urls";
import { isDataTable } from "./content/data-tables";
import { collapseWhitespace, type ElementNode, findAll, isElement, type TreeNode, textContent } from "./html-tree";
import { hasVisibleText, MARK_OF, type Marks, normalizeInlines, pushText } from "./inline-text";
import { mathText } from "./math";

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

export class BlockWriter {
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
      case "h6":
        this.heading(node, Number(tag[1]) as 1 | 2 | 3 | 4 | 5 | 6);
        return;
      case "ul":
      case "ol":
        this.list(node);
        return;
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
      case "picture":
        if (this.figure(node)) return;
        break;
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

  private heading(node: ElementNode, level: 1 | 2 | 3 | 4 | 5 | 6): void {
    const children: Inline[] = [];
    for (const child of node.children) this.inlines(child, children, {}, null);
    const normalized = normalizeInlines(children);
    if (hasVisibleText(normalized)) this.emit({ type: "heading", level, children: normalized });
  }

  private list(node: ElementNode): void {
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
    const list: Block = { type: "list", ordered: node.tag === "ol", items };
    const start = Number(node.attrs.start);
    if (node.tag === "ol" && Number.isInteger(start) && start !== 1) list.start = start;
    this.emit(list);
  }

  /** A figure or picture read as image blocks with its caption; false when it holds no picture of its own. */
  private figure(node: ElementNode): boolean {
    const caption = findAll(node, "figcaption")[0];
    const captionText = caption ? collapseWhitespace(textContent(caption)) || null : null;
    // A logo inside the caption (a quote's source and their company's mark) is the caption's, not the figure's
    // picture: a figure with no picture of its own is read as blocks, its caption among them.
    const captionImgs = caption ? new Set(findAll(caption, "img")) : null;
    const imgs = captionImgs?.size ? findAll(node, "img").filter((i) => !captionImgs.has(i)) : findAll(node, "img");
    if (!imgs.length) return false;
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
    return true;
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
