// The review page's preview renders a draft as the forum does. The markdown comes from the draft renderer
// itself (src/articles/render/markdown.ts) for every construct it writes, and hand-written where a person
// editing a draft may write what the renderer does not (other table alignments, fences, spoilers). The
// expected structure is the forum's markdown (Reddit's snudown): test/fixtures/SOURCES.md names the lines of
// its parser and HTML renderer each case follows.
import { describe, expect, it } from "vitest";
import { renderBlocks } from "../../src/articles/render/markdown";
import type { Block, Inline } from "../../src/articles/types";
import { type DraftImage, renderMarkdown } from "../../src/console/markdown";

const render = async (md: string, images: DraftImage[] = []) =>
  (await Promise.all(renderMarkdown(md, images).map((node) => String(node)))).join("");
const text = (t: string, marks: Partial<Extract<Inline, { type: "text" }>> = {}): Inline => ({
  type: "text",
  text: t,
  ...marks,
});
const para = (...children: Inline[]): Block => ({ type: "paragraph", children });
const draft = (...blocks: Block[]) => renderBlocks(blocks);

describe("the preview reads drafts by the forum's markdown rules", () => {
  it("a draft's table (separator `|:--|`) is a table, its columns left-aligned", async () => {
    const md = draft({
      type: "table",
      rows: [
        { header: true, cells: [[text("Plan")], [text("Price")]] },
        { header: false, cells: [[text("Team", { bold: true })], [text("$10")]] },
      ],
    });
    expect(md).toContain("|:--|:--|");
    expect(await render(md)).toBe(
      '<table><thead><tr><th class="align-left">Plan</th><th class="align-left">Price</th></tr></thead>' +
        '<tbody><tr><td class="align-left"><strong>Team</strong></td><td class="align-left">$10</td></tr></tbody></table>',
    );
  });

  it("reads every alignment, a one-hyphen separator, short rows and no table without a separator", async () => {
    const html = await render(["| a | b | c | d |", "|--:|:-:|-|:|", "| 1 | 2 |", "x | y | z | w | extra"].join("\n"));
    expect(html).toContain(
      '<th class="align-right">a</th><th class="align-center">b</th><th>c</th><th class="align-left">d</th>',
    );
    expect(html).toContain(
      '<tr><td class="align-right">1</td><td class="align-center">2</td><td colspan="2"></td></tr>',
    );
    expect(html).toContain('<td class="align-left">w</td></tr>');
    expect(html).not.toContain("extra");
    // Too few separator cells, or a cell without a hyphen or colon: the lines are a paragraph.
    expect(await render("| a | b |\n|---|")).toBe("<p>| a | b |\n|---|</p>");
    expect(await render("| a | b |\n|---| x |")).toBe("<p>| a | b |\n|---| x |</p>");
  });

  it("nested lists: an item's own list is inside it, a loose item's text is paragraphs", async () => {
    const md = draft({
      type: "list",
      ordered: false,
      items: [
        [para(text("one"))],
        [
          para(text("two")),
          { type: "list", ordered: true, start: 3, items: [[para(text("inner"))], [para(text("next"))]] },
        ],
      ],
    });
    expect(md).toBe("- one\n- two\n\n  3. inner\n  4. next");
    expect(await render(md)).toBe(
      // The blank line inside the second item makes it (and any after it) loose; the first was read before.
      "<ul><li>one</li><li><p>two</p><ol><li>inner</li><li>next</li></ol></li></ul>",
    );
    // The forum takes up to four spaces off an item's lines, so a third level needs eight spaces to nest.
    expect(await render("- a\n  - b\n    - c\n- d")).toBe("<ul><li>a<ul><li>b</li><li>c</li></ul></li><li>d</li></ul>");
    expect(await render("- a\n    - b\n        - c")).toBe("<ul><li>a<ul><li>b<ul><li>c</li></ul></li></ul></li></ul>");
    // Lists do not interrupt a paragraph on the forum.
    expect(await render("text\n- not an item")).toBe("<p>text\n- not an item</p>");
  });

  it("code: indented blocks as the draft writes them, fences as a person may", async () => {
    const md = draft({ type: "code", text: "if (a < b) {\n\n  run();\n}", language: "js" });
    expect(await render(md)).toBe("<pre><code>if (a &lt; b) {\n\n  run();\n}</code></pre>");
    expect(await render("```js\nx = *y*\n```\nafter")).toBe("<pre><code>x = *y*</code></pre><p>after</p>");
    expect(await render("a `` code ` span `` b")).toBe("<p>a <code>code ` span</code> b</p>");
  });

  it("quotes hold blocks; a lazy line stays in the quote", async () => {
    const md = draft({ type: "quote", children: [para(text("first")), para(text("second"))] });
    expect(md).toBe("> first\n>\n> second");
    expect(await render(md)).toBe("<blockquote><p>first</p><p>second</p></blockquote>");
    expect(await render("> quoted\nlazy\n\nout")).toBe("<blockquote><p>quoted\nlazy</p></blockquote><p>out</p>");
  });

  it("images: the draft's link and caption show the post's image inline", async () => {
    const url = "https://blog.example/a (1).png";
    const md = draft({ type: "image", url, alt: "Chart", caption: "Sales by month" }, para(text("after")));
    expect(md).toContain("[Chart](https://blog.example/a%20%281%29.png)  \n*Sales by month*");
    expect(await render(md, [{ url, alt: "Chart", caption: "Sales by month" }])).toBe(
      '<figure><img src="https://blog.example/a%20(1).png" alt="Chart" loading="lazy"/><figcaption>Sales by month</figcaption></figure><p>after</p>',
    );
  });

  it("links, escapes, entities, emphasis and line breaks as the draft writes them", async () => {
    const md = draft(
      para(
        { type: "link", href: "https://example.com/a_(b)", children: [text("the *docs*")] },
        text(" cost 5 * 3 = 15 & <more> "),
        text("bold", { bold: true }),
        { type: "break" },
        text("gone", { strike: true }),
        text(" snake_case_name"),
      ),
    );
    expect(await render(md)).toBe(
      '<p><a href="https://example.com/a_%28b%29" rel="nofollow noopener noreferrer">the *docs*</a> cost 5 * 3 = 15 &amp; &lt;more&gt; <strong>bold</strong><br/><del>gone</del> snake_case_name</p>',
    );
    expect(await render("see https://example.com/x. and [bad](javascript:alert(1))")).toBe(
      '<p>see <a href="https://example.com/x" rel="nofollow noopener noreferrer">https://example.com/x</a>. and <span>bad</span></p>',
    );
    expect(await render("***both*** _intra_word_ ~single~")).toBe(
      "<p><strong><em>both</em></strong> <em>intra_word</em> ~single~</p>",
    );
  });

  it("superscript: the draft's ^(...) and a person's ^word", async () => {
    const md = draft(para(text("E = mc"), text("2 (approx)", { sup: true })));
    expect(md).toBe("E = mc^(2 (approx\\))");
    // The forum ends ^( ) at the first `)` or after a backslash: the draft's escaped parenthesis ends it early.
    expect(await render(md)).toBe("<p>E = mc<sup>2 (approx\\</sup>)</p>");
    expect(await render("x^2 and ^(two words) and ^()")).toBe("<p>x<sup>2</sup> and <sup>two words</sup> and </p>");
  });

  it("spoilers: inline >!hidden!< and a block of >! lines", async () => {
    expect(await render("This is an >!inline spoiler!< sentence.")).toBe(
      '<p>This is an <span class="md-spoiler-text">inline spoiler</span> sentence.</p>',
    );
    expect(await render(">! spoily mcspoilerface\n>! more\n\nafter")).toBe(
      '<blockquote class="md-spoiler-text"><p>spoily mcspoilerface\nmore</p></blockquote><p>after</p>',
    );
    expect(await render(">! not >!with!< inline")).toBe(
      '<p>&gt;! not <span class="md-spoiler-text">with</span> inline</p>',
    );
  });

  it("headings and rules, ATX and underlined", async () => {
    const md = draft({ type: "heading", level: 2, children: [text("C# tips")] }, { type: "rule" }, para(text("x")));
    expect(await render(md)).toBe("<h2>C# tips</h2><hr/><p>x</p>");
    expect(await render("## Tips ##")).toBe("<h2>Tips</h2>");
    expect(await render("Title\n===\ntext\nSub\n---")).toBe("<h1>Title</h1><p>text</p><h2>Sub</h2>");
  });
});
