#!/usr/bin/env node
// npm run bench:monitor -- [--workspaces 100,1000,10000] [--factor N] [--planted N] [--decoys N]
//   [--plant-minutes N] [--tail-minutes N] [--sample N] [--poll-ms N] [--port N] [--forum-port N]
// The whole-forum ingester measured against the local forum at its peak rates (1,450 posts and 7,500
// comments a minute), with today's per-workspace search beside it on the same workload: one column per
// workspace count, each workspace tracking 20 terms (bench/monitor-world.mjs). Each column is its own fresh
// wrangler dev (bench/monitor-size.mjs). Only 127.0.0.1 is contacted. Prints figures; asserts nothing.
import os from "node:os";
import { integerOption, parseCommandLine, runMain, UsageError } from "../scripts/lib/cli.mjs";
import { ascending, percentile } from "../scripts/lib/stats.mjs";
import { measureSize, TAIL_MINUTES } from "./monitor-size.mjs";

const USAGE = `usage: npm run bench:monitor -- [options]

  --workspaces LIST   workspace counts, one column each (default 100,1000,10000); 20 terms each
  --factor N          the forum's clock runs N times faster than real time (default 2); the ingester's
                      alarm follows the forum's clock (bench/monitor-worker.ts)
  --planted N         relevant posts planted per column (default 1000; 20 % visible 60-600 s late)
  --decoys N          decoys planted per column (default 300)
  --plant-minutes N   forum minutes over which they are planted (default 20)
  --tail-minutes N    forum minutes measured after the last one (default 32: a post visible 600 s late is
                      asked again 30 minutes after its first ask; shorter leaves late posts unlisted)
  --sample N          workspaces with keys: the per-workspace search's sample, GET /posts polled (default 100)
  --poll-ms N         real milliseconds between GET /posts polls (default 500)
  --port N            the temporary wrangler dev (default 8842)
  --forum-port N      the local forum's token endpoint (default 8843; its other origins 18101-18103)`;

/** The per-workspace design searches every workspace's terms once every this many minutes (the cron). */
const ROUND_MINUTES = 10;
const LIMIT_PER_MINUTE = 100;

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
const pct = (values, p) => (values.length ? percentile(ascending(values), p) : undefined);
const num = (n, digits = 0) =>
  n === undefined || Number.isNaN(n)
    ? "-"
    : n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const share = (found, of) => (of ? `${((100 * found) / of).toFixed(2)} % (${found}/${of})` : "-");
const s = (values) => `${num(pct(values, 50))} / ${num(pct(values, 95))} s (${values.length})`;

/** The table's rows: a label, then one cell per column. */
function rows(results) {
  const r = (label, cell) => [label, ...results.map(cell)];
  const req = (cat) => (x) => `${num(x.requests[cat].max)} / ${num(x.requests[cat].mean, 1)}`;
  const old = (x) => (x.old.perWorkspace * x.W) / ROUND_MINUTES;
  return [
    r("terms compiled (distinct)", (x) => `${num(x.matcher.terms)} (${num(x.matcher.distinct)})`),
    r("seed, ingester's first 3 rounds (real s)", (x) => `${num(x.seedSeconds, 1)}, ${num(x.warmSeconds)}`),
    r("forum minutes measured", (x) => num(x.minutes, 1)),
    r("ingester rounds logged, real s p50 / p95 / max", (x) => {
      const ms = x.rounds.map((c) => c.real_ms / 1000);
      return `${x.rounds.length}: ${num(pct(ms, 50), 1)} / ${num(pct(ms, 95), 1)} / ${num(Math.max(...ms), 1)}`;
    }),
    r("  posts, comments read a round p50", (x) =>
      [x.rounds.map((c) => c.posts), x.rounds.map((c) => c.comments)].map((v) => num(pct(v, 50))).join(", "),
    ),
    ["forum requests a forum minute, max / mean:", ...results.map(() => "")],
    r("  posts walk (target <= 20)", req("posts")),
    r("  of which head reads (= rounds)", req("head")),
    r("  comments walk", req("comments")),
    r("  refresh", req("refresh")),
    r("  backfill search", req("search")),
    r("  total (limit 100 = 1,000/600 s)", req("total")),
    r("planted posts (workspace pairs)", (x) => `${num(x.recall.posts)} (${num(x.recall.pairs)})`),
    r("recall, all pairs (target >= 99.9 %)", (x) => share(x.recall.found, x.recall.pairs)),
    r("  visible at once", (x) => share(x.recall.onTime[1], x.recall.onTime[0])),
    r("  visible 60-600 s late", (x) => share(x.recall.late[1], x.recall.late[0])),
    r("decoys planted / stored (target 0)", (x) => `${x.decoys.planted} / ${x.decoys.stored}`),
    ["first seen -> listed by GET /posts, p50 / p95 (forum s):", ...results.map(() => "")],
    r("  visible at once (target p95 <= 90)", (x) => s(x.listed.onTime)),
    r("  visible late", (x) => s(x.listed.late)),
    r("  all planted, to row written (D1 time)", (x) => s(x.listed.written)),
    r("  the polled ones visible at once, to row written", (x) => s(x.listed.trackedWritten)),
    r("  GET /posts polls, real ms p50 / p95 (count)", (x) =>
      x.pollMs.length ? `${num(pct(x.pollMs, 50))} / ${num(pct(x.pollMs, 95))} (${num(x.pollMs.length)})` : "-",
    ),
    r("matcher in workerd: compile (s)", (x) => num(x.matcher.compile_ms / 1000, 1)),
    r("  per post p50 / p95 / max (us)", (x) => {
      const ms = x.matcher.posts.map((p) => p.ms * 1000);
      return `${num(pct(ms, 50), 1)} / ${num(pct(ms, 95), 1)} / ${num(Math.max(...ms), 1)}`;
    }),
    r("  first match of a post p95 (us)", (x) =>
      num(
        pct(
          x.matcher.posts.map((p) => p.first_ms * 1000),
          95,
        ),
        0,
      ),
    ),
    r("  patterns tested per post p95", (x) =>
      num(
        pct(
          x.matcher.posts.map((p) => p.tested),
          95,
        ),
      ),
    ),
    r("  check: relevant missed, decoys matched", (x) => `${x.matcher.relevantMissed}, ${x.matcher.decoysMatched}`),
    r("D1 rows added per matched item", (x) =>
      x.rows.items ? `${num(x.rows.total / x.rows.items, 2)} (${num(x.rows.total)} rows / ${num(x.rows.items)})` : "-",
    ),
    ["today's per-workspace search (POST /actions/monitoring/run):", ...results.map(() => "")],
    r(
      "  workspaces measured, status",
      (x) =>
        `${x.old.sampled}, ${Object.entries(x.old.statuses)
          .map(([k, v]) => `${k} ${v}`)
          .join(" ")}`,
    ),
    r("  forum requests per workspace pass", (x) => num(x.old.perWorkspace, 2)),
    r(
      `  requests a minute, a pass every ${ROUND_MINUTES} min`,
      (x) => `${num(old(x), 1)}${x.old.sampled < x.W ? " (extrapolated)" : ""}`,
    ),
    r("  ratio: per-workspace / ingester total", (x) => `${num(old(x) / x.requests.total.mean, 2)} x`),
    r(`  within the limit (${LIMIT_PER_MINUTE}/min)?`, (x) => (old(x) <= LIMIT_PER_MINUTE ? "yes" : "no")),
    r("  recall of its planted posts", (x) => share(x.old.found, x.old.planted)),
    r("  decoys stored", (x) => `${x.old.decoysStored} of ${x.old.decoys}`),
  ];
}

function printTable(results) {
  const header = ["workspaces × 20 terms", ...results.map((x) => num(x.W))];
  const all = [header, ...rows(results)];
  const widths = header.map((_, i) => Math.max(...all.map((row) => String(row[i]).length)));
  const line = (row) => `| ${row.map((c, i) => String(c).padEnd(widths[i])).join(" | ")} |`;
  console.log(line(header));
  console.log(`| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`);
  for (const row of all.slice(1)) console.log(line(row));
}

runMain(async () => {
  const { values } = parseCommandLine(process.argv.slice(2), {
    workspaces: { type: "string", default: "100,1000,10000" },
    factor: { type: "string", default: "2" },
    planted: { type: "string", default: "1000" },
    decoys: { type: "string", default: "300" },
    "plant-minutes": { type: "string", default: "20" },
    "tail-minutes": { type: "string", default: String(TAIL_MINUTES) },
    sample: { type: "string", default: "100" },
    "poll-ms": { type: "string", default: "500" },
    port: { type: "string", default: "8842" },
    "forum-port": { type: "string", default: "8843" },
  });
  const sizes = values.workspaces.split(",").map((v) => integerOption("workspaces", v.trim(), { min: 1, max: 20_000 }));
  if (sizes.length === 0) throw new UsageError("--workspaces needs at least one count");
  const forumPort = integerOption("forum-port", values["forum-port"], { min: 1, max: 65535 });
  const o = {
    factor: integerOption("factor", values.factor, { min: 1, max: 60 }),
    planted: integerOption("planted", values.planted, { min: 1, max: 20_000 }),
    decoys: integerOption("decoys", values.decoys, { min: 0, max: 20_000 }),
    plantMinutes: integerOption("plant-minutes", values["plant-minutes"], { min: 1, max: 240 }),
    tailMinutes: integerOption("tail-minutes", values["tail-minutes"], { min: 0, max: 240 }),
    sample: integerOption("sample", values.sample, { min: 1, max: 1000 }),
    pollMs: integerOption("poll-ms", values["poll-ms"], { min: 50, max: 60_000 }),
    port: integerOption("port", values.port, { min: 1, max: 65535 }),
    forumPorts: { www: forumPort, api: 18101, site: 18102, upload: 18103 },
    matcherPort: 18104,
    inspectorPort: 18105,
    say: (line) => console.log(line),
  };
  console.log(
    `machine: ${os.cpus().length} cores, load average ${load()} at the start (shared with other work); forum clock ×${o.factor}`,
  );
  const results = [];
  for (const W of sizes) {
    const started = performance.now();
    results.push(await measureSize(W, o));
    console.log(
      `  ${W} workspaces measured in ${((performance.now() - started) / 60_000).toFixed(1)} min (real); load ${load()}`,
    );
  }
  console.log(
    `\nforum clock ×${o.factor} (the ingester's alarm, walk retries and quota follow it: bench/monitor-worker.ts); ` +
      `MONITOR_INGEST_INTERVAL_S 30 forum seconds; ${o.planted} relevant posts and ${o.decoys} decoys planted per column over ` +
      `${o.plantMinutes} forum minutes and measured ${o.tailMinutes} more; GET /posts polled every ${o.pollMs} ms real (${((o.pollMs * o.factor) / 1000).toFixed(1)} forum s) for the sampled workspaces' posts\n`,
  );
  printTable(results);
  for (const x of results)
    console.log(
      `\nD1 rows added, ${num(x.W)} workspaces: ${x.rows.tables.map(([n, k]) => `${n} ${num(k)}`).join(", ")}`,
    );
  console.log(`\nload average at the end: ${load()}`);
}, USAGE);
