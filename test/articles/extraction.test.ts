import { env } from "cloudflare:workers";
import { Tokenizer } from "htmlparser2";
import { beforeAll, describe, expect, it } from "vitest";
import { type Article, type Block, extractArticle, FetchError, fetchArticle } from "../../src/articles";
import {
  commaCount,
  type ElementNode,
  findAll,
  findFirst,
  invalidate,
  type TreeNode,
  textContent,
} from "../../src/articles/extract/html-tree";
import { repairMojibake } from "../../src/articles/extract/mojibake";
import { MAX_DEPTH, parseHtml } from "../../src/articles/extract/parse-html";
import page001 from "../fixtures/extraction/001.html?raw";
import baseUrlPage from "../fixtures/extraction/base-url-base-element-relative.html?raw";
import hiddenNodes from "../fixtures/extraction/hidden-nodes.html?raw";
import parselyPage from "../fixtures/extraction/parsely-metadata.html?raw";
import socialButtons from "../fixtures/extraction/social-buttons.html?raw";

const policy = { allowPrivate: true };
// The readability test pages were saved from this address; their expected output uses it.
const FAKEHOST = "http://fakehost/test/page.html";

function allUrls(blocks: Block[]): string[] {
  return (
    JSON.stringify(blocks)
      .match(/"(href|url)":"[^"]*"/g)
      ?.map((m) => m.split('":"')[1]!.slice(0, -1)) ?? []
  );
}

describe("a blog post fetched from the web", () => {
  // Fetched once before the tests, so each test stands alone (any one may run by itself, in any order).
  let article: Article;
  beforeAll(async () => {
    article = await fetchArticle(`${env.FIXTURE_ORIGIN}/blog/posts/2026/03/third-post.html?utm_source=x`, { policy });
  });

  it("has its metadata: title without the site name, byline, time, canonical URL, lead image", () => {
    expect(article.title).toBe("The third post");
    expect(article.byline).toBe("Ada Writer");
    expect(article.publishedAt).toBe("2026-03-10T09:00:00.000Z");
    expect(article.canonicalUrl).toBe(`${env.FIXTURE_ORIGIN}/blog/posts/2026/03/third-post.html`);
    expect(article.leadImage).toBe(`${env.FIXTURE_ORIGIN}/blog/images/third-cover.jpg`);
  });

  it("has the body as a block tree, in order, with absolute URLs", () => {
    expect(article.blocks.map((b) => b.type)).toEqual([
      "paragraph",
      "paragraph",
      "heading",
      "list",
      "image",
      "quote",
      "code",
      "table",
      "paragraph",
    ]);
    const [first, , heading, list, image, , code, table] = article.blocks;
    expect(first).toMatchObject({ type: "paragraph" });
    expect(JSON.stringify(first)).toContain(`"href":"${env.FIXTURE_ORIGIN}/blog/posts/2026/02/second-post.html"`);
    expect(heading).toEqual({ type: "heading", level: 2, children: [{ type: "text", text: "A section heading" }] });
    expect(list).toMatchObject({ type: "list", ordered: false });
    expect((list as Extract<Block, { type: "list" }>).items).toHaveLength(2);
    // The lazy-loaded image: its real source, not the placeholder; alt and caption kept.
    expect(image).toEqual({
      type: "image",
      url: `${env.FIXTURE_ORIGIN}/blog/images/diagram.png`,
      alt: "A diagram of the system",
      caption: "The system, drawn by hand.",
      href: null,
    });
    expect(code).toEqual({ type: "code", text: "const answer = 42;\nconsole.log(answer);", language: "js" });
    expect((table as Extract<Block, { type: "table" }>).rows[0]).toEqual({
      header: true,
      cells: [[{ type: "text", text: "Name" }], [{ type: "text", text: "Value" }]],
    });
    expect(article.images).toEqual([
      {
        url: `${env.FIXTURE_ORIGIN}/blog/images/diagram.png`,
        alt: "A diagram of the system",
        caption: "The system, drawn by hand.",
      },
    ]);
    for (const url of allUrls(article.blocks)) expect(url).toMatch(/^https?:\/\//);
  });

  it("is free of navigation, comments, share widgets, related posts, sidebars and ads", () => {
    for (const junk of [
      "Related posts",
      "casino",
      "Share on",
      "newsletter",
      "Buy our product",
      "All rights reserved",
      "About",
      "3 comments",
      "By Ada Writer",
    ]) {
      expect(article.text).not.toContain(junk);
    }
    expect(article.text).toContain("The closing paragraph wraps the post up");
    expect(article.text.startsWith("This is the opening paragraph")).toBe(true);
  });

  it("is sanitized: no scripts, styles, iframes, event handlers or javascript: links (docs/security.md)", () => {
    const everything = JSON.stringify(article);
    for (const bad of [
      "javascript:",
      "onclick",
      "alert(",
      "evil.example",
      "document.write",
      "color: red",
      "<script",
      "<iframe",
    ]) {
      expect(everything).not.toContain(bad);
    }
    // The link lost its target but kept its words.
    expect(article.text).toContain("mentions a harmless-looking link that must lose its target");
  });
});

describe("real pages (mozilla/readability test pages)", () => {
  it("a personal blog post: title suffix dropped, byline, code and links", async () => {
    const article = await extractArticle(page001, FAKEHOST);
    expect(article.title).toBe("Get your Frontend JavaScript Code Covered");
    expect(article.byline).toBe("Nicolas Perriault");
    expect(article.text).toContain("So finally you're testing your frontend JavaScript code? Great!");
    expect(article.text).not.toContain("Nicolas Perriault's homepage");
    expect(article.blocks.some((b) => b.type === "code")).toBe(true);
    expect(allUrls(article.blocks)).toContain(
      "http://fakehost/code/2013/testing-frontend-javascript-code-using-mocha-chai-and-sinon/",
    );
  });

  it("share buttons are dropped", async () => {
    const article = await extractArticle(socialButtons, FAKEHOST);
    expect(article.text).toContain("Lorem ipsum dolor sit amet");
    expect(article.text).not.toMatch(/Like this:|Share this:/);
  });

  it("metadata from Parse.ly tags", async () => {
    const article = await extractArticle(parselyPage, FAKEHOST);
    expect(article).toMatchObject({
      title: "Some Other Title",
      byline: "Jane Doe",
      publishedAt: "2024-04-20T04:20:00.000Z",
    });
  });

  it("links resolve against a relative <base href>", async () => {
    const urls = allUrls((await extractArticle(baseUrlPage, FAKEHOST)).blocks);
    expect(urls).toContain("http://fakehost/test/base/foo/bar/baz.html");
    expect(urls).toContain("http://fakehost/foo/bar/baz.html");
  });

  it("hidden elements are not article text", async () => {
    const article = await extractArticle(hiddenNodes, FAKEHOST);
    // Only the visible paragraph and the two headings: the `display:none` and `hidden` paragraphs are gone.
    expect(article.blocks.map((b) => b.type)).toEqual(["paragraph", "heading", "heading"]);
    expect(article.text).toContain("Secondary header");
  });
});

describe("character sets and broken markup", () => {
  it("decodes a page by the charset of its Content-Type header (ISO-8859-1)", async () => {
    const article = await fetchArticle(`${env.FIXTURE_ORIGIN}/sync/latin1-header`, { policy });
    expect(article.title).toBe("Café crème");
    expect(article.text).toContain("une tarte à la française");
    expect(article.text).toContain("naïveté, coïncidence, æsthetics, über, señor");
  });

  it("decodes a page by its <meta> charset when the header has none (windows-1251)", async () => {
    const article = await fetchArticle(`${env.FIXTURE_ORIGIN}/sync/cp1251-meta`, { policy });
    expect(article.title).toBe("Привет мир");
    expect(article.text).toContain("Это первый абзац статьи");
  });

  it("repairs text encoded twice (UTF-8 read as Windows-1252), and leaves accented text as written", async () => {
    const written = "It’s a café — “quoted”, 新闻 😀, a\u00a0no-break space, £5 and ©";
    // What a CMS stores when it reads the UTF-8 bytes as Windows-1252: "Itâ€™s a cafÃ© â€” â€œquotedâ€\u009d…".
    const damaged = new TextDecoder("windows-1252").decode(new TextEncoder().encode(written));
    expect(damaged).not.toBe(written);
    expect(repairMojibake(damaged)).toBe(written);
    // Real text with accented letters beside symbols is not damaged: "é »" would decode to 頻, "É…" to U+0245.
    const accented = "CAFÉ… «DÉJÀ VU» SÃO PAULO, naïve Ærø, ÉTÉ», un traitement automatisé\u00a0»";
    expect(repairMojibake(accented)).toBe(accented);
    const body = `<p>${damaged} ${"More of the article, long enough to be its body. ".repeat(6)}</p>`;
    const article = await extractArticle(
      `<html><head><title>Itâ€™s here</title></head><body><article>${body}<p>${accented}</p></article></body></html>`,
      "https://example.com/post",
    );
    expect(article.title).toBe("It’s here");
    expect(article.text).toContain(written);
    expect(article.text).toContain(accented);
  });

  it("reads malformed HTML the way browsers do (implied end tags, stray and missing closers)", async () => {
    const html = `<html><head><title>Broken & fine</title><body><div class="entry-content"><p>First paragraph without its end tag, long enough to count, with words and more words.<p>Second paragraph, also unterminated, <b>bold that never closes, and another sentence.</span><ul><li>one<li>two</ul><p>After the list&nbsp;&mdash; &#x263A; &amp; done</div>`;
    const article = await extractArticle(html, "https://example.com/post");
    expect(article.title).toBe("Broken & fine");
    expect(article.blocks.map((b) => b.type)).toEqual(["paragraph", "paragraph", "list", "paragraph"]);
    const list = article.blocks[2] as Extract<Block, { type: "list" }>;
    expect(list.items.map((item) => item.map((b) => b.type))).toEqual([["paragraph"], ["paragraph"]]);
    expect(article.text).toContain("- one\n- two");
    expect(article.text).toContain("After the list\u00a0— ☺ & done");
  });

  it("plain text marks bulleted list items with a dash, indents an item's further lines, and leaves numbered items and table cells as they were", async () => {
    const prose = "A paragraph of the article, long enough to count as prose, with words and more words in it.";
    const html = `<html><body><article><p>${prose}</p><p>${prose}</p><ul><li>one</li><li><p>two</p><p>two, more</p><ul><li>inner</li></ul></li></ul><ol start="3"><li>third</li><li>fourth</li></ol><table><tr><td>cell a</td><td>cell b</td></tr></table></article></body></html>`;
    const article = await extractArticle(html, "https://example.com/post");
    expect(article.text).toContain("- one\n- two\n\n  two, more\n\n  - inner");
    expect(article.text).toContain("\n\nthird\nfourth\n\n");
    expect(article.text).toContain("cell a\tcell b");
  });

  it("an empty or non-article page gives an empty body with a warning, not a crash", async () => {
    const article = await extractArticle(
      "<html><body><nav><a href='/'>Home</a></nav></body></html>",
      "https://example.com/",
    );
    expect(article.blocks.length).toBeLessThanOrEqual(1);
    expect(article.warnings.length).toBeGreaterThan(0);
    expect(article.title).toBe("");
  });

  it("a response that is not a page is refused", async () => {
    const err = await fetchArticle(`${env.FIXTURE_ORIGIN}/sync/not-html`, { policy }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FetchError);
    expect((err as FetchError).code).toBe("parse");
  });
});

describe("the HTML tree", () => {
  it("decodes every named character reference, not only the common ones", () => {
    const { root } = parseHtml(
      "<p>&ccaron; &Zcaron; &lstrok; &hyphen; &NotSquareSupersetEqual; &bbrk; &DoubleLongLeftRightArrow; &fjlig; &amp</p>",
    );
    expect(textContent(findFirst(root, "p")!)).toBe("č Ž ł ‐ ⋣ ⎵ ⟺ fj &");
  });

  it("keeps a page nested 10,000 deep (5 MB) flat below its depth cap, text in order", async () => {
    const depth = 10_000;
    const filler = "x".repeat(480);
    const open = Array.from({ length: depth }, (_, i) => `<div class="d${i}"><p>${i} ${filler}</p>`).join("");
    const html = `<html><body>${open}${"</div>".repeat(depth)}</body></html>`;
    expect(html.length).toBeGreaterThan(5_000_000);
    const { root } = parseHtml(html);
    let deepest = 0;
    const walk = (el: ElementNode, d: number) => {
      deepest = Math.max(deepest, d);
      for (const c of el.children) if (typeof c !== "string") walk(c, d + 1);
    };
    walk(root, 0);
    expect(deepest).toBeLessThanOrEqual(MAX_DEPTH + 1);
    // Below the cap elements sit side by side and their text stays in document order.
    expect(findAll(root, "p")).toHaveLength(depth);
    const text = textContent(root);
    expect(text.indexOf("5000 x")).toBeGreaterThan(text.indexOf("399 x"));
    expect(text.indexOf("9999 x")).toBeGreaterThan(text.indexOf("5000 x"));
    // The whole extraction finishes on it (a generous bound: it only guards against a hang).
    const started = Date.now();
    const article = await extractArticle(html, "https://example.com/deep");
    expect(article.text).toContain("9999 xxx");
    expect(Date.now() - started).toBeLessThan(120_000);
  });

  it("extracts a page of 100,000 elements", async () => {
    const items = Array.from({ length: 25_000 }, (_, i) => `<p>Item ${i}, <b>a</b> <i>b</i> <a href="/${i}">c</a></p>`);
    const html = `<html><body><nav><a href="/">Home</a></nav><article>${items.join("")}</article></body></html>`;
    const { root } = parseHtml(html);
    expect(findAll(root, new Set(["p", "b", "i", "a"])).length).toBe(100_001);
    const started = Date.now();
    const article = await extractArticle(html, "https://example.com/many");
    expect(article.text).toContain("Item 24999, a b c");
    expect(article.text).not.toContain("Home");
    expect(Date.now() - started).toBeLessThan(120_000);
  });

  // Each of these took 10 to 30 s in Node before removals stopped shifting the whole array each time and the
  // form and call-to-action boxes stopped rescanning one wide block per form or button (docs/extraction.md).
  it.each([
    ["hidden blocks", "<div hidden>x</div>"],
    ["empty blocks", "<div></div>"],
    ["forms", "<form><input></form>"],
    ["calls to action", '<div>Book a demo <a class="btn" href="/demo">Go</a></div>'],
  ])("extracts a page of 100,000 removable siblings (%s)", async (_, sibling) => {
    const lead = `<p>${"The article's own words, long enough to be its body. ".repeat(6)}</p>`;
    const html = `<html><body><article>${lead}${sibling.repeat(100_000)}<p>The last paragraph, after all of them.</p></article></body></html>`;
    const started = Date.now();
    const article = await extractArticle(html, "https://example.com/wide");
    expect(article.text).toContain("The article's own words");
    expect(article.text).toContain("The last paragraph, after all of them.");
    expect(Date.now() - started).toBeLessThan(120_000);
  });

  it("moves streamed segments into their placeholders without growing the tree past its depth cap", async () => {
    // Sixty segments, each holding the next one's placeholder 390 levels down: filled in place, the chain
    // would be 23,000 levels deep (the recursive walks overflowed the stack before the cap was applied again).
    let html = `<html><body><article><p>${"The article's own words, long enough to be its body. ".repeat(6)}</p><template id="B:1"></template></article>`;
    for (let k = 1; k <= 60; k++)
      html += `<div hidden id="S:${k}">${"<div>".repeat(390)}<p>Part ${k} of the stream.</p><template id="B:${k + 1}"></template>${"</div>".repeat(390)}</div>`;
    const article = await extractArticle(`${html}</body></html>`, "https://example.com/streamed");
    expect(article.text).toContain("Part 1 of the stream.");
    expect(article.text).toContain("Part 60 of the stream.");
  });

  it("reads attribute values as HTML does: `&not=` in a query string is not a character reference", () => {
    const { root } = parseHtml(`<a href="/search?a=1&not=2&amp;b=3&copy;">x</a><p title="&lt;&not x">y</p>`);
    expect(findFirst(root, "a")?.attrs.href).toBe("/search?a=1&not=2&b=3©");
    expect(findFirst(root, "p")?.attrs.title).toBe("<¬ x");
  });

  it("builds the same tree with its fast tokenizer as with htmlparser2's own", () => {
    const shape = (node: TreeNode): unknown =>
      typeof node === "string" ? node : [node.tag, node.attrs, node.children.map(shape)];
    const tricky =
      `<p title='a "b" &amp; c' data-x=unquoted>text &lt; more<br/>` +
      `<script>if (a < b && c > d) document.write("</scr" + "ipt>");</script>` +
      `<style>p > a { color: red }</style><!-- a comment with <p> inside --><textarea>&amp; <b></textarea>` +
      `<a href="?a=1&not=2">link</a><![CDATA[ x ]]><svg><style>&amp;</style></svg><p>last <i>open <script>never closed`;
    for (const page of [page001, baseUrlPage, hiddenNodes, parselyPage, socialButtons, tricky]) {
      const fast = parseHtml(page);
      const stock = parseHtml(page, Tokenizer);
      expect(shape(fast.root)).toEqual(shape(stock.root));
      expect(fast.jsonLd).toEqual(stock.jsonLd);
    }
  });

  it("decodes references in text and RCDATA (title), not in raw-text elements (xmp, script)", () => {
    const { root, jsonLd } = parseHtml(
      `<title>A &amp; B</title><p>x &lt; y &amp;&amp; a&#x263A;b&notin;</p><xmp>&amp;lt;</xmp>` +
        `<script type="application/ld+json">{"name":"A &amp; B"}</script>`,
    );
    expect(textContent(findFirst(root, "title")!)).toBe("A & B");
    expect(textContent(findFirst(root, "p")!)).toBe("x < y && a☺b∉");
    expect(textContent(findFirst(root, "xmp")!)).toBe("&amp;lt;");
    expect(jsonLd).toEqual(['{"name":"A &amp; B"}']);
  });

  it("forgets a cached comma count when the text under a node changes", () => {
    const { root } = parseHtml("<div><p>one, two</p></div>");
    const div = findFirst(root, "div")!;
    const p = findFirst(root, "p")!;
    expect(commaCount(div)).toBe(1);
    p.children = ["one, two, three, four"];
    invalidate(p);
    expect(commaCount(div)).toBe(3);
  });
});

describe("line breaks", () => {
  it("keeps single breaks inside a paragraph; a run of breaks starts a new paragraph; leading ones are dropped", async () => {
    const html = `<html><body><article><p><br><br>First line of a poem that is long enough to be article text, surely,<br>second line,<br><br><br>third line after a gap, and the paragraph goes on for a while longer.</p></article></body></html>`;
    const article = await extractArticle(html, "https://example.com/poem");
    const paragraphs = article.blocks as Extract<Block, { type: "paragraph" }>[];
    expect(paragraphs.map((p) => p.type)).toEqual(["paragraph", "paragraph"]);
    expect(paragraphs[0]!.children.map((c) => c.type)).toEqual(["text", "break", "text"]);
    expect(article.text).toBe(
      "First line of a poem that is long enough to be article text, surely,\nsecond line,\n\nthird line after a gap, and the paragraph goes on for a while longer.",
    );
  });

  it("a <p> made of <br><br>-separated paragraphs is scored as the article it is, not as one paragraph", async () => {
    const para = (n: number) =>
      `Paragraph ${n} of the story, long enough to count as real text, with a comma, another one, and a full stop.`;
    const teaser = (n: number) => `<p>Teaser ${n} about something else, with commas, words, more words, to score.</p>`;
    // The story is one <p> of six paragraphs; elsewhere on the page sits a block of five short teasers,
    // which outscores the story when the story counts as a single paragraph.
    const html = `<html><body><div><div><div><p>${[1, 2, 3, 4, 5, 6].map(para).join("<br><br>")}</p></div></div></div>
<div><div><div><div>${[1, 2, 3, 4, 5].map(teaser).join("")}</div></div></div></div></body></html>`;
    const article = await extractArticle(html, "https://example.com/story");
    expect(article.blocks.map((b) => b.type)).toEqual(Array(6).fill("paragraph"));
    expect(article.text).toBe([1, 2, 3, 4, 5, 6].map(para).join("\n\n"));
  });
});

describe("page furniture inside the article", () => {
  it("drops heading permalinks", async () => {
    const html = `<html><body><article><h2 id="setup">Setup<a class="headerlink" href="#setup">¶</a></h2><p>Some text that is long enough to be the article, with a few more words in it than that.</p><h2 id="next">Next <a href="#next">#</a></h2><p>More text that keeps the article going for another sentence or two, fine.</p></article></body></html>`;
    const article = await extractArticle(html, "https://example.com/post");
    const headings = article.blocks.filter((b): b is Extract<Block, { type: "heading" }> => b.type === "heading");
    expect(headings.map((h) => h.children)).toEqual([
      [{ type: "text", text: "Setup" }],
      [{ type: "text", text: "Next" }],
    ]);
  });
});

describe("reader comments", () => {
  it("are removed even when the page puts them inside the article, and a class merely mentioning them is not", async () => {
    const para = (n: number) =>
      `<p>Paragraph ${n} of the post, long enough to be content, with commas, words, and a full stop at the end.</p>`;
    const html = `<html><body><article class="post has-comments">${para(1)}${para(2)}${para(3)}<section id="comments"><h3>2 comments</h3><div class="comment"><p>First! Great post, would read again, and again, and again, and again.</p></div></section></article></body></html>`;
    const article = await extractArticle(html, "https://example.com/post");
    expect(article.text).toContain("Paragraph 3 of the post");
    expect(article.text).not.toContain("2 comments");
    expect(article.text).not.toContain("First! Great post");
  });
});

describe("equations (MathML)", () => {
  it("become linear text: inline ones stay in their sentence, displayed ones are paragraphs, rows are lines", async () => {
    const html = `<html><body><article><p>When <math><mi>a</mi><mo>≠</mo><mn>0</mn></math>, the roots of the quadratic equation, which every student meets, are</p>
<math display="block"><mi>x</mi><mo>=</mo><mfrac><mrow><mo>−</mo><mi>b</mi><mo>±</mo><msqrt><msup><mi>b</mi><mn>2</mn></msup><mo>−</mo><mn>4</mn><mi>a</mi><mi>c</mi></msqrt></mrow><mrow><mn>2</mn><mi>a</mi></mrow></mfrac></math>
<p>and a system of two equations, written as a table, reads</p>
<math display="block"><mtable><mtr><mtd><msub><mi>x</mi><mn>1</mn></msub><mo>=</mo><mn>1</mn></mtd></mtr><mtr><mtd><mi>y</mi><mo>=</mo><mn>2</mn></mtd></mtr></mtable></math>
<p>The author's own linear form wins: <math alttext="e^{i\\pi} + 1 = 0"><semantics><mrow><msup><mi>e</mi><mrow><mi>i</mi><mi>π</mi></mrow></msup></mrow><annotation encoding="application/x-tex">ignored</annotation></semantics></math>, then TeX: <math><semantics><mrow><mi>z</mi></mrow><annotation encoding="application/x-tex">\\bar{z}</annotation></semantics></math>.</p></article></body></html>`;
    const article = await extractArticle(html, "https://example.com/math");
    expect(article.text).toBe(
      [
        "When a ≠ 0, the roots of the quadratic equation, which every student meets, are",
        "x = (− b ± √(b^2 − 4 a c))/(2 a)",
        "and a system of two equations, written as a table, reads",
        "x_1 = 1\ny = 2",
        "The author's own linear form wins: e^{i\\pi} + 1 = 0, then TeX: \\bar{z}.",
      ].join("\n\n"),
    );
  });
});

describe("dialogs", () => {
  it("modal, dialog and flyout boxes the page keeps beside the article are not article text", async () => {
    const para = (n: number) =>
      `<p>Paragraph ${n} of the post, long enough to be content, with commas, words, and a full stop at the end.</p>`;
    const html = `<html><body><div id="main">${[1, 2, 3, 4, 5, 6].map(para).join("")}
<div class="newsletter-modal"><h2>Subscribe</h2><p>Get our best stories in your inbox, every week, for free, forever, no spam.</p></div>
<div id="makehomepagedialog"><h2>Make us your homepage</h2><ul><li><div>On the toolbar, click Settings, then click Preferences.</div></li></ul></div>
<div id="feedback-flyout"><h2>Send feedback</h2><p>Tell us what you think of this page, what works, what does not, and why.</p></div></div></body></html>`;
    const article = await extractArticle(html, "https://example.com/post");
    expect(article.text).toContain("Paragraph 6 of the post");
    for (const gone of ["Subscribe", "inbox", "homepage", "toolbar", "feedback", "Tell us"])
      expect(article.text).not.toContain(gone);
  });
});

describe("lists without items", () => {
  it("are indented passages (old markup): kept, with their links, and read as quotes", async () => {
    const para = (n: number) =>
      `<p>Paragraph ${n} of the post, long enough to be content, with commas, words, and a full stop at the end.</p>`;
    const aside = `(I understand there is an <a href="/a">almost-functional</a> version <i><a href="/b">now</a></i>, and I will <a href="/c">check it</a> out at some point, maybe.)`;
    const html = `<html><body><div>${[1, 2, 3, 4, 5].map(para).join("")}<p>Someone else wrote:</p><ul><i>Have you considered changing distributions?</i></ul><ul><font size="-1">${aside}</font></ul>${para(6)}</div></body></html>`;
    const article = await extractArticle(html, "https://example.com/post");
    expect(article.blocks.map((b) => b.type)).toEqual([
      "paragraph",
      "paragraph",
      "paragraph",
      "paragraph",
      "paragraph",
      "paragraph",
      "quote",
      "quote",
      "paragraph",
    ]);
    expect(article.text).toContain(
      "Someone else wrote:\n\nHave you considered changing distributions?\n\n(I understand there is an almost-functional version now, and I will check it out at some point, maybe.)\n\nParagraph 6",
    );
  });
});

describe("code blocks", () => {
  it("a <br> inside <pre> (as some highlighters write line ends) is a new line", async () => {
    const para = (n: number) =>
      `<p>Paragraph ${n} of the post, long enough to be content, with commas, words, and a full stop at the end.</p>`;
    const html = `<html><body><article>${[1, 2, 3, 4, 5].map(para).join("")}<pre class="language-c"><code><span class="token comment">// add.c</span><br><span>#include</span> &lt;emscripten.h&gt;<br><br>EMSCRIPTEN_KEEPALIVE<br><span class="token keyword">int</span> add(int x, int y) {<br>  return x + y;<br>}</code></pre></article></body></html>`;
    const article = await extractArticle(html, "https://example.com/post");
    const code = article.blocks.find((b) => b.type === "code");
    expect(code).toEqual({
      type: "code",
      language: "c",
      text: "// add.c\n#include <emscripten.h>\n\nEMSCRIPTEN_KEEPALIVE\nint add(int x, int y) {\n  return x + y;\n}",
    });
  });
});

describe("related posts and author boxes inside the article", () => {
  it("are removed, also when their class says 'article' too; a paragraph merely about relations is not", async () => {
    const para = (n: number) =>
      `<p>Paragraph ${n} of the post, long enough to be content, with commas, words, and a full stop at the end.</p>`;
    const html = `<html><body><article>${[1, 2, 3].map(para).join("")}
<div class="multi-related-article-links"><h3>Related</h3><a href="/amazon">More on Amazon</a><ul class="related-article-links-list"><li><a href="/one">Amazon posts first jobs for new headquarters</a></li><li><a href="/two">Amazon earns a profit, vows to shift to one-day delivery</a></li></ul></div>
${[4, 5].map(para).join("")}<div class="related-article-body"><p>How the two events are related, in the words of the people who were there, is told below.</p></div>${para(6)}
<section class="article-author"><div class="author-bio"><a href="/author/dan">Dan Writer</a> Dan is the security editor, which he joined in 2012 after working for other publications.</div></section></article></body></html>`;
    const article = await extractArticle(html, "https://example.com/post");
    expect(article.text).toContain("Paragraph 6 of the post");
    expect(article.text).toContain("How the two events are related");
    for (const gone of ["More on Amazon", "headquarters", "one-day delivery", "Dan is the security editor"])
      expect(article.text).not.toContain(gone);
  });
});

describe("the title repeated in the body", () => {
  const para = (n: number) =>
    `<p>Paragraph ${n} of the post, long enough to be content, with commas, words, and a full stop at the end.</p>`;
  const page = (title: string, body: string) =>
    `<html><head><title>${title}</title></head><body><article>${body}${[1, 2, 3, 4, 5].map(para).join("")}</article></body></html>`;

  it("goes when the opening heading is made of the title's words (a kicker or a shortened headline)", async () => {
    const kicker = await extractArticle(
      page(
        "Lupita Nyong'o's $150K Pearl Oscar Dress -- STOLEN!!!",
        `<h2>Lupita Nyong'o</h2><h4>$150K Pearl Oscar Dress ... STOLEN!!!!</h4>`,
      ),
      "https://example.com/a",
    );
    expect(kicker.blocks[0]).toEqual({
      type: "heading",
      level: 4,
      children: [{ type: "text", text: "$150K Pearl Oscar Dress ... STOLEN!!!!" }],
    });
    const shortened = await extractArticle(
      page("MathJax v3 with MathML input and HTML output", `<h1>MathJax v3 beta: MathML input, HTML output test</h1>`),
      "https://example.com/b",
    );
    expect(shortened.blocks[0]!.type).toBe("paragraph");
  });

  it("stays when text comes before it, or when it says something else", async () => {
    const later = await extractArticle(
      page("Embedded videos test", `<p>Lorem ipsum dolor sit amet, consectetur adipisicing elit.</p><h2>Videos</h2>`),
      "https://example.com/c",
    );
    expect(later.blocks.filter((b) => b.type === "heading")).toEqual([
      { type: "heading", level: 2, children: [{ type: "text", text: "Videos" }] },
    ]);
    const other = await extractArticle(
      page("Why we moved our builds to a monorepo", `<h2>Monorepo builds, part two</h2>`),
      "https://example.com/d",
    );
    expect(other.blocks[0]!.type).toBe("heading");
  });
});

describe("captions", () => {
  const para = (n: number) =>
    `<p>Paragraph ${n} of the post, long enough to be content, with commas, words, and a full stop at the end.</p>`;

  it("a figure caption wrapped in other elements is the image's caption, read once", async () => {
    const html = `<html><body><article><figure><div><img src="/vr.jpg" alt="The headset"></div><div class="caption-wrap"><figcaption><div>Sony's PlayStation VR.</div></figcaption><button>More</button></div></figure>${[1, 2, 3, 4, 5].map(para).join("")}</article></body></html>`;
    const article = await extractArticle(html, "https://example.com/post");
    expect(article.blocks[0]).toEqual({
      type: "image",
      url: "https://example.com/vr.jpg",
      alt: "The headset",
      caption: "Sony's PlayStation VR.",
      href: null,
    });
    expect(article.text.match(/PlayStation VR/g)).toHaveLength(1);
  });

  it("a table caption is a paragraph before the table", async () => {
    const rows = [1, 2, 3, 4].map((n) => `<tr><td>Symptom ${n}</td><td>Cause ${n}</td></tr>`).join("");
    const html = `<html><body><article>${[1, 2, 3, 4, 5].map(para).join("")}<table><caption>Table 6-1. Example <b>symptoms</b> and causes</caption><thead><tr><th>Symptom</th><th>Cause</th></tr></thead><tbody>${rows}</tbody></table></article></body></html>`;
    const article = await extractArticle(html, "https://example.com/post");
    expect(article.blocks.slice(-2).map((b) => b.type)).toEqual(["paragraph", "table"]);
    expect(article.blocks[article.blocks.length - 2]).toEqual({
      type: "paragraph",
      children: [
        { type: "text", text: "Table 6-1. Example " },
        { type: "text", text: "symptoms", bold: true },
        { type: "text", text: " and causes" },
      ],
    });
  });
});
