#!/usr/bin/env node
// npm run bench:insights [-- --posts N --samples N --port N --reuse]
//
// GET /api/v1/insights/mentions and /insights/opportunities on one workspace of --posts stored posts
// (default 100,000, the synthetic seed: 120 days of history), against the service (wrangler dev) and the
// read benchmark's bare Worker (bench/bare/worker.ts) bound to the same local D1 state, which runs the very
// functions the routes run (src/db/insights.ts) and answers the rows D1 read for them (`meta.rows_read`).
// For every case it prints the route's p50/p95 and the rows read, against a page of GET /posts (no filter,
// limit 100) in the same workspace, and what counting the same mentions from the posts and their links
// would read instead of from the day counts (mention_days). Target: a case reads no more rows than that
// page of GET /posts. Only 127.0.0.1 is contacted; every loop is bounded by --samples.
import fs from "node:fs";
import path from "node:path";
import { EXIT_FAILED, integerOption, parseCommandLine, runMain } from "../scripts/lib/cli.mjs";
import { startDevServer, stopDevServer, waitUntilReady } from "../scripts/lib/dev-server.mjs";
import { ensureLocalDatabase } from "../scripts/lib/local-d1.mjs";
import { ROOT } from "../scripts/lib/paths.mjs";
import { withSeeder } from "../scripts/lib/seed-runner.mjs";
import { ascending, percentile } from "../scripts/lib/stats.mjs";
import { DEFAULT_FILTERS } from "./read-cases.mjs";

const USAGE = `usage: npm run bench:insights [-- options]

  --posts N     stored posts of the workspace (default 100000)
  --samples N   timed requests per case, after 3 warm-up requests (default 30)
  --port N      port of the service's wrangler dev; the bare Worker listens on N+1 (default 8850)
  --reuse       reuse the database in .bench/insights/ seeded by an earlier run with the same size`;

const BENCH_DIR = path.join(ROOT, ".bench", "insights");
const BARE_CONFIG = path.join(ROOT, "bench", "bare", "wrangler.toml");
const SEED = 20261202;
const DAY_MS = 86_400_000;

async function getJson(url, headers = {}) {
  const started = performance.now();
  const res = await fetch(url, { headers, signal: AbortSignal.timeout(60_000) });
  const body = await res.text();
  const ms = performance.now() - started;
  if (!res.ok) throw new Error(`${url} answered ${res.status}: ${body.slice(0, 300)}`);
  return { ms, body: JSON.parse(body) };
}

async function timed(url, headers, samples) {
  for (let i = 0; i < 3; i++) await getJson(url, headers);
  const times = [];
  let body;
  for (let i = 0; i < samples; i++) {
    const r = await getJson(url, headers);
    times.push(r.ms);
    body = r.body;
  }
  const sorted = ascending(times);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), body };
}

async function prepare(posts, reuse) {
  const dir = path.join(BENCH_DIR, `single-${posts}`);
  const manifest = path.join(dir, "target.json");
  if (reuse && fs.existsSync(manifest)) {
    console.log(`reusing ${path.relative(ROOT, dir)}`);
    await ensureLocalDatabase(dir);
    return { dir, ...JSON.parse(fs.readFileSync(manifest, "utf8")) };
  }
  fs.rmSync(dir, { recursive: true, force: true });
  await ensureLocalDatabase(dir);
  console.log(`seeding one workspace of ${posts} posts ...`);
  const started = performance.now();
  const seeded = await withSeeder(dir, (s) =>
    s.seed({ name: "Insights benchmark", posts, seed: SEED, key_label: "bench", extra_read_keys: 0 }),
  );
  console.log(`  seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const target = { workspaceId: seeded.workspace_id, key: seeded.keys[1] };
  fs.writeFileSync(manifest, JSON.stringify(target));
  return { dir, ...target };
}

const CASES = [
  { group_by: "keyword", interval: "week" },
  { group_by: "competitor", interval: "week" },
  { group_by: "subreddit", interval: "week" },
  { group_by: "keyword", interval: "day" },
  { group_by: "keyword", interval: "day", days: 366 },
];

/** The statement a scan would run: the same mentions counted from the posts and their links. */
const scanSql = (kind) =>
  kind === "subreddit"
    ? "SELECT substr(p.created_utc, 1, 10) AS day, p.subreddit, count(*) FROM posts p WHERE p.workspace_id = ? AND p.created_utc >= ? AND p.created_utc < ? GROUP BY 1, 2"
    : `SELECT substr(p.created_utc, 1, 10) AS day, l.${kind}_id, count(*) FROM post_${kind}s l JOIN posts p ON p.id = l.post_id WHERE p.workspace_id = ? AND p.created_utc >= ? AND p.created_utc < ? GROUP BY 1, 2`;

runMain(async () => {
  const { values } = parseCommandLine(process.argv.slice(2), {
    posts: { type: "string", default: "100000" },
    samples: { type: "string", default: "30" },
    port: { type: "string", default: "8850" },
    reuse: { type: "boolean", default: false },
  });
  const posts = integerOption("posts", values.posts, { min: 1, max: 1_000_000 });
  const samples = integerOption("samples", values.samples, { min: 5, max: 500 });
  const port = integerOption("port", values.port, { min: 1024, max: 65534 });
  const target = await prepare(posts, values.reuse);
  const origin = `http://127.0.0.1:${port}`;
  const bareOrigin = `http://127.0.0.1:${port + 1}`;
  const common = ["--log-level", "warn", "--inspector-port", "0"];
  const service = startDevServer({ port, ip: "127.0.0.1", persistTo: target.dir, extraArgs: common, capture: true });
  const bare = startDevServer({
    port: port + 1,
    ip: "127.0.0.1",
    persistTo: target.dir,
    extraArgs: ["--config", BARE_CONFIG, ...common],
    capture: true,
  });
  const auth = { authorization: `Bearer ${target.key}` };
  const ws = target.workspaceId;
  let failures = 0;
  try {
    // Two wrangler dev processes on a loaded machine: allow them 5 minutes to answer.
    await Promise.all([
      waitUntilReady(service, `${origin}/`, 300_000),
      waitUntilReady(bare, `${bareOrigin}/`, 300_000),
    ]);
    const page = await getJson(`${bareOrigin}/posts?ws=${ws}&f=${encodeURIComponent(JSON.stringify(DEFAULT_FILTERS))}`);
    const budget = page.body.rows_read;
    const route = await timed(`${origin}/api/v1/posts`, auth, samples);
    console.log(`\none workspace, ${posts} posts; ${samples} requests per case (ms)`);
    console.log(
      `GET /posts (no filter, limit 100): p50 ${route.p50.toFixed(1)}, p95 ${route.p95.toFixed(1)}, rows read ${budget}`,
    );
    const header = `${"case".padEnd(34)} ${"p50".padStart(6)} ${"p95".padStart(6)} ${"rows read".padStart(9)} ${"scan would read".padStart(15)}  result`;
    console.log(`\n${header}\n${"-".repeat(header.length)}`);
    const now = Date.now();
    for (const c of CASES) {
      const days = c.days ?? 90;
      const since = new Date(now - days * DAY_MS).toISOString();
      const query = `group_by=${c.group_by}&interval=${c.interval}&since=${since}&until=${new Date(now).toISOString()}`;
      const r = await timed(`${origin}/api/v1/insights/mentions?${query}`, auth, samples);
      const from = r.body.since.slice(0, 10);
      const to = r.body.until.slice(0, 10);
      const read = (await getJson(`${bareOrigin}/insights/mentions?ws=${ws}&kind=${c.group_by}&from=${from}&to=${to}`))
        .body.rows_read;
      const scanParams = encodeURIComponent(JSON.stringify([ws, r.body.since, r.body.until]));
      const scan = (await getJson(`${bareOrigin}/sql?q=${encodeURIComponent(scanSql(c.group_by))}&p=${scanParams}`))
        .body.rows_read;
      const ok = read <= budget;
      if (!ok) failures++;
      const name = `mentions ${c.group_by}/${c.interval}, ${days} d`;
      console.log(
        `${name.padEnd(34)} ${r.p50.toFixed(1).padStart(6)} ${r.p95.toFixed(1).padStart(6)} ${String(read).padStart(9)} ${String(scan).padStart(15)}  ${ok ? "pass" : `FAIL (rows>${budget})`}`,
      );
    }
    for (const offset of [0, 1000]) {
      const r = await timed(`${origin}/api/v1/insights/opportunities?limit=100&offset=${offset}`, auth, samples);
      const read = (await getJson(`${bareOrigin}/insights/opportunities?ws=${ws}&limit=100&offset=${offset}`)).body
        .rows_read;
      const ok = read <= budget + offset;
      if (!ok) failures++;
      const name = `opportunities limit 100 offset ${offset}`;
      console.log(
        `${name.padEnd(34)} ${r.p50.toFixed(1).padStart(6)} ${r.p95.toFixed(1).padStart(6)} ${String(read).padStart(9)} ${"".padStart(15)}  ${ok ? "pass" : `FAIL (rows>${budget + offset})`} (count ${r.body.count})`,
      );
    }
  } finally {
    await Promise.all([stopDevServer(service), stopDevServer(bare)]);
  }
  console.log(
    `\nrows read: D1 meta.rows_read of the route's statements (the bare Worker runs the same functions); target: at most the GET /posts page's (plus the offset, for a deep page of opportunities)`,
  );
  return failures > 0 ? EXIT_FAILED : 0;
}, USAGE);
