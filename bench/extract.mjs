// npm run bench:extract — measured quality of the sync engine against real pages (reads ../shared/corpus).
//  1. Article extraction: every mozilla/readability test page, body text scored against expected.html
//     (precision / recall / F1 over word 4-grams, averaged per page) and timed; the peer, @mozilla/readability
//     over linkedom, runs on the same pages in the same run (Node side).
//  2. Feeds: every real feed under corpus/feeds parses, or fails with a clear error (never a crash).
//  3. Sitemaps: every document under corpus/sitemaps parses, or fails with a clear error (never a crash).
//  4. The whole PyPy blog, served by a local HTTP server: landing page, index, feed and sitemap yield the same posts.
// Our side runs inside workerd (scripts/extract-worker.ts), the code the Worker runs.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import { startExtractWorker } from "../scripts/extract-runner.mjs";
import { parseCommandLine, runMain, UsageError } from "../scripts/lib/cli.mjs";
import { CORPUS_DIR as CORPUS, READABILITY_TEST_PAGES as PAGES } from "../scripts/lib/paths.mjs";
import { progress } from "../scripts/lib/progress.mjs";
import { ascending, percentile } from "../scripts/lib/stats.mjs";
import { score } from "./extract-score.mjs";
import { sameDay, sameText, sameTitle, scoredSets, snippets } from "./extract-sets.mjs";
import { fragmentTexts } from "./extract-text.mjs";

const USAGE = `usage: npm run bench:extract [-- options] [PAGE...]

  PAGE...           only these mozilla/readability test pages (directory names, e.g. 001 mathjax);
                    with pages named, only the article section runs
  --verbose         list every page by how far it trails the peer (default: the worst 8)
  --no-articles     skip the article section (feeds, sitemaps and the whole blog only)
  --articles-only   run the article section only
  --sets LIST       the article sets to score, comma-separated (default all):
                    readability,wcxb,daniel,cleanportal,netnewswire
  --limit N         at most N pages of each set (quick runs while tuning)
  --worst N         list the N worst pages of each set (default 10)
  --repeat N        at least N extractions per page on each side, times averaged (default 3)
  --min-ms M        and more until M ms have passed on that side (default 50, or 0 when --repeat is
                    given: workerd's clock has whole milliseconds, so a page of 3 ms runs about 17
                    times for a real figure)
  --no-peer         skip the peer (quick runs while tuning; no comparison)
  --dump FILE       write every page's F1 per set to FILE (JSON), to compare two runs page by page
  -h, --help        this help

The corpus is read from ../shared/corpus, or from $CORPUS_DIR when set.`;

const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const fmt = (x, d = 3) => x.toFixed(d);

// Each page is extracted at least REPEAT times on each side, and again until MIN_MS milliseconds have passed,
// and the mean taken: workerd's clock only has whole milliseconds, so a few runs of a page of 2-3 ms would be
// mostly rounding (the figures came in steps of a third of a millisecond). The peer is timed the same way.
let REPEAT = 3;
let MIN_MS = 50;
/** The most runs of one page (as the worker's own cap). */
const MAX_RUNS = 1000;
const utf8 = (bytes) => bytes.toString("utf8");
const textDecoder = (bytes) => new TextDecoder().decode(bytes);
const timing = () => `at least ${REPEAT} runs and ${MIN_MS} ms per page on each side`;

// The peer is timed from the page's bytes, as ours is (the worker's figure includes decodeDocument): its
// text is decoded inside the timed runs, the same way for every run.
function peer(bytes, decode) {
  let parsed = null;
  let runs = 0;
  const started = performance.now();
  do {
    try {
      const { document } = parseHTML(decode(bytes));
      parsed = new Readability(document).parse();
    } catch {
      parsed = null;
    }
    runs++;
  } while (runs < REPEAT || (runs < MAX_RUNS && performance.now() - started < MIN_MS));
  const ms = (performance.now() - started) / runs;
  return { ...fragmentTexts(parsed?.content ?? ""), ms, title: parsed?.title ?? "", meta: parsed ?? {} };
}

async function benchArticles(worker, { only, verbose, limit = Infinity, noPeer = false }) {
  const names = fs
    .readdirSync(PAGES)
    .filter((n) => !only.length || only.includes(n))
    .sort()
    .slice(0, limit);
  const metaRows = [];
  const ours = [];
  const theirs = [];
  const oursRaw = [];
  const theirsRaw = [];
  // Warm both sides up once so neither pays first-call JIT costs in the figures.
  const warm = fs.readFileSync(path.join(PAGES, names[0], "source.html"));
  await worker.extractBytes(warm, "http://fakehost/test/page.html");
  peer(warm, utf8);
  for (const name of names) {
    const dir = path.join(PAGES, name);
    const source = fs.readFileSync(path.join(dir, "source.html"));
    const expected = fragmentTexts(fs.readFileSync(path.join(dir, "expected.html"), "utf8"));
    const result = await worker.extractBytes(source, "http://fakehost/test/page.html", undefined, REPEAT, MIN_MS);
    const zero = { precision: 0, recall: 0, f1: 0 };
    ours.push({
      name,
      ...(result.error ? zero : score(result.text, expected.rendered)),
      ms: result.elapsed_ms ?? NaN,
      error: result.error,
    });
    oursRaw.push({ name, ...(result.error ? zero : score(result.text, expected.raw)), ms: 0 });
    const p = noPeer ? { rendered: "", raw: "", ms: NaN, meta: {} } : peer(source, utf8);
    const gold = JSON.parse(fs.readFileSync(path.join(dir, "expected-metadata.json"), "utf8"));
    metaRows.push({
      gold: { title: gold.title, author: gold.byline, date: gold.publishedTime, site: gold.siteName },
      ours: { title: result.title, author: result.byline, date: result.published_at, site: result.site_name },
      peer: { title: p.meta.title, author: p.meta.byline, date: p.meta.publishedTime, site: p.meta.siteName },
    });
    theirs.push({ name, ...score(p.rendered, expected.rendered), ms: p.ms });
    theirsRaw.push({ name, ...score(p.raw, expected.raw), ms: 0 });
  }
  const summary = (rows) => ({
    precision: mean(rows.map((r) => r.precision)),
    recall: mean(rows.map((r) => r.recall)),
    f1: mean(rows.map((r) => r.f1)),
    medianMs: percentile(ascending(rows.map((r) => r.ms)), 50) ?? 0,
    p90Ms: percentile(ascending(rows.map((r) => r.ms)), 90) ?? 0,
  });
  const a = summary(ours);
  const b = summary(theirs);
  console.log(
    `\n== Article extraction: ${names.length} mozilla/readability test pages (word 4-gram overlap of rendered text with expected.html's; time per page = mean of ${timing()})`,
  );
  console.log(`                         precision  recall   F1     median ms  p90 ms`);
  console.log(
    `threadwatch (workerd)    ${fmt(a.precision)}      ${fmt(a.recall)}    ${fmt(a.f1)}  ${fmt(a.medianMs, 2).padStart(8)}  ${fmt(a.p90Ms, 2).padStart(7)}`,
  );
  console.log(
    `readability+linkedom     ${fmt(b.precision)}      ${fmt(b.recall)}    ${fmt(b.f1)}  ${fmt(b.medianMs, 2).padStart(8)}  ${fmt(b.p90Ms, 2).padStart(7)}`,
  );
  const rawOurs = summary(oursRaw);
  const rawPeer = summary(theirsRaw);
  console.log(
    `cross-check on raw textContent (expected and peer as DOM textContent, ours unchanged): F1 ours ${fmt(rawOurs.f1)}, peer ${fmt(rawPeer.f1)}`,
  );
  console.log(
    `F1 to five places (the margin between the two is small): ours ${fmt(a.f1, 5)}, peer ${fmt(b.f1, 5)}; summed over the pages: ours ${fmt(a.f1 * ours.length)}, peer ${fmt(b.f1 * theirs.length)}`,
  );
  console.log(
    `targets: F1 above the peer's: ${a.f1 > b.f1 ? "met" : "NOT met"}; median time <= 1/5 of the peer's: ${a.medianMs <= b.medianMs / 5 ? "met" : "NOT met"} (ratio ${fmt(a.medianMs / b.medianMs, 3)})`,
  );
  const worst = ours.map((r, i) => ({ ...r, peer: theirs[i].f1 })).sort((x, y) => x.f1 - x.peer - (y.f1 - y.peer));
  const shown = verbose ? worst : worst.slice(0, 8);
  console.log(`pages where we trail the peer most:`);
  for (const r of shown)
    console.log(
      `  ${r.name.padEnd(40)} ours ${fmt(r.f1)} (p ${fmt(r.precision)} r ${fmt(r.recall)})  peer ${fmt(r.peer)}${r.error ? `  ${r.error.message}` : ""}`,
    );
  return {
    ours: a,
    peer: b,
    rows: ours.map((r, i) => ({ ...r, peerF1: theirs[i].f1 })),
    peerRows: theirs,
    metaRows,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Every article set of the corpus, each with its own metric, beside the peer (bench/extract-sets.mjs).

const SETS = scoredSets;

function peerText(p) {
  return p.rendered;
}

async function benchSet(worker, key, { limit, noPeer }) {
  const set = SETS[key];
  const pages = set.pages(CORPUS).slice(0, limit);
  const rows = [];
  const snip = { ours: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], peer: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] };
  const meta = [];
  const bar = progress(key, pages.length); // on a terminal only
  for (const page of pages) {
    bar.tick();
    const bytes = page.bytes();
    const result = await worker.extractBytes(bytes, page.url, undefined, REPEAT, MIN_MS);
    const ourText = result.error ? "" : set.withTitle ? `${result.title}\n\n${result.text}` : result.text;
    const p = noPeer ? null : peer(bytes, textDecoder);
    const theirText = p ? (set.withTitle ? `${p.title}\n\n${peerText(p)}` : peerText(p)) : "";
    const ours = set.score(ourText, page);
    const theirs = p ? set.score(theirText, page) : { f1: NaN, precision: NaN, recall: NaN };
    rows.push({
      name: page.name,
      ...ours,
      peerF1: theirs.f1,
      ms: result.elapsed_ms ?? NaN,
      peerMs: p?.ms ?? NaN,
      error: result.error,
    });
    if (page.with) {
      const a = snippets(ourText, page.with, page.without);
      const b = snippets(theirText, page.with, page.without);
      const add = (acc, s) => {
        acc[0] += s.found;
        acc[1] += s.withTotal;
        acc[2] += s.avoided;
        acc[3] += s.withoutTotal;
        acc[4] += s.literalFound;
        acc[5] += s.literalAvoided;
        acc[6] += s.foldedFound;
        acc[7] += s.foldedAvoided;
        acc[8] += s.upstreamWith;
        acc[9] += s.upstreamWithout;
        acc[10] += 1;
      };
      add(snip.ours, a);
      if (p) add(snip.peer, b);
    }
    if (page.meta)
      meta.push({
        gold: { ...page.meta, site: undefined },
        ours: { title: result.title, author: result.byline, date: result.published_at },
        peer: p ? { title: p.meta.title, author: p.meta.byline, date: p.meta.publishedTime } : {},
      });
  }
  bar.end();
  return { key, label: set.label, metric: set.metric, rows, snippets: page0HasSnippets(pages) ? snip : null, meta };
}

const page0HasSnippets = (pages) => pages.some((p) => p.with);

function summarize(rows) {
  const ms = ascending(rows.map((r) => r.ms).filter((x) => !Number.isNaN(x)));
  const peerMs = ascending(rows.map((r) => r.peerMs).filter((x) => !Number.isNaN(x)));
  return {
    n: rows.length,
    f1: mean(rows.map((r) => r.f1)),
    precision: mean(rows.map((r) => r.precision)),
    recall: mean(rows.map((r) => r.recall)),
    peerF1: mean(rows.map((r) => r.peerF1)),
    medianMs: percentile(ms, 50) ?? NaN,
    maxMs: ms[ms.length - 1] ?? NaN,
    peerMedianMs: percentile(peerMs, 50) ?? NaN,
    errors: rows.filter((r) => r.error).length,
    slow: rows.filter((r) => r.ms > 200).length,
  };
}

function metaAccuracy(metaRows, side) {
  const fields = [
    ["title", sameTitle],
    ["author", sameText],
    ["date", sameDay],
    ["site", sameText],
  ];
  const out = {};
  for (const [field, same] of fields) {
    const withGold = metaRows.filter((m) => m.gold[field]);
    if (!withGold.length) continue;
    const right = withGold.filter((m) => same(m[side][field], m.gold[field])).length;
    out[field] = { right, total: withGold.length };
  }
  return out;
}

function printSets(results, { worst }) {
  const pct = (x) => (Number.isNaN(x) ? "  -  " : fmt(x));
  console.log(
    `\n== Every article set: ours (workerd) beside @mozilla/readability + linkedom (Node), same run; time per page = mean of ${timing()}`,
  );
  console.log(
    `set                        pages  ours F1 (P / R)          peer F1  target            met   ours med ms  peer med ms  ratio  ours max ms  errors  >200ms`,
  );
  for (const r of results) {
    const s = r.summary;
    const target = r.target(s);
    console.log(
      `${r.label.padEnd(26)} ${String(s.n).padStart(5)}  ${fmt(s.f1)} (${fmt(s.precision)} / ${fmt(s.recall)})  ${pct(s.peerF1).padStart(7)}  ${target.text.padEnd(16)}  ${(target.met ? "yes" : "NO").padEnd(4)}  ${fmt(s.medianMs, 2).padStart(11)}  ${fmt(s.peerMedianMs, 2).padStart(11)}  ${fmt(s.medianMs / s.peerMedianMs, 3).padStart(5)}  ${fmt(s.maxMs, 1).padStart(11)}  ${String(s.errors).padStart(6)}  ${String(s.slow).padStart(6)}`,
    );
  }
  for (const r of results) {
    if (!r.snippets) continue;
    const [f, w, a, wo, lf, la, ff, fa, uw, uwo, n] = r.snippets.ours;
    const [pf, pw, pa, pwo, plf, pla, pff, pfa, puw, puwo, pn] = r.snippets.peer;
    console.log(
      `${r.label}: snippets (case-insensitive substring, whitespace collapsed: the corpus README's metric) \`with\` found ours ${fmt(lf / w)} (${lf}/${w}), peer ${pw ? fmt(plf / pw) : "-"}; \`without\` avoided ours ${fmt(la / wo)} (${la}/${wo}), peer ${pwo ? fmt(pla / pwo) : "-"}  (targets 0.90 / 0.97: ${lf / w >= 0.9 ? "met" : "NOT met"} / ${la / wo >= 0.97 ? "met" : "NOT met"})`,
    );
    console.log(
      `${r.label}: the same snippets with typographic quotes read as straight ones on both sides (not the target's metric: the reading the team is asked to decide on, as the annotators wrote straight quotes where pages have typographic ones): \`with\` ours ${fmt(ff / w)} (${ff}/${w}), peer ${pw ? fmt(pff / pw) : "-"}; \`without\` avoided ours ${fmt(fa / wo)} (${fa}/${wo}), peer ${pwo ? fmt(pfa / pwo) : "-"}`,
    );
    console.log(
      `${r.label}: the same snippets as WCXB's evaluate.py aggregates them (each page's share, averaged over ${n} pages; text as written, case folded): \`with\` ours ${fmt(uw / n)}, peer ${pn ? fmt(puw / pn) : "-"}; \`without\` avoided ours ${fmt(1 - uwo / n)}, peer ${pn ? fmt(1 - puwo / pn) : "-"}`,
    );
    console.log(
      `${r.label}: the same snippets as word sequences (\\w+ tokens, may end mid-word; not the target's metric, shown because the annotators normalized quotes and entities): \`with\` ours ${fmt(f / w)}, peer ${pw ? fmt(pf / pw) : "-"}; \`without\` avoided ours ${fmt(a / wo)}, peer ${pwo ? fmt(pa / pwo) : "-"}`,
    );
  }
  console.log(
    `\n== Metadata: share of pages with a gold value where the field matches (title: same words, or gold = ours + " | site"; date: same day)`,
  );
  for (const r of results) {
    if (!r.meta?.length) continue;
    for (const side of ["ours", "peer"]) {
      const acc = metaAccuracy(r.meta, side);
      const parts = Object.entries(acc).map(([k, v]) => `${k} ${fmt(v.right / v.total)} (${v.right}/${v.total})`);
      console.log(`${r.label.padEnd(26)} ${side.padEnd(5)} ${parts.join("  ")}`);
    }
  }
  for (const r of results) {
    console.log(`\n-- ${r.label}: the ${worst} worst pages (ours; peer beside)`);
    const sorted = [...r.rows].sort((x, y) => x.f1 - y.f1).slice(0, worst);
    for (const row of sorted)
      console.log(
        `  ${String(row.name).slice(0, 60).padEnd(60)} F1 ${fmt(row.f1)} (p ${fmt(row.precision)} r ${fmt(row.recall)})  peer ${pct(row.peerF1)}${row.error ? `  ERROR ${row.error.message}` : ""}`,
      );
  }
}

function walk(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

async function benchFeeds(worker) {
  const root = path.join(CORPUS, "feeds");
  const files = walk(root).filter((f) => {
    if (/\.(xml|rss|atom|rdf)$/i.test(f)) return !/\/output\//.test(f);
    if (/\.json$/i.test(f)) return /jsonfeed\.org/.test(fs.readFileSync(f, "utf8").slice(0, 3000));
    return false;
  });
  const bySource = new Map();
  const crashes = [];
  const realFailures = [];
  for (const file of files) {
    const source = path.relative(root, file).split(path.sep)[0];
    const row = bySource.get(source) ?? { files: 0, withItems: 0, empty: 0, errors: 0, crashes: 0, ms: 0 };
    bySource.set(source, row);
    row.files++;
    const started = performance.now();
    const result = await worker.parseFeed(fs.readFileSync(file), "https://example.com/feed");
    row.ms += performance.now() - started;
    if (result.error) {
      if (result.error.code === "parse") row.errors++;
      else {
        row.crashes++;
        crashes.push(`${path.relative(root, file)}: ${result.error.message}`);
      }
      // Only kurtmckee's suite is made of deliberate edge cases; a failure elsewhere is a real feed we cannot read.
      if (source !== "kurtmckee__feedparser")
        realFailures.push(`${path.relative(root, file)}: ${result.error.message}`);
    } else if (result.posts.length) row.withItems++;
    else row.empty++;
  }
  console.log(`\n== Feeds: ${files.length} feed documents under corpus/feeds (RSS 0.9x/1.0/2.0, Atom, JSON Feed)`);
  console.log(`source                              files  with items  no items  clear error  crash`);
  for (const [source, r] of bySource) {
    console.log(
      `${source.padEnd(36)}${String(r.files).padStart(5)}${String(r.withItems).padStart(12)}${String(r.empty).padStart(10)}${String(r.errors).padStart(13)}${String(r.crashes).padStart(7)}`,
    );
  }
  console.log(`crashes: ${crashes.length}${crashes.length ? `\n  ${crashes.slice(0, 10).join("\n  ")}` : ""}`);
  console.log(
    `feeds outside the edge-case suite that gave an error (${realFailures.length}):${realFailures.length ? `\n  ${realFailures.slice(0, 20).join("\n  ")}` : " none"}`,
  );
}

async function benchSitemaps(worker) {
  const root = path.join(CORPUS, "sitemaps");
  const files = walk(root).filter((f) => /\.(xml|gz|txt)$/i.test(f) && !/\/robots\/|robots\.txt$/.test(f));
  console.log(`\n== Sitemaps: ${files.length} documents under corpus/sitemaps`);
  let crashes = 0;
  for (const file of files) {
    const result = await worker.parseSitemap(fs.readFileSync(file), "https://example.com/sitemap.xml");
    const name = path.relative(root, file);
    if (result.error) {
      if (result.error.code !== "parse") crashes++;
      console.log(
        `  ${name.padEnd(100)} ${result.error.code === "parse" ? "clear error" : "CRASH"}: ${result.error.message.slice(0, 90)}`,
      );
    } else {
      const n =
        result.type === "index" ? `${result.sitemaps.length} sitemaps (index)` : `${result.entries.length} URLs`;
      console.log(
        `  ${name.padEnd(100)} ${n}${result.warnings.length ? `  (${result.warnings.length} warnings)` : ""}`,
      );
    }
  }
  console.log(`crashes: ${crashes}`);
}

/** Serves the stored PyPy blog as if this server were www.pypy.org (absolute links rewritten to it). */
function servePypy() {
  const root = path.join(CORPUS, "whole-blog/pypy__pypy.org");
  const types = { ".html": "text/html; charset=utf-8", ".xml": "application/xml", ".txt": "text/plain" };
  let origin = "";
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, "http://localhost");
    let file = path.normalize(path.join(root, decodeURIComponent(url.pathname)));
    if (file.endsWith(path.sep) || (fs.existsSync(file) && fs.statSync(file).isDirectory()))
      file = path.join(file, "index.html");
    if (!file.startsWith(root) || !fs.existsSync(file)) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    const ext = path.extname(file);
    const body = fs
      .readFileSync(file, "utf8")
      .replaceAll("https://www.pypy.org", origin)
      .replaceAll("http://www.pypy.org", origin);
    res.writeHead(200, { "content-type": types[ext] ?? "application/octet-stream" }).end(body);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      origin = `http://127.0.0.1:${server.address().port}`;
      resolve({ origin, close: () => new Promise((r) => server.close(r)) });
    }),
  );
}

async function benchPypy(worker) {
  const site = await servePypy();
  const n = 10;
  const starts = [
    ["landing page /", "/", {}],
    ["index /blog/ (post list + pagination)", "/blog/", { sources: ["index"] }],
    ["index /blog/ (default order)", "/blog/", {}],
    ["feed /rss.xml", "/rss.xml", {}],
    ["sitemap index /sitemapindex.xml", "/sitemapindex.xml", {}],
    ["sitemap /sitemap.xml", "/sitemap.xml", {}],
    ["landing, sitemap from robots.txt", "/", { sources: ["sitemap"] }],
  ];
  console.log(`\n== Whole blog: PyPy (corpus/whole-blog/pypy__pypy.org) served at ${site.origin}, newest ${n} posts`);
  const sets = [];
  try {
    for (const [label, p, options] of starts) {
      const started = performance.now();
      const result = await worker.discover(site.origin + p, { maxPosts: n, ...options });
      const ms = performance.now() - started;
      if (result.error) {
        console.log(`  ${label.padEnd(40)} error: ${result.error.message}`);
        sets.push(null);
        continue;
      }
      const urls = result.posts.map((x) => x.url.replace(site.origin, ""));
      sets.push(new Set(urls));
      console.log(
        `  ${label.padEnd(40)} ${result.sourceKind.padEnd(8)} ${String(result.posts.length).padStart(3)} posts  ${ms.toFixed(0).padStart(5)} ms  first: ${urls[0] ?? "-"}`,
      );
    }
    const reference = sets.find(Boolean);
    const same = sets.every(
      (s) => s && reference && s.size === reference.size && [...s].every((u) => reference.has(u)),
    );
    console.log(`same posts from every starting point: ${same ? "yes" : "NO"}`);
    if (!same && reference) {
      sets.forEach((s, i) => {
        if (!s) return;
        const missing = [...reference].filter((u) => !s.has(u));
        const extra = [...s].filter((u) => !reference.has(u));
        if (missing.length || extra.length)
          console.log(`  ${starts[i][0]}: missing ${missing.join(", ") || "-"}; extra ${extra.join(", ") || "-"}`);
      });
    }
  } finally {
    await site.close();
  }
}

await runMain(async () => {
  const { values, positionals: only } = parseCommandLine(
    process.argv.slice(2),
    {
      verbose: { type: "boolean", default: false },
      "no-articles": { type: "boolean", default: false },
      "articles-only": { type: "boolean", default: false },
      sets: { type: "string" },
      limit: { type: "string" },
      worst: { type: "string", default: "10" },
      "no-peer": { type: "boolean", default: false },
      repeat: { type: "string" },
      "min-ms": { type: "string" },
      dump: { type: "string" },
    },
    { allowPositionals: true },
  );
  if (only.length) {
    const pages = new Set(fs.readdirSync(PAGES));
    const unknown = only.filter((n) => !pages.has(n));
    if (unknown.length) throw new UsageError(`no such test page under ${PAGES}: ${unknown.join(", ")}`);
  }
  const known = ["readability", ...Object.keys(SETS)];
  const sets = values.sets ? values.sets.split(",").map((x) => x.trim()) : known;
  const unknownSets = sets.filter((x) => !known.includes(x));
  if (unknownSets.length) throw new UsageError(`unknown set: ${unknownSets.join(", ")} (known: ${known.join(", ")})`);
  const limit = values.limit ? Number(values.limit) : Infinity;
  const worst = Number(values.worst);
  if (!(limit > 0) || !(worst >= 0)) throw new UsageError("--limit and --worst take a number");
  const noPeer = values["no-peer"];
  REPEAT = Number(values.repeat ?? 3);
  if (!(REPEAT >= 1)) throw new UsageError("--repeat takes a number of at least 1");
  // `--repeat N` alone keeps its earlier meaning, exactly N runs (quick scoring runs use --repeat 1).
  MIN_MS = Number(values["min-ms"] ?? (values.repeat === undefined ? 50 : 0));
  if (!(MIN_MS >= 0)) throw new UsageError("--min-ms takes a number of milliseconds (0 or more)");
  const worker = await startExtractWorker({ allowPrivate: true });
  try {
    if (!values["no-articles"]) {
      const results = [];
      if (sets.includes("readability")) {
        const r = await benchArticles(worker, { only, verbose: values.verbose, limit, noPeer });
        results.push({
          label: "readability test pages",
          rows: r.rows.map((x, i) => ({ ...x, peerMs: r.peerRows[i].ms })),
          meta: r.metaRows,
          snippets: null,
          target: (s) => ({ text: ">= 0.99 (4-gram)", met: s.f1 >= 0.99 }),
        });
      }
      if (!only.length)
        for (const key of Object.keys(SETS)) {
          if (!sets.includes(key)) continue;
          const r = await benchSet(worker, key, { limit, noPeer });
          const target =
            key === "wcxb"
              ? (s) => ({ text: ">= 0.96", met: s.f1 >= 0.96 })
              : key === "netnewswire"
                ? () => ({ text: "(none)", met: true })
                : (s) => ({ text: `>= peer + 0.02`, met: s.f1 >= s.peerF1 + 0.02 });
          results.push({ ...r, target });
        }
      for (const r of results) r.summary = summarize(r.rows);
      printSets(results, { worst });
      if (values.dump)
        fs.writeFileSync(
          values.dump,
          JSON.stringify(
            Object.fromEntries(results.map((r) => [r.label, Object.fromEntries(r.rows.map((x) => [x.name, x.f1]))])),
          ),
        );
      const all = results.flatMap((r) => r.rows);
      const overall = summarize(all);
      console.log(
        `\nall ${overall.n} pages: median ${fmt(overall.medianMs, 2)} ms against the peer's ${fmt(overall.peerMedianMs, 2)} (ratio ${fmt(overall.medianMs / overall.peerMedianMs, 3)}, target <= 0.20: ${overall.medianMs <= overall.peerMedianMs / 5 ? "met" : "NOT met"}); slowest page ${fmt(overall.maxMs, 1)} ms; errors ${overall.errors}; over 200 ms ${overall.slow}`,
      );
    }
    if (!only.length && !values["articles-only"] && !values.sets) {
      await benchFeeds(worker);
      await benchSitemaps(worker);
      await benchPypy(worker);
    }
  } finally {
    await worker.dispose();
  }
  return 0;
}, USAGE);
