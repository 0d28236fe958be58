// node bench/extract-node.mjs — the extraction engine bundled for Node (esbuild, the same TypeScript the
// Worker runs), over every article page of the corpus, for speed work on the engine (docs/extraction.md, "Speed"):
//   --write FILE    every page's whole output (the Article: blocks, text, metadata, warnings, and its Reddit
//                   markdown) as one JSON line per page, to compare before and after a change;
//   --compare FILE  the same outputs, compared byte for byte with FILE; lists the pages that differ (exit 1);
//   --time          each page's time: the minimum over ROUNDS rounds of the mean of REPEAT runs, the pages
//                   interleaved within a round; prints the median, p90 and sum per set. With two bundles
//                   (`--against DIR`, a checkout of another commit) both are timed interleaved page by page.
//   --write FILE --against DIR  the outputs of DIR's engine (to check that a merge changed no output).
//   --score         each set's F1 with its own metric (as bench:extract scores ours: readability pages by word
//                   4-grams, WCXB and its snippets, DAnIEL, CleanPortalEval), to five places and summed, in
//                   about 20 s for all four sets: the loop for tuning rules. `--dump FILE` writes every page's
//                   F1, precision, recall and text; `--diff FILE` compares with such a dump page by page (how
//                   many pages went up and down per set, and the largest moves).
//   --wide          pages of --count (100,000) removable siblings of one kind each (hidden blocks, empty blocks,
//                   forms, call-to-action boxes, date lines, question lists), each extracted --rounds times: the
//                   minimum per kind (`npm run bench:extract-wide`; with --against DIR, that engine beside).
// Run it with the project's Node (`npx node bench/extract-node.mjs ...`; see checkDecoder). Profile with
// `npx node --cpu-prof bench/extract-node.mjs --time --sets readability`.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { build } from "esbuild";
import { parseCommandLine, runMain, UsageError } from "../scripts/lib/cli.mjs";
import { CORPUS_DIR, READABILITY_TEST_PAGES, ROOT } from "../scripts/lib/paths.mjs";
import { ascending, percentile } from "../scripts/lib/stats.mjs";
import { score as gramScore } from "./extract-score.mjs";
import { pageSets, scoredSets, snippets } from "./extract-sets.mjs";
import { fragmentTexts } from "./extract-text.mjs";

const USAGE = `usage: node bench/extract-node.mjs (--write FILE | --compare FILE | --time | --score | --wide) [options]

  --write FILE     write every page's output (JSON lines)
  --compare FILE   compare every page's output with FILE (exit 1 when any differs)
  --time           time every page (min over --rounds of the mean of --repeat runs)
  --score          score every page with its set's metric; prints each set's F1 (five places) and sum
  --wide           time pages of --count removable siblings of one kind each (min over --rounds)
  --count N        with --wide: siblings per page (default 100000)
  --dump FILE      with --score: write every page's scores and text (JSON)
  --diff FILE      with --score: compare every page's F1 with a --dump FILE (pages up / down, largest moves)
  --against DIR    with --time: also time the engine of the checkout DIR, interleaved page by page;
                   with --write: write the outputs of DIR's engine instead of this checkout's
  --sets LIST      readability,wcxb,daniel,cleanportal,netnewswire (default all)
  --repeat N       runs per page per round (default 5)
  --rounds N       rounds (default 3)
  -h, --help       this help`;

const SETS = pageSets(CORPUS_DIR, READABILITY_TEST_PAGES);

/** Bundles the engine of the checkout `root` and imports it. */
async function engine(root, tag) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "threadwatch-engine-"));
  const entry = path.join(dir, "entry.ts");
  fs.writeFileSync(
    entry,
    [
      `export { extractArticle } from ${JSON.stringify(path.join(root, "src/articles/extract/article.ts"))};`,
      `export { decodeDocument } from ${JSON.stringify(path.join(root, "src/articles/extract/charset.ts"))};`,
      `export { toRedditMarkdown } from ${JSON.stringify(path.join(root, "src/articles/render/markdown.ts"))};`,
    ].join("\n"),
  );
  const out = path.join(dir, `${tag}.mjs`);
  await build({
    entryPoints: [entry],
    bundle: true,
    format: "esm",
    platform: "neutral",
    outfile: out,
    logLevel: "error",
    nodePaths: [path.join(ROOT, "node_modules")],
  });
  const mod = await import(out);
  fs.rmSync(dir, { recursive: true, force: true });
  return mod;
}

/** Sibling kinds a page may repeat by the thousand, each removed or judged by a pass of its own. */
const WIDE_KINDS = {
  "hidden blocks": "<div hidden>x</div>",
  "empty blocks": "<div></div>",
  forms: "<form><input></form>",
  "call-to-action boxes": '<div>Book a demo <a class="btn" href="/demo">Go</a></div>',
  "date lines": '<div><time datetime="2020-01-01">Jan 2, 2020</time></div>',
  "question lists": "<ul><li><b>Why?</b><p>A sentence of prose that answers the question, long enough.</p></li></ul>",
  // Entries of one length but each its own text (numbered 00000–99999): the repeat check compares equal lengths.
  "entries of one length": (i) =>
    `<div class="item"><h4>Entry ${String(i).padStart(5, "0")}</h4><p>A sentence of prose long enough to count as a unit of the text, with a comma, and more words. <a href="https://other.example/${i}">A linked source title of some good length ${String(i).padStart(5, "0")}</a></p></div>`,
};

async function timeWide(values) {
  const count = Number(values.count);
  const rounds = Number(values.rounds);
  const engines = [["here", await engine(ROOT, "engine")]];
  if (values.against) engines.push(["against", await engine(path.resolve(values.against), "against")]);
  const lead = `<p>${"The article's own words, long enough to be its body. ".repeat(6)}</p>`;
  for (const [kind, sibling] of Object.entries(WIDE_KINDS)) {
    const html = `<html><body><article>${lead}${typeof sibling === "function" ? Array.from({ length: count }, (_, i) => sibling(i)).join("") : sibling.repeat(count)}<p>The end.</p></article></body></html>`;
    const cells = [];
    for (const [name, mod] of engines) {
      let best = Number.POSITIVE_INFINITY;
      for (let r = 0; r < rounds; r++) {
        const started = performance.now();
        await mod.extractArticle(html, "https://example.com/wide");
        best = Math.min(best, performance.now() - started);
      }
      cells.push(`${name} ${best.toFixed(0).padStart(6)} ms`);
    }
    console.log(`${kind.padEnd(22)} ${(html.length / 1e6).toFixed(1).padStart(5)} MB  ${cells.join("  ")}`);
  }
}

async function extract(mod, bytes, url) {
  const { text } = mod.decodeDocument(bytes, null);
  return mod.extractArticle(text, url);
}

/**
 * The engine's mojibake repair reads Windows-1252 through the runtime's TextDecoder. Node 20 decodes
 * "windows-1252" as Latin-1 (0x80–0x9F as C1 controls, not "€™’"), so the repair finds nothing to do there and
 * a few pages score differently from workerd. The project's own Node (22, a devDependency) is right: `npm run`
 * and `npx node` use it.
 */
function checkDecoder() {
  const sample = new TextDecoder("windows-1252").decode(Uint8Array.from([0x80, 0x99]));
  if (sample !== "\u20ac\u2122")
    throw new UsageError(
      `this Node (${process.version}) decodes windows-1252 as Latin-1, unlike workerd: run it with the project's Node (npx node bench/extract-node.mjs ...)`,
    );
}

await runMain(async () => {
  checkDecoder();
  const { values } = parseCommandLine(process.argv.slice(2), {
    write: { type: "string" },
    compare: { type: "string" },
    time: { type: "boolean", default: false },
    score: { type: "boolean", default: false },
    dump: { type: "string" },
    diff: { type: "string" },
    against: { type: "string" },
    sets: { type: "string", default: Object.keys(SETS).join(",") },
    repeat: { type: "string", default: "5" },
    rounds: { type: "string", default: "3" },
    wide: { type: "boolean", default: false },
    count: { type: "string", default: "100000" },
  });
  if (values.wide) return timeWide(values);
  if (!values.write && !values.compare && !values.time && !values.score) throw new UsageError(USAGE);
  const sets = values.sets.split(",").map((s) => {
    if (!SETS[s]) throw new UsageError(`unknown set ${s}\n\n${USAGE}`);
    return { key: s, pages: SETS[s]().map((p) => ({ ...p, data: p.bytes() })) };
  });
  const mod = await engine(ROOT, "engine");

  if (values.score) return scoreSets(mod, sets, values);

  if (values.write || values.compare) {
    // With --against, --write records the other checkout's outputs (e.g. a branch before a merge).
    const writer = values.write && values.against ? await engine(path.resolve(values.against), "against") : mod;
    const lines = [];
    for (const set of sets)
      for (const page of set.pages) {
        let output;
        try {
          const article = await extract(writer, page.data, page.url);
          output = { article, markdown: writer.toRedditMarkdown(article).markdown };
        } catch (err) {
          output = { error: String(err) };
        }
        lines.push(JSON.stringify({ set: set.key, page: page.name, ...output }));
      }
    if (values.write) {
      fs.writeFileSync(values.write, `${lines.join("\n")}\n`);
      console.log(`${lines.length} pages written to ${values.write}`);
      return;
    }
    const before = fs.readFileSync(values.compare, "utf8").split("\n").filter(Boolean);
    const key = (line) => {
      const { set, page } = JSON.parse(line);
      return `${set}/${page}`;
    };
    const byKey = new Map(before.map((l) => [key(l), l]));
    let differ = 0;
    for (const line of lines) {
      const old = byKey.get(key(line));
      if (old !== line) {
        differ++;
        if (differ <= 20) console.log(`differs: ${key(line)}${old === undefined ? " (not in the file)" : ""}`);
      }
    }
    console.log(`${lines.length} pages compared with ${values.compare} (${before.length} there): ${differ} differ`);
    return differ || lines.length !== before.length ? 1 : 0;
  }

  const engines = { here: mod };
  if (values.against) engines.against = await engine(path.resolve(values.against), "against");
  const repeat = Number(values.repeat);
  const rounds = Number(values.rounds);
  for (const set of sets) {
    const best = Object.fromEntries(Object.keys(engines).map((k) => [k, set.pages.map(() => Infinity)]));
    for (const m of Object.values(engines)) await extract(m, set.pages[0].data, set.pages[0].url); // warm up
    for (let round = 0; round < rounds; round++)
      for (let i = 0; i < set.pages.length; i++) {
        const page = set.pages[i];
        for (const [name, m] of Object.entries(engines)) {
          const started = performance.now();
          for (let r = 0; r < repeat; r++) await extract(m, page.data, page.url);
          const ms = (performance.now() - started) / repeat;
          if (ms < best[name][i]) best[name][i] = ms;
        }
      }
    for (const [name, times] of Object.entries(best)) {
      const sorted = ascending(times);
      const sum = times.reduce((a, b) => a + b, 0);
      console.log(
        `${set.key.padEnd(12)} ${name.padEnd(8)} pages ${times.length}  median ${percentile(sorted, 50).toFixed(3)} ms  p90 ${percentile(sorted, 90).toFixed(3)} ms  sum ${sum.toFixed(1)} ms`,
      );
    }
    if (engines.against) {
      const faster = best.here.filter((t, i) => t < best.against[i]).length;
      console.log(`${set.key.padEnd(12)} here faster than against on ${faster} of ${set.pages.length} pages`);
    }
  }
}, USAGE);

/** Every page scored with its set's metric (bench:extract's scoring of our side, without workerd or the peer). */
async function scoreSets(mod, sets, { dump, diff }) {
  const out = {};
  const previous = diff ? JSON.parse(fs.readFileSync(diff, "utf8")) : null;
  let slowest = { ms: 0, page: "" };
  for (const set of sets) {
    const metric = scoredSets[set.key];
    const rows = {};
    const snip = [0, 0, 0, 0];
    for (const page of set.pages) {
      const started = performance.now();
      let article;
      try {
        article = await extract(mod, page.data, page.url);
      } catch (err) {
        console.log(`error: ${set.key}/${page.name}: ${err}`);
        article = { title: "", text: "" };
      }
      const ms = performance.now() - started;
      if (ms > slowest.ms) slowest = { ms, page: `${set.key}/${page.name}` };
      let text;
      let s;
      if (set.key === "readability") {
        text = article.text;
        const expected = fs.readFileSync(path.join(READABILITY_TEST_PAGES, page.name, "expected.html"), "utf8");
        s = gramScore(text, fragmentTexts(expected).rendered);
      } else {
        text = metric.withTitle ? `${article.title}\n\n${article.text}` : article.text;
        s = metric.score(text, page);
        if (page.with) {
          const n = snippets(text, page.with, page.without);
          snip[0] += n.literalFound;
          snip[1] += n.withTotal;
          snip[2] += n.literalAvoided;
          snip[3] += n.withoutTotal;
        }
      }
      rows[page.name] = { f1: s.f1, precision: s.precision, recall: s.recall, text };
    }
    out[set.key] = rows;
    const f1s = Object.values(rows).map((r) => r.f1);
    const sum = f1s.reduce((a, b) => a + b, 0);
    const snipText = snip[1]
      ? `  with ${(snip[0] / snip[1]).toFixed(4)} (${snip[0]}/${snip[1]}), without avoided ${(snip[2] / snip[3]).toFixed(4)} (${snip[2]}/${snip[3]})`
      : "";
    console.log(`${set.key.padEnd(12)} F1 ${(sum / f1s.length).toFixed(5)}  summed ${sum.toFixed(3)}${snipText}`);
    if (previous?.[set.key]) {
      const moves = Object.entries(rows)
        .map(([name, r]) => [name, previous[set.key][name]?.f1 ?? 0, r.f1])
        .filter(([, a, b]) => Math.abs(b - a) > 1e-9)
        .sort((x, y) => x[2] - x[1] - (y[2] - y[1]));
      const delta = moves.reduce((acc, [, a, b]) => acc + b - a, 0);
      const up = moves.filter(([, a, b]) => b > a).length;
      console.log(
        `  against ${diff}: ${up} up, ${moves.length - up} down, summed ${delta >= 0 ? "+" : ""}${delta.toFixed(4)}`,
      );
      for (const [name, a, b] of [...moves.slice(0, 5), ...moves.slice(Math.max(5, moves.length - 5))])
        console.log(`    ${name.slice(0, 64).padEnd(64)} ${a.toFixed(3)} -> ${b.toFixed(3)}`);
    }
  }
  console.log(`slowest page ${slowest.ms.toFixed(1)} ms (${slowest.page}; Node, one run, not a timing)`);
  if (dump) fs.writeFileSync(dump, JSON.stringify(out));
  return 0;
}
