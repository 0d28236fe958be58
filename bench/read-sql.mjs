// npm run bench:read-sql [-- --dir DIR --rounds N]
//
// SQLite's own time for the small workspace's search page statements (src/db/posts-query.ts, the route's
// statements with the route's parameters; for a search ranked by relevance its first statement, which
// counts and ranks the candidates: the page's posts by id follow it) alone in its database and among the
// 1,000,000 other posts,
// read straight from the local D1 files `npm run bench:read` seeded (node:sqlite, read-only). No Worker,
// no D1 round trip: what is left is the FTS5 work, so the comparison holds on a loaded machine far better
// than the route's latency does. Alternates alone / among for each of `--rounds` rounds and prints the
// median and the minimum of each (ms) and how much the database of others adds (docs/scaling.md).
import fs from "node:fs";
import path from "node:path";
import { integerOption, parseCommandLine, runMain, UsageError } from "../scripts/lib/cli.mjs";
import { openLocalD1 } from "../scripts/lib/local-d1.mjs";
import { ROOT } from "../scripts/lib/paths.mjs";
import { ascending, percentile } from "../scripts/lib/stats.mjs";
import { buildPostsQueries } from "../src/db/posts-query.ts";
import { CASES, DEFAULT_FILTERS } from "./read-cases.mjs";

const USAGE = `npm run bench:read-sql [-- --dir DIR --rounds N]
  --dir DIR    the many-workspace state of bench:read (default .bench/read/many-20x50000-small1000)
  --rounds N   statements per side and case (default 100)`;

// The search cases bench:read also runs in the many-workspace database.
const SEARCHES = CASES.filter((c) => c.group === "search" && c.many);

/** D1 binds a whole number as an INTEGER only when it fits; node:sqlite does so for a BigInt. */
const bindable = (params) => params.map((p) => (Number.isInteger(p) ? BigInt(p) : p));

function timeOf(stmt, params) {
  const started = performance.now();
  const rows = stmt.all(...params).length;
  return { ms: performance.now() - started, rows };
}

runMain(async () => {
  const { values } = parseCommandLine(process.argv.slice(2), {
    dir: { type: "string", default: path.join(ROOT, ".bench", "read", "many-20x50000-small1000") },
    rounds: { type: "string", default: "100" },
  });
  const rounds = integerOption("rounds", values.rounds, { min: 5, max: 10_000 });
  const manifest = path.join(values.dir, "targets.json");
  if (!fs.existsSync(manifest)) throw new UsageError(`no ${manifest}: run npm run bench:read -- --posts 0 first`);
  // The small workspace alone, and the same workspace in the 1,001,000-post database (bench:read's first two).
  const [alone, among] = JSON.parse(fs.readFileSync(manifest, "utf8"));
  const dbAlone = await openLocalD1(path.join(values.dir, path.basename(alone.dir)), { readOnly: true });
  const dbAmong = await openLocalD1(path.join(values.dir, path.basename(among.dir)), { readOnly: true });
  console.log(`${alone.label} vs ${among.label}: ${rounds} rounds, alternating (ms, SQLite only)`);
  for (const c of SEARCHES) {
    const filters = { ...DEFAULT_FILTERS, ...c.filters };
    const sides = [
      [dbAlone, alone.workspaceId],
      [dbAmong, among.workspaceId],
    ].map(([db, workspaceId]) => {
      const { page } = buildPostsQueries(workspaceId, filters);
      return { stmt: db.prepare(page.sql), params: bindable(page.params), ms: [], rows: 0 };
    });
    for (let i = 0; i < rounds; i++) {
      for (const side of sides) {
        const t = timeOf(side.stmt, side.params);
        side.ms.push(t.ms);
        side.rows = t.rows;
      }
    }
    const [a, m] = sides.map((s) => {
      const sorted = ascending(s.ms);
      return { p50: percentile(sorted, 50), min: sorted[0], rows: s.rows };
    });
    const pct = (x, y) => `${(((y - x) / x) * 100).toFixed(0)} %`;
    console.log(
      `  ${c.name.padEnd(26)} rows ${a.rows}/${m.rows}  alone p50 ${a.p50.toFixed(2)} min ${a.min.toFixed(2)}` +
        `  among p50 ${m.p50.toFixed(2)} min ${m.min.toFixed(2)}  difference p50 ${pct(a.p50, m.p50)}, min ${pct(a.min, m.min)}`,
    );
  }
  dbAlone.close();
  dbAmong.close();
}, USAGE);
