// node bench/extract-signals.mjs — derives the extractor's class/id and structure signals from WCXB's
// development articles (docs/extraction.md, "Our own signals"). Every text run of 20+ characters
// of a page (parsed with the engine's own tree, src/articles/extract/html-tree.ts) is labelled *article* when
// it occurs in the page's gold text (case and whitespace aside) and *boilerplate* otherwise. Then:
//  1. for each word of the class and id attributes on the path from the run up to <body> (elements holding
//     over a third of the page's text, page-wide wrappers, left out; words split at
//     anything but letters and digits, and at camelCase humps), the article and boilerplate characters
//     under it, over how many pages; printed: the words that lean most either way, with their article
//     share against the corpus' overall share;
//  2. the same per tag on the path (nav, aside, footer, li, ...) and per ARIA role;
//  3. article share of runs inside links, and by the link density of the block holding the run.
// The engine's lists in src/articles/extract/signals.ts are read off this output (thresholds in the docs).
import { parseCommandLine, runMain } from "../scripts/lib/cli.mjs";
import { importHtmlTree } from "../scripts/lib/html-tree-module.mjs";
import { CORPUS_DIR } from "../scripts/lib/paths.mjs";
import { wcxbPages } from "./extract-sets.mjs";

const USAGE = `usage: node bench/extract-signals.mjs [-- --limit N] [--min-pages N] [--top N]

  --limit N       at most N pages (default all 711)
  --min-pages N   a word must occur on at least N pages to be listed (default 8)
  --words a,b,c   also print these words' figures
  --top N         list the N words leaning most each way (default 60)
  -h, --help      this help`;

const squash = (s) => s.toLowerCase().replace(/\s+/g, " ").trim();
export function attributeWords(value) {
  return (value ?? "")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1 && !/^\d+$/.test(w));
}

await runMain(async () => {
  const { values } = parseCommandLine(process.argv.slice(2), {
    limit: { type: "string" },
    "min-pages": { type: "string", default: "8" },
    top: { type: "string", default: "60" },
    words: { type: "string" },
  });
  const tree = await importHtmlTree("h15-signals-tree");
  const pages = wcxbPages(CORPUS_DIR).slice(0, values.limit ? Number(values.limit) : undefined);
  const words = new Map(); // word -> {a, b, pages:Set}
  const tags = new Map();
  const roles = new Map();
  const linkRuns = { a: 0, b: 0 };
  const densityBins = Array.from({ length: 5 }, () => ({ a: 0, b: 0 }));
  const containerWords = new Map();
  const containerTags = new Map();
  const pageWords = new Map();
  let containerPages = 0;
  let totalA = 0;
  let totalB = 0;
  const bump = (map, key, label, chars, page) => {
    const row = map.get(key) ?? { a: 0, b: 0, pages: new Set() };
    map.set(key, row);
    row[label] += chars;
    row.pages.add(page);
  };
  for (const page of pages) {
    if (!page.gold) continue;
    const gold = squash(page.gold);
    const html = new TextDecoder().decode(page.bytes());
    const { root } = tree.parseHtml(html);
    const body = tree.findFirst(root, "body") ?? root;
    const pageLength = tree.textLength(body);
    const visit = (el, pathWords, pathTags, pathRoles, inLink) => {
      if (el.tag === "script" || el.tag === "style" || el.tag === "noscript" || el.tag === "template") return;
      // Words of page-wide wrappers (holding over a third of the page's text) say nothing about a block.
      const wrapper = tree.textLength(el) > pageLength / 3;
      const ownWords = wrapper ? [] : [...attributeWords(el.attrs.class), ...attributeWords(el.attrs.id)];
      const w = new Set([...pathWords, ...ownWords]);
      const t = new Set([...pathTags, el.tag]);
      const r = el.attrs.role ? new Set([...pathRoles, el.attrs.role.toLowerCase()]) : pathRoles;
      const link = inLink || el.tag === "a";
      let density = null;
      for (const child of el.children) {
        if (typeof child !== "string") {
          visit(child, w, t, r, link);
          continue;
        }
        const text = squash(child);
        if (text.length < 20) continue;
        const label = gold.includes(text) ? "a" : "b";
        if (label === "a") totalA += text.length;
        else totalB += text.length;
        for (const word of w) bump(words, word, label, text.length, page.name);
        for (const tag of t) bump(tags, tag, label, text.length, page.name);
        for (const role of r) bump(roles, role, label, text.length, page.name);
        if (link) linkRuns[label] += text.length;
        density ??= tree.textLength(el) ? tree.linkTextLength(el) / tree.textLength(el) : 0;
        densityBins[Math.min(4, Math.floor(density * 5))][label] += text.length;
      }
    };
    visit(body, new Set(), new Set(), new Set(), false);
    // The article's container: the deepest element whose text holds 80 % of the page's article runs.
    const articleChars = new Map();
    const count = (el) => {
      let total = 0;
      for (const child of el.children) {
        if (typeof child !== "string") total += count(child);
        else if (el.tag !== "script" && el.tag !== "style") {
          const text = squash(child);
          if (text.length >= 20 && gold.includes(text)) total += text.length;
        }
      }
      articleChars.set(el, total);
      return total;
    };
    const pageArticle = count(body);
    if (pageArticle) {
      let container = body;
      for (;;) {
        const next = container.children.find((c) => typeof c !== "string" && articleChars.get(c) >= 0.8 * pageArticle);
        if (!next) break;
        container = next;
      }
      const near = new Set();
      for (let el = container, up = 0; el && el !== body && up < 3; el = el.parent, up++)
        for (const w of [...attributeWords(el.attrs.class), ...attributeWords(el.attrs.id)]) near.add(w);
      for (const w of near) containerWords.set(w, (containerWords.get(w) ?? 0) + 1);
      containerTags.set(container.tag, (containerTags.get(container.tag) ?? 0) + 1);
      containerPages++;
      const everywhere = new Set();
      for (const el of tree.descendants(body))
        for (const w of [...attributeWords(el.attrs.class), ...attributeWords(el.attrs.id)]) everywhere.add(w);
      for (const w of everywhere) pageWords.set(w, (pageWords.get(w) ?? 0) + 1);
    }
  }
  const base = totalA / (totalA + totalB);
  console.log(
    `${pages.length} pages; text runs of 20+ chars: article ${totalA} chars, boilerplate ${totalB}; overall article share ${base.toFixed(3)}`,
  );
  const minPages = Number(values["min-pages"]);
  const top = Number(values.top);
  const table = (title, map, limit) => {
    const rows = [...map.entries()]
      .filter(([, v]) => v.pages.size >= minPages)
      .map(([k, v]) => ({ k, share: v.a / (v.a + v.b), chars: v.a + v.b, pages: v.pages.size }));
    console.log(`\n${title}`);
    const show = (list) => {
      for (const r of list)
        console.log(`  ${r.k.padEnd(24)} article share ${r.share.toFixed(3)}  (${r.pages} pages, ${r.chars} chars)`);
    };
    const sorted = rows.sort((x, y) => x.share - y.share);
    console.log(`  -- leaning to boilerplate (lowest article share)`);
    show(sorted.slice(0, limit));
    console.log(`  -- leaning to article (highest article share)`);
    show(sorted.slice(-limit).reverse());
  };
  table(`class/id words on the path (min ${minPages} pages)`, words, top);
  if (values.words) {
    console.log(`\nwords asked for (--words):`);
    for (const w of values.words.split(",")) {
      const v = words.get(w);
      console.log(
        `  ${w.padEnd(24)} ${v ? `article share ${(v.a / (v.a + v.b)).toFixed(3)}  (${v.pages.size} pages, ${v.a + v.b} chars)` : "not seen"}`,
      );
    }
  }
  table(`tags on the path`, tags, 15);
  table(`ARIA roles on the path`, roles, 8);
  const share = (x) => (x.a + x.b ? (x.a / (x.a + x.b)).toFixed(3) : "-");
  console.log(`\ntext inside links: article share ${share(linkRuns)} (${linkRuns.a + linkRuns.b} chars)`);
  console.log(`by link density of the element holding the run:`);
  for (const [i, bin] of densityBins.entries())
    console.log(
      `  ${(i / 5).toFixed(1)}-${((i + 1) / 5).toFixed(1)}: article share ${share(bin)} (${bin.a + bin.b} chars)`,
    );
  console.log(
    `\nthe article's container (deepest element holding 80 % of the article text; it and two ancestors), ${containerPages} pages:`,
  );
  console.log(
    `  its tag: ${[...containerTags]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 8)
      .map(([t, n]) => `${t} ${n}`)
      .join(", ")}`,
  );
  const lift = [...containerWords]
    .filter(([, n]) => n >= 15)
    .map(([w, n]) => ({ w, n, of: pageWords.get(w) ?? n, share: n / (pageWords.get(w) ?? n) }))
    .sort((a, b) => b.n - a.n)
    .slice(0, top);
  console.log(`  words on it (pages with the word on the container / pages with the word anywhere):`);
  console.log(`  ${lift.map((x) => `${x.w} ${x.n}/${x.of}`).join(", ")}`);
  return 0;
}, USAGE);
