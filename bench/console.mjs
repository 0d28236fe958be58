#!/usr/bin/env node
// npm run bench:console [-- --posts N --samples N --port N --reuse]
//
// The console's inbox against the API it shows: seeds a workspace of 100,000 posts into a private local state
// directory (.bench/console/), starts the local service on its own port, signs in to the console with the
// workspace's read_write key, and for each case reports p50/p95 of GET /app/posts?<query> (the rendered page)
// beside GET /api/v1/posts?<query>&limit=25 (the same page as JSON; the console shows 25 posts a page) and
// GET / (the local runtime's floor), measured like bench:read: sequential requests over keep-alive from this
// process. Target: inbox p50 - floor <= 2 x (API p50 - floor). Only 127.0.0.1 is contacted.
import fs from "node:fs";
import path from "node:path";
import { EXIT_FAILED, integerOption, parseCommandLine, runMain } from "../scripts/lib/cli.mjs";
import { startDevServer, stopDevServer, waitUntilReady } from "../scripts/lib/dev-server.mjs";
import { ensureLocalDatabase } from "../scripts/lib/local-d1.mjs";
import { ROOT } from "../scripts/lib/paths.mjs";
import { seedWorkspace } from "../scripts/lib/seed-workspace.mjs";
import { ascending, percentile } from "../scripts/lib/stats.mjs";

const USAGE = `usage: npm run bench:console [-- options]

  --posts N     posts in the benchmark workspace (default 100000)
  --samples N   timed requests per case and door, after 5 warm-up requests (default 40)
  --port N      port of the benchmark's own wrangler dev (default 8882)
  --inspector-port N   its DevTools inspector port (default 9239)
  --reuse       keep and reuse .bench/console/ from an earlier run with the same --posts (skips seeding)`;

const BENCH_DIR = path.join(ROOT, ".bench", "console");
const PERSIST_DIR = path.join(BENCH_DIR, "state");
const WORKSPACE_FILE = path.join(BENCH_DIR, "workspace.json");
const WARMUP = 5;
const PAGE = 25;
const SESSION_KEY = "YmVuY2gtY29uc29sZS1zZXNzaW9uLWtleS0zMi1ieXRlcw==";
const TARGET_RATIO = 2;

const CASES = [
  { name: "no filter (date desc)", query: "" },
  { name: "priority=high", query: "priority=high" },
  { name: "answered_status=unanswered, sort priority", query: "answered_status=unanswered&sort_by=priority" },
  { name: "search (best match)", query: "search=deliverability" },
  { name: "deep page (offset=5000)", query: "offset=5000" },
];

async function timed(url, init) {
  const started = performance.now();
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
  const body = await res.text();
  const ms = performance.now() - started;
  if (!res.ok) throw new Error(`${url} answered ${res.status}: ${body.slice(0, 300)}`);
  return { ms, body };
}

async function sample(url, init, samples) {
  for (let i = 0; i < WARMUP; i++) await timed(url, init);
  const times = [];
  let last;
  for (let i = 0; i < samples; i++) {
    const { ms, body } = await timed(url, init);
    times.push(ms);
    last = body;
  }
  const sorted = ascending(times);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), body: last };
}

/** Signs in like a browser: the sign-in form's cookie and CSRF token, then the key; returns the cookie header. */
async function signIn(base, key) {
  const form = await fetch(`${base}/app/sign-in`);
  const signinCookie = form.headers.getSetCookie().map((c) => c.split(";")[0]);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1];
  const res = await fetch(`${base}/app/sign-in`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: signinCookie.join("; "), "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ _csrf: csrf ?? "", api_key: key, next: "/app/posts" }),
  });
  const session = res.headers.getSetCookie().find((c) => c.startsWith("tw_console="));
  if (res.status !== 303 || !session) throw new Error(`console sign-in failed: ${res.status}`);
  return session.split(";")[0];
}

async function prepareWorkspace({ posts, reuse }) {
  if (reuse && fs.existsSync(WORKSPACE_FILE)) {
    const saved = JSON.parse(fs.readFileSync(WORKSPACE_FILE, "utf8"));
    if (saved.posts === posts) {
      console.log(`reusing the seeded workspace in ${path.relative(ROOT, BENCH_DIR)} (${posts} posts)`);
      if (await ensureLocalDatabase(PERSIST_DIR)) console.log("applied the migrations it lacked");
      return saved;
    }
  }
  fs.rmSync(BENCH_DIR, { recursive: true, force: true });
  fs.mkdirSync(PERSIST_DIR, { recursive: true });
  await ensureLocalDatabase(PERSIST_DIR);
  console.log(`seeding ${posts} posts into ${path.relative(ROOT, BENCH_DIR)} ...`);
  const { workspaceId, keys, seconds } = await seedWorkspace({ name: "bench console", posts, persistTo: PERSIST_DIR });
  console.log(`seeded in ${seconds.toFixed(1)} s`);
  const saved = { posts, workspaceId, key: keys[0] };
  fs.writeFileSync(WORKSPACE_FILE, JSON.stringify(saved));
  return saved;
}

const fmt = (n) => n.toFixed(1).padStart(7);

runMain(async () => {
  const { values } = parseCommandLine(process.argv.slice(2), {
    posts: { type: "string", default: "100000" },
    samples: { type: "string", default: "40" },
    port: { type: "string", default: "8882" },
    "inspector-port": { type: "string", default: "9239" },
    reuse: { type: "boolean", default: false },
  });
  const posts = integerOption("posts", values.posts, { min: 1, max: 1_000_000 });
  const samples = integerOption("samples", values.samples, { min: 1, max: 10_000 });
  const port = integerOption("port", values.port, { min: 1, max: 65535 });
  const workspace = await prepareWorkspace({ posts, reuse: values.reuse });

  const base = `http://127.0.0.1:${port}`;
  const server = startDevServer({
    port,
    ip: "127.0.0.1",
    persistTo: PERSIST_DIR,
    capture: true,
    vars: { SESSION_KEY },
    extraArgs: [
      "--inspector-port",
      String(integerOption("inspector-port", values["inspector-port"], { min: 1, max: 65535 })),
    ],
  });
  let failed = false;
  try {
    await waitUntilReady(server, `${base}/`);
    const cookie = await signIn(base, workspace.key);
    console.log(`\ninbox (GET /app/posts) vs API (GET /api/v1/posts, limit=${PAGE}), ${samples} samples, ms`);
    console.log(
      "case                                        | inbox p50   p95 | api p50     p95 | floor | ratio | verdict",
    );
    for (const c of CASES) {
      const sep = c.query ? "&" : "";
      const floor = await sample(`${base}/`, {}, 10);
      const inbox = await sample(`${base}/app/posts?${c.query}`, { headers: { cookie } }, samples);
      const api = await sample(
        `${base}/api/v1/posts?${c.query}${sep}limit=${PAGE}`,
        { headers: { authorization: `Bearer ${workspace.key}` } },
        samples,
      );
      const shown = (inbox.body.match(/<article class="card post"/g) ?? []).length;
      const listed = JSON.parse(api.body).data.length;
      if (shown !== listed) throw new Error(`${c.name}: the inbox shows ${shown} posts, the API ${listed}`);
      const ratio = (inbox.p50 - floor.p50) / Math.max(0.1, api.p50 - floor.p50);
      const pass = ratio <= TARGET_RATIO;
      failed ||= !pass;
      console.log(
        `${c.name.padEnd(43)} | ${fmt(inbox.p50)} ${fmt(inbox.p95)} | ${fmt(api.p50)} ${fmt(api.p95)} | ${fmt(floor.p50)} | ${ratio.toFixed(2).padStart(5)} | ${pass ? "pass" : "FAIL"}`,
      );
    }
  } finally {
    await stopDevServer(server);
  }
  return failed ? EXIT_FAILED : 0;
}, USAGE);
