#!/usr/bin/env node
// npm run bench:monitor -- [--workspaces N] [--terms N] [--port N] [--forum-port N] [--concurrency N]
// Monitoring through the local service against the local forum (test/fixtures/forum/serve.ts, in this
// process, 100 requests a minute for the client as today's search benchmark has always measured): N workspaces (default 50) tracking M
// keywords each (default 20), posts about them on the forum plus decoys. Round 1 runs every workspace's pass
// (`POST /actions/monitoring/run`, `--concurrency` at a time, as the queue consumer's batch would); round 2
// puts one new post per workspace on the forum, runs the passes again and measures how long each new post
// took from appearing on the forum to being listed by GET /posts. Reports requests per tracked term, tracked
// terms per search request, posts ingested per second, that latency, and the forum's count of requests per
// minute (the quota's peak). Prints figures; asserts nothing about speed.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { integerOption, parseCommandLine, runMain } from "../scripts/lib/cli.mjs";
import { callApi as call, startDevServer, stopDevServer, waitUntilReady } from "../scripts/lib/dev-server.mjs";
import { startForumApi } from "../scripts/lib/forum-api-bench.mjs";
import { ensureLocalDatabase } from "../scripts/lib/local-d1.mjs";
import { ascending, percentile } from "../scripts/lib/stats.mjs";

const USAGE = `usage: npm run bench:monitor -- [--workspaces N] [--terms N] [--port N] [--forum-port N] [--concurrency N]

  --workspaces N   workspaces (default 50)
  --terms N        keywords per workspace (default 20)
  --port N         port for the temporary wrangler dev (default 8842)
  --forum-port N   port for the local forum API (default 8843)
  --concurrency N  passes running at once (default 5, the monitor queue's batch size)`;

const ADMIN = "bench-admin-token";
const CLIENT = "bench-client";
const WORDS = [
  "invoices",
  "payroll",
  "crm",
  "backups",
  "analytics",
  "webhooks",
  "billing",
  "onboarding",
  "churn",
  "pricing",
  "dashboards",
  "exports",
  "sso",
  "audit",
  "alerts",
  "reports",
  "forms",
  "surveys",
  "tickets",
  "chat",
];

const termOf = (w, j) => `acme${w} ${WORDS[j % WORDS.length]}${j >= WORDS.length ? j : ""}`;

async function pool(items, n, fn) {
  const results = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await fn(items[i], i);
      }
    }),
  );
  return results;
}

/** The p-th percentile (nearest rank, scripts/lib/stats.mjs) of unsorted samples; 0 when there are none. */
const pct = (values, p) => percentile(ascending(values), p) ?? 0;

runMain(async () => {
  const { values } = parseCommandLine(process.argv.slice(2), {
    workspaces: { type: "string", default: "50" },
    terms: { type: "string", default: "20" },
    port: { type: "string", default: "8842" },
    "forum-port": { type: "string", default: "8843" },
    concurrency: { type: "string", default: "5" },
  });
  const nWs = integerOption("workspaces", values.workspaces, { min: 1, max: 500 });
  const nTerms = integerOption("terms", values.terms, { min: 1, max: 100 });
  const port = integerOption("port", values.port, { min: 1, max: 65535 });
  const forumPort = integerOption("forum-port", values["forum-port"], { min: 1, max: 65535 });
  const concurrency = integerOption("concurrency", values.concurrency, { min: 1, max: 50 });

  const { forum, server: forumServer, origin: forumOrigin, vars: forumVars } = await startForumApi(forumPort, CLIENT);

  const persistTo = fs.mkdtempSync(path.join(os.tmpdir(), "threadwatch-bench-monitor-"));
  let server;
  try {
    await ensureLocalDatabase(persistTo);
    server = startDevServer({
      port,
      ip: "127.0.0.1",
      persistTo,
      vars: {
        ADMIN_TOKEN: ADMIN,
        ...forumVars,
      },
      extraArgs: ["--inspector-port", "9234"],
      capture: true,
    });
    const base = `http://127.0.0.1:${port}`;
    await waitUntilReady(server, `${base}/`);
    console.log(`Worker: wrangler dev on ${base} (fresh persist dir); forum API on ${forumOrigin}`);
    console.log(
      `machine: ${os.cpus().length} cores, load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")} (shared with other engineers' work)`,
    );

    // Workspaces, keys and terms through the admin API and the public API.
    const workspaces = await pool(
      Array.from({ length: nWs }, (_, i) => i),
      concurrency,
      async (i) => {
        const ws = await call(base, ADMIN, "POST", "/admin/v1/workspaces", { name: `bench ${i}` });
        const key = await call(base, ADMIN, "POST", `/admin/v1/workspaces/${ws.id}/keys`, {
          name: "bench",
          scope: "read_write",
        });
        for (let j = 0; j < nTerms; j++)
          await call(base, key.key, "POST", "/api/v1/keywords", { keyword: termOf(i, j) });
        return { id: ws.id, key: key.key, i };
      },
    );
    console.log(`${nWs} workspaces × ${nTerms} keywords created (${nWs * nTerms} tracked terms)`);

    // The forum: 30 posts about each workspace's terms within two days, and decoys no one tracks.
    const now = Math.floor(Date.now() / 1000);
    const posts = [];
    for (let i = 0; i < nWs; i++)
      for (let k = 0; k < 30; k++)
        posts.push({
          id: `b${i.toString(36)}x${k.toString(36)}`,
          title: `Question about ${termOf(i, (k * 7) % nTerms)}?`,
          selftext:
            k % 3 === 0 ? `Looking for a recommendation, we use ${termOf(i, k % nTerms)} daily.` : "Details inside.",
          subreddit: ["SaaS", "smallbusiness", "startups"][k % 3],
          score: k % 25,
          num_comments: k % 9,
          created_utc: now - 300 - (((i * 30 + k) * 97) % 172_800),
        });
    for (let d = 0; d < 500; d++)
      posts.push({
        id: `dec${d.toString(36)}`,
        title: `Unrelated thread ${d}`,
        selftext: "nothing tracked",
        created_utc: now - d * 60,
      });
    forum.addPosts(CLIENT, posts);

    const runAll = () =>
      pool(workspaces, concurrency, async (ws) => {
        const started = performance.now();
        const { run } = await call(base, ws.key, "POST", "/api/v1/actions/monitoring/run");
        return { ws, run, ms: performance.now() - started };
      });

    // Round 1: the first pass of every workspace.
    const before1 = forum.stats(CLIENT).requests;
    const t1 = performance.now();
    const round1 = await runAll();
    const wall1 = (performance.now() - t1) / 1000;
    const requests1 = forum.stats(CLIENT).requests - before1;
    const created1 = round1.reduce((n, r) => n + r.run.created, 0);
    const queries1 = round1.reduce((n, r) => n + r.run.queries, 0);
    const searches1 = forum.stats(CLIENT).searches.length;
    const status1 = Object.entries(Object.groupBy(round1, (r) => r.run.status)).map(([s, l]) => `${s} ${l.length}`);

    console.log("\nround 1: first pass of every workspace");
    console.log(
      `  passes: ${status1.join(", ")}; wall ${wall1.toFixed(1)} s; pass time p50 ${(
        pct(
          round1.map((r) => r.ms),
          50,
        ) / 1000
      ).toFixed(2)} s, max ${(Math.max(...round1.map((r) => r.ms)) / 1000).toFixed(2)} s`,
    );
    console.log(
      `  forum requests ${requests1} (${searches1} searches, ${queries1} distinct queries) for ${nWs * nTerms} tracked terms`,
    );
    console.log(
      `  requests per tracked term ${(requests1 / (nWs * nTerms)).toFixed(3)}; tracked terms per search request ${((nWs * nTerms) / searches1).toFixed(1)}`,
    );
    console.log(
      `  posts ingested ${created1} (of ${nWs * 30} relevant, 500 decoys never stored): ${(created1 / wall1).toFixed(1)} posts/s`,
    );

    // Round 2: one new post per workspace appears; the next pass must list it.
    const appeared = new Map();
    const fresh = workspaces.map((ws) => {
      const id = `new${ws.i.toString(36)}`;
      appeared.set(ws.id, { id, at: Date.now() });
      return { id, title: `Just now: anyone using ${termOf(ws.i, 0)}?`, created_utc: Math.floor(Date.now() / 1000) };
    });
    forum.addPosts(CLIENT, fresh);
    const before2 = forum.stats(CLIENT).requests;
    const t2 = performance.now();
    const latencies = [];
    const round2 = await pool(workspaces, concurrency, async (ws) => {
      const { run } = await call(base, ws.key, "POST", "/api/v1/actions/monitoring/run");
      const target = appeared.get(ws.id);
      const page = await call(base, ws.key, "GET", "/api/v1/posts?limit=5");
      const listed = page.data.some((p) => p.forum_id === target.id);
      if (listed) latencies.push(Date.now() - target.at);
      return { run, listed };
    });
    const wall2 = (performance.now() - t2) / 1000;
    const requests2 = forum.stats(CLIENT).requests - before2;
    const status2 = Object.entries(Object.groupBy(round2, (r) => r.run.status)).map(([s, l]) => `${s} ${l.length}`);
    console.log("\nround 2: one new post per workspace, then every workspace's next pass");
    console.log(
      `  passes: ${status2.join(", ")}; wall ${wall2.toFixed(1)} s; forum requests ${requests2} (${(requests2 / (nWs * nTerms)).toFixed(3)} per tracked term: one search + one api/info refresh per workspace)`,
    );
    console.log(`  new posts listed by GET /posts after that one pass: ${latencies.length} of ${nWs}`);
    if (latencies.length > 0)
      console.log(
        `  time from appearing on the forum to listed: p50 ${(pct(latencies, 50) / 1000).toFixed(2)} s, p95 ${(pct(latencies, 95) / 1000).toFixed(2)} s, max ${(Math.max(...latencies) / 1000).toFixed(2)} s (plus up to 10 min until the cron's next pass in production)`,
      );

    const stats = forum.stats(CLIENT);
    console.log(
      `\nquota: peak ${stats.peakPerWindow} requests in one forum minute (limit 100); 429s ${stats.throttled}; token requests ${stats.tokenRequests}`,
    );
    console.log(`  requests per forum minute: ${stats.windows.join(", ")}`);
  } finally {
    if (server) await stopDevServer(server);
    await new Promise((r) => forumServer.close(() => r()));
    fs.rmSync(persistTo, { recursive: true, force: true });
  }
}, USAGE);
