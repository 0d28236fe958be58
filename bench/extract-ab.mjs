// node bench/extract-ab.mjs --against DIR — the extraction engine of this checkout against the one of the checkout DIR
// (another commit), both bundled into ONE worker and run inside workerd, alternating on each page (decode + extract,
// timed around each run): both see the same machine load at the same moment, which two benchmark runs one after the
// other on a shared machine do not. Prints the median page and the summed time of each per set. Speed work on the
// engine (docs/extraction.md, "Speed"); `npm run bench:extract` is the benchmark of record.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { unstable_startWorker } from "wrangler";
import { parseCommandLine, runMain, UsageError } from "../scripts/lib/cli.mjs";
import { CORPUS_DIR, READABILITY_TEST_PAGES, ROOT } from "../scripts/lib/paths.mjs";
import { ascending, percentile } from "../scripts/lib/stats.mjs";
import { pageSets } from "./extract-sets.mjs";

const USAGE = `usage: node bench/extract-ab.mjs --against DIR [options]

  --against DIR       the other checkout (its src/articles/extract is the "before")
  --sets LIST         readability,wcxb,daniel,cleanportal,netnewswire (default readability)
  --alternations N    runs of each engine per page, alternating (default 10)
  -h, --help          this help`;

const SETS = pageSets(CORPUS_DIR, READABILITY_TEST_PAGES);

function workerSource(before, after) {
  const from = (root, file) => JSON.stringify(path.join(root, "src/articles/extract", file));
  return `import { decodeDocument as decodeBefore } from ${from(before, "charset.ts")};
import { extractArticle as extractBefore } from ${from(before, "article.ts")};
import { decodeDocument as decodeAfter } from ${from(after, "charset.ts")};
import { extractArticle as extractAfter } from ${from(after, "article.ts")};
export default {
  async fetch(request) {
    const bytes = new Uint8Array(await request.arrayBuffer());
    const url = request.headers.get("x-page-url");
    const n = Number(request.headers.get("x-alternations"));
    let before = 0;
    let after = 0;
    const time = async (decode, extract) => {
      const started = performance.now();
      await extract(decode(bytes, null).text, url);
      return performance.now() - started;
    };
    // Each engine goes first in every other alternation: the one run second finds the page's bytes and the
    // shared library code warm (run against itself, a fixed order gave "after" 4 % less).
    for (let i = 0; i < n; i++) {
      if (i % 2 === 0) {
        before += await time(decodeBefore, extractBefore);
        after += await time(decodeAfter, extractAfter);
      } else {
        after += await time(decodeAfter, extractAfter);
        before += await time(decodeBefore, extractBefore);
      }
    }
    return Response.json({ before: before / n, after: after / n });
  },
};
`;
}

await runMain(async () => {
  const { values } = parseCommandLine(process.argv.slice(2), {
    against: { type: "string" },
    sets: { type: "string", default: "readability" },
    alternations: { type: "string", default: "10" },
  });
  if (!values.against) throw new UsageError("--against DIR is required", USAGE);
  const against = path.resolve(values.against);
  if (!fs.existsSync(path.join(against, "src/articles/extract/article.ts")))
    throw new UsageError(`no engine under ${against}/src/articles/extract`, USAGE);
  const alternations = Number(values.alternations);
  if (!(alternations >= 1)) throw new UsageError("--alternations takes a number of at least 1", USAGE);
  const sets = values.sets.split(",").map((s) => {
    if (!SETS[s]) throw new UsageError(`unknown set ${s}`, USAGE);
    return s;
  });
  process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "threadwatch-ab-"));
  fs.writeFileSync(path.join(dir, "worker.js"), workerSource(against, ROOT));
  fs.writeFileSync(
    path.join(dir, "wrangler.toml"),
    `name = "threadwatch-extract-ab"\nmain = "worker.js"\ncompatibility_date = "2026-10-01"\ncompatibility_flags = ["nodejs_compat"]\n`,
  );
  const worker = await unstable_startWorker({
    config: path.join(dir, "wrangler.toml"),
    dev: { server: { hostname: "127.0.0.1", port: 0 }, inspector: false, watch: false, logLevel: "error" },
  });
  try {
    for (const key of sets) {
      const pages = SETS[key]();
      const before = [];
      const after = [];
      for (const page of pages) {
        const res = await worker.fetch("http://ab.local/", {
          method: "POST",
          body: page.bytes(),
          headers: { "x-page-url": page.url, "x-alternations": String(alternations) },
        });
        const r = await res.json();
        before.push(r.before);
        after.push(r.after);
      }
      const sum = (xs) => xs.reduce((a, b) => a + b, 0);
      const median = (xs) => percentile(ascending(xs), 50);
      console.log(
        `${key.padEnd(12)} ${pages.length} pages, ${alternations} alternations each: before median ${median(before).toFixed(3)} ms, summed ${sum(before).toFixed(0)} ms | after median ${median(after).toFixed(3)} ms, summed ${sum(after).toFixed(0)} ms | summed after/before ${(sum(after) / sum(before)).toFixed(3)}`,
      );
    }
  } finally {
    await worker.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, USAGE);
