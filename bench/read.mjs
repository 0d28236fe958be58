#!/usr/bin/env node
// npm run bench:read [-- --posts N --samples N --port N --reuse --explain]
//
// Seeds a workspace of 100,000 posts into a private local state directory (.bench/read/), starts the local
// service on its own port, and for each filter, each sort and searches reports p50/p95 of GET /api/v1/posts
// beside (a) the same SQL run directly on the same SQLite file with node:sqlite (the route's one batch, built
// by src/db/posts-query.ts for the workspace; the key check before it is remembered per isolate) and (b) GET / on the same server in the same run, the
// local runtime's floor. Targets: p95 <= 50 ms, and p50 - floor <= 3 x raw SQL p50 + 2 ms.
// Only 127.0.0.1 is contacted; every loop is bounded by --samples.
import fs from "node:fs";
import path from "node:path";
import { EXIT_FAILED, integerOption, parseCommandLine, runMain } from "../scripts/lib/cli.mjs";
import { startDevServer, stopDevServer, waitUntilReady } from "../scripts/lib/dev-server.mjs";
import { ensureLocalDatabase, openLocalD1 } from "../scripts/lib/local-d1.mjs";
import { ROOT } from "../scripts/lib/paths.mjs";
import { seedWorkspace } from "../scripts/lib/seed-workspace.mjs";
import { ascending, percentile } from "../scripts/lib/stats.mjs";
import { queryLocalFile } from "../scripts/lib/wrangler.mjs";
import { buildPostsQueries } from "../src/db/posts-query.ts";

/** SQL literal of a bound value: NULL, a number, 0/1, or a single-quoted string. */
function sqlValue(value) {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "number") return String(value);
  if (typeof value === "boolean") return value ? "1" : "0";
  return `'${String(value).replaceAll("'", "''")}'`;
}

const USAGE = `usage: npm run bench:read [-- options]

  --posts N     posts in the benchmark workspace (default 100000)
  --samples N   timed requests per case, after 5 warm-up requests (default 60)
  --port N      port of the benchmark's own wrangler dev (default 8799)
  --reuse       keep and reuse .bench/read/ from an earlier run with the same --posts (skips seeding)
  --explain     also print SQLite's query plan of each case`;

const BENCH_DIR = path.join(ROOT, ".bench", "read");
const PERSIST_DIR = path.join(BENCH_DIR, "state");
const WORKSPACE_FILE = path.join(BENCH_DIR, "workspace.json");
const WARMUP = 5;
const FLOOR_SAMPLES_PER_CASE = 10;
const P95_TARGET_MS = 50;
const REQUEST_TIMEOUT_MS = 30_000;

/**
 * The cases: the query string the client sends and the filters the route derives from it (the route's
 * defaults: archived excluded, sort date desc, limit 100, offset 0). `keywordId` is filled in after seeding.
 */
const CASES = [
  { group: "default", name: "no filter (date desc)", query: "", filters: {} },
  { group: "filter", name: "keyword_id", query: "keyword_id={keywordId}", filters: { keywordId: "{keywordId}" } },
  { group: "filter", name: "subreddit", query: "subreddit=SaaS", filters: { subreddit: "SaaS" } },
  { group: "filter", name: "priority=high", query: "priority=high", filters: { priority: "high" } },
  { group: "filter", name: "answered_status=answered", query: "answered_status=answered", filters: { answered: true } },
  {
    group: "filter",
    name: "answered_status=unanswered",
    query: "answered_status=unanswered",
    filters: { answered: false },
  },
  { group: "filter", name: "has_competitors=true", query: "has_competitors=true", filters: { hasCompetitors: true } },
  {
    group: "filter",
    name: "has_competitors=false",
    query: "has_competitors=false",
    filters: { hasCompetitors: false },
  },
  {
    group: "filter",
    name: "include_archived=true",
    query: "include_archived=true",
    filters: { includeArchived: true },
  },
  { group: "sort", name: "sort_by=priority", query: "sort_by=priority", filters: { sortBy: "priority" } },
  { group: "sort", name: "sort_by=urgency", query: "sort_by=urgency", filters: { sortBy: "urgency" } },
  {
    group: "sort",
    name: "sort_by=date asc",
    query: "sort_by=date&sort_order=asc",
    filters: { sortBy: "date", sortOrder: "asc" },
  },
  { group: "sort", name: "sort_by=score", query: "sort_by=score", filters: { sortBy: "score" } },
  { group: "sort", name: "sort_by=comments", query: "sort_by=comments", filters: { sortBy: "comments" } },
  { group: "search", name: "search word (best match)", query: "search=mailchimp", filters: { search: "mailchimp" } },
  { group: "search", name: "search phrase", query: "search=%22open+rate%22", filters: { search: '"open rate"' } },
  {
    group: "search",
    name: "search prefix, by date",
    query: "search=deliver*&sort_by=date",
    filters: { search: "deliver*", sortBy: "date" },
  },
  {
    group: "combined",
    name: "priority+competitors+score",
    query: "priority=high&has_competitors=true&sort_by=score",
    filters: { priority: "high", hasCompetitors: true, sortBy: "score" },
  },
  { group: "paging", name: "offset=5000", query: "offset=5000", filters: { offset: 5000 } },
];

const DEFAULT_FILTERS = { includeArchived: false, sortOrder: "desc", limit: 100, offset: 0 };

function summarize(times) {
  const sorted = ascending(times);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
}

async function timeRequest(url, headers) {
  // One retry when a kept-alive connection went stale while this process ran raw SQL (it fails at once,
  // so it does not distort the timing of the attempt that counts).
  for (let attempt = 1; ; attempt++) {
    const started = performance.now();
    try {
      const res = await fetch(url, { headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      const body = await res.text();
      const ms = performance.now() - started;
      if (!res.ok) throw new Error(`${url} answered ${res.status}: ${body.slice(0, 300)}`);
      return { ms, body };
    } catch (err) {
      if (attempt >= 2 || !(err instanceof TypeError))
        throw new Error(`GET ${url}: ${err.message}${err.cause ? ` (${err.cause.code ?? err.cause.message})` : ""}`);
    }
  }
}

async function sampleHttp(url, headers, samples) {
  for (let i = 0; i < WARMUP; i++) await timeRequest(url, headers);
  const times = [];
  let last;
  for (let i = 0; i < samples; i++) {
    const { ms, body } = await timeRequest(url, headers);
    times.push(ms);
    last = body;
  }
  return { ...summarize(times), body: JSON.parse(last) };
}

/**
 * The route's batch, run statement by statement as D1 runs a batch: the page, and the count unless the page
 * carries it (searches: `total_count` on every row). The key lookup is not in it: the route checks the key
 * before (src/auth/check.ts), and an isolate remembers a key for a few seconds, so in a run of requests
 * with one key it is read once.
 */
function sampleSql(db, statements, countInPage, samples) {
  const [page, count] = statements.map((s) => {
    const stmt = db.prepare(s.sql);
    return () => stmt.all(...s.params);
  });
  const run = () => {
    const rows = page();
    const total = countInPage ? (rows[0]?.total_count ?? 0) : count()[0].count;
    return { rows: rows.length, total };
  };
  for (let i = 0; i < WARMUP; i++) run();
  const times = [];
  let result;
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    result = run();
    times.push(performance.now() - started);
  }
  return { ...summarize(times), ...result };
}

/** The statement with its parameters written in as literals (`wrangler d1 execute` takes no bindings). */
const inlined = (built) => {
  let i = 0;
  return built.sql.replace(/\?/g, () => sqlValue(built.params[i++]));
};

const nodePlan = (db, built) =>
  db
    .prepare(`EXPLAIN QUERY PLAN ${inlined(built)}`)
    .all()
    .map((r) => r.detail);

/**
 * The query plans the service's own SQLite (workerd's) chooses for each statement, asked through wrangler
 * in one go. node:sqlite may bundle another SQLite version whose planner decides differently.
 */
async function workerdPlans(statements) {
  const file = path.join(BENCH_DIR, "plans.sql");
  fs.writeFileSync(file, statements.map((built) => `EXPLAIN QUERY PLAN ${inlined(built)};`).join("\n"));
  const results = await queryLocalFile(file, { persistTo: PERSIST_DIR });
  return results.map((rows) => rows.map((r) => r.detail));
}

const samePlan = (a, b) => a.length === b.length && a.every((detail, i) => detail === b[i]);

/**
 * The statements to time directly: the route's own. The note says when node:sqlite's planner would run one
 * of them with another plan than workerd's (the route pins the FTS order itself with `CROSS JOIN`).
 */
function rawStatements(db, built, workerd) {
  const same = built.every((b, i) => samePlan(nodePlan(db, b), workerd[i]));
  return { statements: built, note: same ? "" : "plan differs" };
}

async function prepareWorkspace({ posts, reuse }) {
  if (reuse && fs.existsSync(WORKSPACE_FILE)) {
    const saved = JSON.parse(fs.readFileSync(WORKSPACE_FILE, "utf8"));
    if (saved.posts === posts) {
      console.log(`reusing the seeded workspace in ${path.relative(ROOT, BENCH_DIR)} (${posts} posts)`);
      // Migrations added since it was seeded (an index, say) are applied to it first.
      if (await ensureLocalDatabase(PERSIST_DIR)) console.log("applied the migrations it lacked");
      return saved;
    }
  }
  fs.rmSync(BENCH_DIR, { recursive: true, force: true });
  fs.mkdirSync(BENCH_DIR, { recursive: true });
  await ensureLocalDatabase(PERSIST_DIR);
  console.log(`seeding ${posts} posts into ${path.relative(ROOT, PERSIST_DIR)} ...`);
  // One read key per case (and one for the reference route): the API allows 600 requests a minute per key.
  const { workspaceId, keys, seconds } = await seedWorkspace({
    name: "Read benchmark",
    posts,
    persistTo: PERSIST_DIR,
    extraReadKeys: CASES.length + 1,
    seed: 20261122,
  });
  console.log(`seeded in ${seconds.toFixed(1)} s`);
  const db = await openLocalD1(PERSIST_DIR, { readOnly: true });
  const keyword = db
    .prepare("SELECT id FROM keywords WHERE workspace_id = ? AND keyword = 'email marketing'")
    .get(workspaceId);
  db.close();
  const saved = { posts, workspaceId, keywordId: Number(keyword.id), keys: keys.slice(2) };
  fs.writeFileSync(WORKSPACE_FILE, JSON.stringify(saved));
  return saved;
}

const fmt = (ms) => ms.toFixed(1).padStart(6);

runMain(async () => {
  const { values } = parseCommandLine(process.argv.slice(2), {
    posts: { type: "string", default: "100000" },
    samples: { type: "string", default: "60" },
    port: { type: "string", default: "8799" },
    reuse: { type: "boolean", default: false },
    explain: { type: "boolean", default: false },
  });
  const posts = integerOption("posts", values.posts, { min: 1, max: 1_000_000 });
  const samples = integerOption("samples", values.samples, { min: 5, max: 500 });
  const port = integerOption("port", values.port, { min: 1024, max: 65535 });

  const ws = await prepareWorkspace({ posts, reuse: values.reuse });
  const cases = await Promise.all(
    CASES.map(async (c, index) => {
      const filters = { ...DEFAULT_FILTERS, ...c.filters };
      if (filters.keywordId === "{keywordId}") filters.keywordId = ws.keywordId;
      // Exactly what the route sends in its one batch for the key's workspace (src/db/posts.ts).
      const key = ws.keys[index];
      const { page, count, countInPage } = buildPostsQueries(ws.workspaceId, filters);
      const built = [page, ...(countInPage ? [] : [count])];
      return { ...c, key, query: c.query.replace("{keywordId}", String(ws.keywordId)), built, countInPage };
    }),
  );
  console.log("asking workerd's SQLite for its query plans ...");
  const plans = await workerdPlans(cases.flatMap((c) => c.built));
  const db = await openLocalD1(PERSIST_DIR, { readOnly: true });
  let planIndex = 0;
  for (const c of cases) {
    c.workerdPlan = plans.slice(planIndex, planIndex + c.built.length);
    planIndex += c.built.length;
    Object.assign(c, rawStatements(db, c.built, c.workerdPlan));
    if (values.explain) {
      console.log(`  ${c.name}${c.note ? ` (${c.note})` : ""}`);
      const labels = [c.countInPage ? "page+count" : "page", "count"];
      for (const [j, label] of labels.slice(0, c.built.length).entries()) {
        console.log(`    ${label}, workerd: ${c.workerdPlan[j].join(" | ")}`);
        console.log(`    ${label}, node:    ${nodePlan(db, c.statements[j]).join(" | ")}`);
      }
    }
  }

  const origin = `http://127.0.0.1:${port}`;
  console.log(`starting the local service on ${origin} ...`);
  const server = startDevServer({
    port,
    ip: "127.0.0.1",
    persistTo: PERSIST_DIR,
    extraArgs: ["--log-level", "warn"],
    capture: true,
  });
  const rows = [];
  const floorTimes = [];
  let keywordsRoute;
  try {
    await waitUntilReady(server, `${origin}/`);
    for (let i = 0; i < WARMUP * 4; i++) await timeRequest(`${origin}/`, {});

    for (const c of cases) {
      // The floor is sampled between the cases, so it sees the same server state over the whole run.
      for (let i = 0; i < FLOOR_SAMPLES_PER_CASE; i++) floorTimes.push((await timeRequest(`${origin}/`, {})).ms);
      const http = await sampleHttp(
        `${origin}/api/v1/posts${c.query ? `?${c.query}` : ""}`,
        { authorization: `Bearer ${c.key}` },
        samples,
      );
      const sql = sampleSql(db, c.statements, c.countInPage, samples);
      // The service and the raw statements must agree, or the comparison would be meaningless.
      if (http.body.count !== sql.total || http.body.data.length !== sql.rows) {
        throw new Error(
          `case "${c.name}": the API returned count ${http.body.count} (${http.body.data.length} rows), the raw SQL ${sql.total} (${sql.rows} rows)`,
        );
      }
      rows.push({ ...c, http, sql });
    }
    // Reference: what the key check, the rate limiter and one tiny query cost, without the posts query.
    keywordsRoute = await sampleHttp(
      `${origin}/api/v1/keywords`,
      { authorization: `Bearer ${ws.keys.at(-1)}` },
      samples,
    );
  } finally {
    db.close();
    await stopDevServer(server);
  }

  const floor = summarize(floorTimes);
  const header = `${"case".padEnd(32)} ${"count".padStart(6)}  ${"p50".padStart(6)} ${"p95".padStart(6)}  ${"sql p50".padStart(7)}  ${"p50-floor".padStart(9)} ${"budget".padStart(6)}  result`;
  const lines = [header, "-".repeat(header.length)];
  let failures = 0;
  for (const r of rows) {
    const overhead = r.http.p50 - floor.p50;
    const budget = 3 * r.sql.p50 + 2;
    const misses = [];
    if (r.http.p95 > P95_TARGET_MS) misses.push(`p95>${P95_TARGET_MS}`);
    if (overhead > budget) misses.push("overhead");
    if (misses.length > 0) failures++;
    lines.push(
      `${`${r.group}: ${r.name}${r.note ? " !" : ""}`.padEnd(32)} ${String(r.http.body.count).padStart(6)}  ${fmt(r.http.p50)} ${fmt(r.http.p95)}  ${fmt(r.sql.p50).padStart(7)}  ${fmt(overhead).padStart(9)} ${fmt(budget)}  ${misses.length ? `FAIL (${misses.join(", ")})` : "pass"}`,
    );
  }
  console.log(
    `\nGET /api/v1/posts, ${posts} posts, ${samples} sequential requests per case after ${WARMUP} warm-up, limit 100 (ms)`,
  );
  console.log(
    `floor: GET / on the same server, ${floorTimes.length} requests: p50 ${floor.p50.toFixed(1)} ms, p95 ${floor.p95.toFixed(1)} ms`,
  );
  console.log(
    `reference: GET /api/v1/keywords (key check, rate limit, one small query): p50 ${keywordsRoute.p50.toFixed(1)} ms, p95 ${keywordsRoute.p95.toFixed(1)} ms`,
  );
  console.log(`targets: p95 <= ${P95_TARGET_MS} ms; p50 - floor <= 3 x sql p50 + 2 ms (budget)\n`);
  console.log(lines.join("\n"));
  if (rows.some((r) => r.note === "plan differs"))
    console.log(" ! node:sqlite's plan differs from workerd's for this case (see --explain)");
  console.log(`\n${rows.length - failures} of ${rows.length} cases meet both targets`);
  return failures > 0 ? EXIT_FAILED : 0;
}, USAGE);
