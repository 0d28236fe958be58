// node bench/extract-node.mjs — the extraction engine bundled for Node (esbuild, the same TypeScript the
// Worker runs), over every article page of the corpus, for speed work on the engine (issue 15):
//   --write FILE    every page's whole output (the Article: blocks, text, metadata, warnings, and its Reddit
//                   markdown) as one JSON line per page, to compare before and after a change;
//   --compare FILE  the same outputs, compared byte for byte with FILE; lists the pages that differ (exit 1);
//   --time          each page's time: the minimum over ROUNDS rounds of the mean of REPEAT runs, the pages
//                   interleaved within a round; prints the median, p90 and sum per set. With two bundles
//                   (`--against DIR`, a checkout of another commit) both are timed interleaved page by page.
//   --write FILE --against DIR  the outputs of DIR's engine (to check that a merge changed no output).
// Profile with `node --cpu-prof bench/extract-node.mjs --time --sets readability`.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { build } from "esbuild";
import { parseCommandLine, runMain, UsageError } from "../scripts/lib/cli.mjs";
import { CORPUS_DIR, READABILITY_TEST_PAGES, ROOT } from "../scripts/lib/paths.mjs";
import { ascending, percentile } from "../scripts/lib/stats.mjs";
import { pageSets } from "./extract-sets.mjs";

const USAGE = `usage: node bench/extract-node.mjs (--write FILE | --compare FILE | --time) [options]

  --write FILE     write every page's output (JSON lines)
  --compare FILE   compare every page's output with FILE (exit 1 when any differs)
  --time           time every page (min over --rounds of the mean of --repeat runs)
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
      `export { extractArticle } from ${JSON.stringify(path.join(root, "src/sync/extract/article.ts"))};`,
      `export { decodeDocument } from ${JSON.stringify(path.join(root, "src/sync/extract/charset.ts"))};`,
      `export { toRedditMarkdown } from ${JSON.stringify(path.join(root, "src/sync/render/markdown.ts"))};`,
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

async function extract(mod, bytes, url) {
  const { text } = mod.decodeDocument(bytes, null);
  return mod.extractArticle(text, url);
}

await runMain(async () => {
  const { values } = parseCommandLine(process.argv.slice(2), {
    write: { type: "string" },
    compare: { type: "string" },
    time: { type: "boolean", default: false },
    against: { type: "string" },
    sets: { type: "string", default: Object.keys(SETS).join(",") },
    repeat: { type: "string", default: "5" },
    rounds: { type: "string", default: "3" },
  });
  if (!values.write && !values.compare && !values.time) throw new UsageError(USAGE);
  const sets = values.sets.split(",").map((s) => {
    if (!SETS[s]) throw new UsageError(`unknown set ${s}\n\n${USAGE}`);
    return { key: s, pages: SETS[s]().map((p) => ({ ...p, data: p.bytes() })) };
  });
  const mod = await engine(ROOT, "engine");

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
