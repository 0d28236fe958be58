// node bench/extract-parsers.mjs — which HTML parser the extractor builds its tree with (docs/extraction.md, "Parser"):
// time per page and heap per page of (1) htmlparser2's callbacks into our lean tree (src/articles/extract/html-tree.ts,
// what the engine uses), (2) htmlparser2's own DOM (domhandler, parseDocument), (3) parse5's spec tree builder (default
// tree adapter), over the readability test pages and WCXB's development pages. Runs in Node (the three are plain
// JavaScript; workerd runs V8 too); each page is parsed REPEAT times per parser, the parsers interleaved page by page
// so machine load hits all three alike. An optional extra module can be compared: `OLD_TREE=/path/to/bundle.mjs` (a
// bundle exporting parseHtml, e.g. the tokenizer we dropped).
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { parseDocument } from "htmlparser2";
import { parse as parse5 } from "parse5";
import { parseCommandLine, runMain } from "../scripts/lib/cli.mjs";
import { importHtmlTree } from "../scripts/lib/html-tree-module.mjs";
import { CORPUS_DIR, READABILITY_TEST_PAGES } from "../scripts/lib/paths.mjs";
import { ascending, percentile } from "../scripts/lib/stats.mjs";

const USAGE = `usage: node bench/extract-parsers.mjs [-- --limit N]

  --limit N   at most N WCXB pages (default 300)
  -h, --help  this help`;

const REPEAT = 3;

function pages(limit) {
  const list = fs
    .readdirSync(READABILITY_TEST_PAGES)
    .sort()
    .map((n) => fs.readFileSync(path.join(READABILITY_TEST_PAGES, n, "source.html"), "utf8"));
  const wcxb = path.join(CORPUS_DIR, "extraction/Murrough-Foley__web-content-extraction-benchmark");
  const html = fs
    .readdirSync(wcxb, { recursive: true })
    .filter((f) => f.endsWith(".html.gz"))
    .sort()
    .slice(0, limit);
  for (const f of html) list.push(zlib.gunzipSync(fs.readFileSync(path.join(wcxb, f))).toString("utf8"));
  return list;
}

await runMain(async () => {
  const { values } = parseCommandLine(process.argv.slice(2), { limit: { type: "string", default: "300" } });
  const lean = await importHtmlTree("h15-lean-tree");
  const parsers = { "htmlparser2 → lean tree (ours)": (h) => lean.parseHtml(h) };
  parsers["htmlparser2 DOM (domhandler)"] = (h) => parseDocument(h);
  parsers["parse5 (spec tree builder)"] = (h) => parse5(h);
  if (process.env.OLD_TREE) {
    const old = await import(path.resolve(process.env.OLD_TREE));
    parsers["old home-made tokenizer"] = (h) => old.parseHtml(h);
  }
  const docs = pages(Number(values.limit));
  const bytes = docs.reduce((s, d) => s + d.length, 0);
  const times = Object.fromEntries(Object.keys(parsers).map((k) => [k, []]));
  const heap = Object.fromEntries(Object.keys(parsers).map((k) => [k, []]));
  for (const parse of Object.values(parsers)) parse(docs[0]); // warm up
  for (const doc of docs) {
    for (const [name, parse] of Object.entries(parsers)) {
      const started = performance.now();
      for (let i = 0; i < REPEAT; i++) parse(doc);
      times[name].push((performance.now() - started) / REPEAT);
      // Heap held by one parsed tree: heap after minus before, with the tree still referenced.
      globalThis.gc?.();
      const before = process.memoryUsage().heapUsed;
      const tree = parse(doc);
      const after = process.memoryUsage().heapUsed;
      heap[name].push(Math.max(0, after - before) / doc.length);
      if (!tree) throw new Error("no tree");
    }
  }
  console.log(`${docs.length} pages, ${(bytes / 1e6).toFixed(1)} MB of HTML; time = mean of ${REPEAT} parses`);
  console.log(`parser                               median ms  p90 ms   total s  heap bytes per HTML byte (median)`);
  for (const name of Object.keys(parsers)) {
    const t = ascending(times[name]);
    const total = t.reduce((a, b) => a + b, 0) / 1000;
    console.log(
      `${name.padEnd(36)} ${percentile(t, 50).toFixed(2).padStart(9)} ${percentile(t, 90).toFixed(2).padStart(7)} ${total.toFixed(2).padStart(9)}  ${percentile(ascending(heap[name]), 50).toFixed(1)}${globalThis.gc ? "" : " (run with --expose-gc for heap figures)"}`,
    );
  }
  return 0;
}, USAGE);
