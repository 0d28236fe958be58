import { describe, expect, it } from "vitest";
import {
  type Article,
  type Block,
  extractArticle,
  fitBody,
  imagesKept,
  toRedditMarkdown,
  toRedditRichText,
} from "../../src/articles";
import golden from "../fixtures/extraction/third-post.richtext.json";
import thirdPost from "../fixtures/sites/blog/posts/2026/03/third-post.html?raw";

const URL_ = "https://blog.example/blog/posts/2026/03/third-post.html";
const DIAGRAM = "https://blog.example/blog/images/diagram.png";

function article(blocks: Block[], title = "A title"): Article {
  return {
    url: URL_,
    canonicalUrl: URL_,
    title,
    byline: null,
    publishedAt: null,
    leadImage: null,
    blocks,
    images: [],
    text: "",
    warnings: [],
  };
}
const paragraph = (text: string): Block => ({ type: "paragraph", children: [{ type: "text", text }] });

describe("rich text (RTJSON)", () => {
  it("matches the golden document, images as media nodes with the caller's asset ids", async () => {
    const extracted = await extractArticle(thirdPost, URL_);
    const { title, document, truncated } = toRedditRichText(extracted, { [DIAGRAM]: "ut7x2kq9" });
    expect(title).toBe("The third post");
    expect(truncated).toBe(false);
    expect(document).toEqual(golden);
  });

  it("an image without an asset id stays reachable as a link; a GIF becomes a gif node", () => {
    const { document } = toRedditRichText(
      article([
        { type: "image", url: "https://x.example/a.png", alt: "Chart", caption: null },
        { type: "image", url: "https://x.example/b.gif", alt: "", caption: "Moving" },
      ]),
      { "https://x.example/b.gif": "gif123" },
    );
    expect(document.document).toEqual([
      { e: "par", c: [{ e: "link", t: "Chart", u: "https://x.example/a.png" }] },
      { e: "gif", id: "gif123", c: "Moving" },
    ]);
  });

  it("format ranges count code points and merge adjacent runs; line breaks split paragraphs", () => {
    const { document } = toRedditRichText(
      article([
        {
          type: "paragraph",
          children: [
            { type: "text", text: "😀 " },
            { type: "text", text: "bold", bold: true },
            { type: "text", text: " both", bold: true },
            { type: "break" },
            { type: "text", text: "x²", sup: true },
          ],
        },
      ]),
      {},
    );
    expect(document.document).toEqual([
      { e: "par", c: [{ e: "text", t: "😀 bold both", f: [[1, 2, 9]] }] },
      { e: "par", c: [{ e: "text", t: "x²", f: [[32, 0, 2]] }] },
    ]);
  });
});

describe("markdown", () => {
  it("renders the block tree as Reddit markdown", async () => {
    const { markdown } = toRedditMarkdown(await extractArticle(thirdPost, URL_));
    expect(markdown).toContain(
      "[link to the second post](https://blog.example/blog/posts/2026/02/second-post.html) and some **bold words**, some *emphasis* and `inline_code()`.",
    );
    expect(markdown).toContain("\n\n## A section heading\n\n- First point of the list, with words.\n- Second point");
    expect(markdown).toContain(`[A diagram of the system](${DIAGRAM})  \n*The system, drawn by hand.*`);
    expect(markdown).toContain("> A quotation that someone once said");
    expect(markdown).toContain("\n\n    const answer = 42;\n    console.log(answer);\n\n");
    expect(markdown).toContain("| Name | Value |\n|:--|:--|\n| alpha | 1 |\n| beta | 2 |");
    expect(markdown).not.toContain("javascript:");
  });

  it("escapes text that would read as markdown", () => {
    const { markdown } = toRedditMarkdown(
      article([
        paragraph("5 * 3 = 15, a_b_c, [not a link](x), ~~no~~, ^up, <b>"),
        paragraph("# not a heading"),
        paragraph("1. not a list"),
      ]),
    );
    expect(markdown).toBe(
      "5 \\* 3 = 15, a\\_b\\_c, \\[not a link\\](x), \\~\\~no\\~\\~, \\^up, &lt;b&gt;\n\n\\# not a heading\n\n1\\. not a list",
    );
  });

  it("nests lists and quotes, numbers ordered lists from their start", () => {
    const { markdown } = toRedditMarkdown(
      article([
        {
          type: "list",
          ordered: true,
          start: 3,
          items: [
            [paragraph("three"), { type: "list", ordered: false, items: [[paragraph("inner")]] }],
            [paragraph("four")],
          ],
        },
        { type: "quote", children: [paragraph("quoted"), paragraph("again")] },
      ]),
    );
    expect(markdown).toBe("3. three\n\n   - inner\n4. four\n\n> quoted\n>\n> again");
  });
});

describe("Reddit's limits", () => {
  const long = article(Array.from({ length: 100 }, (_, i) => paragraph(`Paragraph ${i}. ${"word ".repeat(198)}end.`)));

  it("cuts a long body at a block boundary, within 40,000 characters, ending with a link to the original", () => {
    const { markdown, truncated } = toRedditMarkdown(long);
    expect(truncated).toBe(true);
    expect([...markdown].length).toBeLessThanOrEqual(40_000);
    expect(markdown.endsWith(`[Read the full article](${URL_})`)).toBe(true);
    const kept = markdown.split("\n\n").slice(0, -1);
    expect(kept.length).toBeGreaterThan(30);
    // Every kept paragraph is whole: the cut fell between blocks.
    kept.forEach((p, i) => {
      expect(p).toBe(`Paragraph ${i}. ${"word ".repeat(198)}end.`);
    });
  });

  it("keeps only the images the cut body still shows, in the article's order", () => {
    const image = (n: number): Block => ({
      type: "image",
      url: `https://blog.example/img/${n}.png`,
      alt: `image ${n}`,
      caption: null,
    });
    const blocks: Block[] = [
      image(1),
      { type: "quote", children: [image(2)] },
      { type: "list", ordered: false, items: [[image(3)]] },
    ];
    for (let i = 0; i < 100; i++) blocks.push(paragraph(`Paragraph ${i}. ${"word ".repeat(198)}end.`), image(4 + i));
    const withImages: Article = {
      ...article(blocks),
      images: [3, 1, 2, ...Array.from({ length: 100 }, (_, i) => 4 + i)].map((n) => ({
        url: `https://blog.example/img/${n}.png`,
        alt: `image ${n}`,
        caption: null,
      })),
    };
    const fitted = fitBody(withImages);
    expect(fitted.truncated).toBe(true);
    const shownParagraphs = fitted.blocks.filter((b) => b.type === "paragraph").length;
    expect(shownParagraphs).toBeGreaterThan(10);
    expect(shownParagraphs).toBeLessThan(100);
    const kept = imagesKept(withImages, fitted).map((i) => i.url.replace(/\D+/g, ""));
    // The article's own order (3, 1, 2, ...), limited to what the body shows.
    expect(kept).toEqual([
      "3",
      "1",
      "2",
      ...Array.from({ length: fitted.blocks.length - 3 - shownParagraphs }, (_, i) => String(4 + i)),
    ]);
    expect(imagesKept(withImages, fitBody(article(blocks.slice(0, 3))))).toHaveLength(3);
  });

  it("cuts the rich-text document at the same boundary", () => {
    const md = toRedditMarkdown(long);
    const rt = toRedditRichText(long, {});
    expect(rt.truncated).toBe(true);
    const pars = rt.document.document;
    expect(pars.length).toBe(md.markdown.split("\n\n").length);
    // 39 whole paragraphs fit beside the closing link, in both forms.
    expect(pars.length).toBe(40);
    expect(md.markdown.split("\n\n")).toHaveLength(40);
    expect(pars[pars.length - 1]).toEqual({ e: "par", c: [{ e: "link", t: "Read the full article", u: URL_ }] });
  });

  it("cuts both forms at the same block when markdown escapes the URL of the closing link", () => {
    const url = "https://blog.example/wiki/Parser_(computing)";
    const text = (i: number) => `P${i} ${"a".repeat(97)}`; // 100 characters
    const parens: Article = {
      ...article(Array.from({ length: 5 }, (_, i) => paragraph(text(i)))),
      url,
      canonicalUrl: url,
    };
    // 375 characters hold three paragraphs beside the raw URL's link, but only two beside the markdown link
    // (its parentheses become %28 and %29): the markdown form decides, for both.
    const md = toRedditMarkdown(parens, { maxLength: 375 });
    const rt = toRedditRichText(parens, {}, { maxLength: 375 });
    expect(md).toEqual({
      title: "A title",
      markdown: `${text(0)}\n\n${text(1)}\n\n[Read the full article](https://blog.example/wiki/Parser_%28computing%29)`,
      truncated: true,
    });
    expect(rt.truncated).toBe(true);
    expect(rt.document.document).toEqual([
      { e: "par", c: [{ e: "text", t: text(0) }] },
      { e: "par", c: [{ e: "text", t: text(1) }] },
      { e: "par", c: [{ e: "link", t: "Read the full article", u: url }] },
    ]);
    // One cut handed to both renderings gives the same posts.
    const fitted = fitBody(parens, { maxLength: 375 });
    expect(fitted.blocks).toHaveLength(2);
    expect(toRedditMarkdown(parens, { fitted })).toEqual(md);
    expect(toRedditRichText(parens, {}, { fitted })).toEqual(rt);
  });

  it("honours a smaller maximum and leaves a short body alone", () => {
    const { markdown, truncated } = toRedditMarkdown(long, { maxLength: 2500 });
    expect(truncated).toBe(true);
    expect(markdown.length).toBeLessThanOrEqual(2500);
    expect(markdown.split("\n\n")).toHaveLength(3);
    expect(toRedditMarkdown(article([paragraph("short")]))).toEqual({
      title: "A title",
      markdown: "short",
      truncated: false,
    });
  });

  it("keeps titles within 1..300 characters", () => {
    const longTitle = toRedditMarkdown(article([], `${"Very long headline words ".repeat(20)}`)).title;
    expect([...longTitle].length).toBeLessThanOrEqual(300);
    expect(longTitle.endsWith("…")).toBe(true);
    expect(longTitle).toMatch(/^Very long headline words Very/);
    expect(toRedditMarkdown(article([], "  spaced \n  out  ")).title).toBe("spaced out");
    // No title at all: named after the URL's slug, never empty.
    expect(toRedditRichText(article([], ""), {}).title).toBe("third post");
  });
});
