#!/usr/bin/env node
// npm run bench:sync -- [--posts N] [--port N] [--blog-port N] [--corpus DIR]
// A real (non-dry) blog sync through the local service: a local blog server publishes N real article pages
// (Mozilla Readability's test pages from ../shared/corpus or $CORPUS_DIR) behind an RSS feed; `wrangler dev` runs on its own
// port and a fresh persist directory; one config syncs them all into drafts. Reports total time, time per
// post with and without the blog server's own time, a re-run (all unchanged) and a dry run, and the Worker
// process's memory (workerd RSS, sampled every 25 ms, plus the kernel's high-water mark). Prints figures;
// asserts nothing about speed.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { integerOption, parseCommandLine, runMain } from "../scripts/lib/cli.mjs";
import { startDevServer, stopDevServer, waitUntilReady } from "../scripts/lib/dev-server.mjs";
import { ensureLocalDatabase } from "../scripts/lib/local-d1.mjs";
import { READABILITY_TEST_PAGES, ROOT } from "../scripts/lib/paths.mjs";
import { seedWorkspace } from "../scripts/lib/seed-workspace.mjs";

const USAGE = `usage: npm run bench:sync -- [--posts N] [--port N] [--blog-port N] [--corpus DIR]

  --posts N       posts on the benchmark blog, all synced in one run (1..50, default 50)
  --port N        port for the temporary wrangler dev (default 8798)
  --blog-port N   port for the benchmark blog (default 8799)
  --corpus DIR    Readability test pages (default extraction/mozilla__readability/test/test-pages
                  under $CORPUS_DIR, or under ../shared/corpus when CORPUS_DIR is not set)`;

/** The blog: /feed.xml lists the pages newest first, /posts/<name>.html serves each page as it was captured. */
function startBlog(pages, port) {
  const origin = `http://127.0.0.1:${port}`;
  const stats = { requests: 0, serverMs: 0 };
  const day = 86_400_000;
  const items = pages
    .map(
      (p, i) =>
        `<item><title>${p.name}</title><link>${origin}/posts/${p.name}.html</link><guid>${origin}/posts/${p.name}.html</guid>` +
        `<pubDate>${new Date(Date.UTC(2026, 0, 1) + (pages.length - i) * day).toUTCString()}</pubDate></item>`,
    )
    .join("\n");
  const feed =
    `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel><title>Benchmark blog</title><link>${origin}/</link>` +
    `<description>Readability test pages</description>\n${items}\n</channel></rss>`;
  const byName = new Map(pages.map((p) => [`/posts/${p.name}.html`, p.file]));
  const server = http.createServer((req, res) => {
    const started = performance.now();
    const url = new URL(req.url ?? "/", origin);
    res.once("finish", () => {
      stats.requests++;
      stats.serverMs += performance.now() - started;
    });
    if (url.pathname === "/feed.xml")
      return void res.writeHead(200, { "content-type": "application/rss+xml" }).end(feed);
    if (url.pathname === "/robots.txt")
      return void res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nAllow: /\n");
    const file = byName.get(url.pathname);
    if (!file) return void res.writeHead(404).end("not found");
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(fs.readFileSync(file));
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () =>
      resolve({ origin, stats, close: () => new Promise((r) => server.close(() => r())) }),
    );
  });
}

/** Pids of `root` and all its descendants, from /proc (Linux). */
function descendants(root) {
  const parent = new Map();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      parent.set(Number(entry), Number(fields[1]));
    } catch {
      // the process ended meanwhile
    }
  }
  const found = new Set([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, ppid] of parent) {
      if (found.has(ppid) && !found.has(pid)) {
        found.add(pid);
        grew = true;
      }
    }
  }
  return [...found];
}

function workerdPids(root) {
  return descendants(root).filter((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "workerd";
    } catch {
      return false;
    }
  });
}

/** VmRSS and VmHWM (kB) of one process. */
function memoryOf(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0);
    return { rss: kb("VmRSS"), hwm: kb("VmHWM") };
  } catch {
    return { rss: 0, hwm: 0 };
  }
}

/** Samples the summed RSS of every workerd under wrangler (re-listed each time: wrangler may restart it). */
function sampler(root) {
  let peak = 0;
  const hwm = new Map();
  const sample = () => {
    let total = 0;
    for (const pid of workerdPids(root)) {
      const m = memoryOf(pid);
      total += m.rss;
      hwm.set(pid, Math.max(hwm.get(pid) ?? 0, m.hwm));
    }
    peak = Math.max(peak, total);
    return total;
  };
  const baseline = sample();
  const timer = setInterval(sample, 25);
  return {
    baseline,
    stop() {
      clearInterval(timer);
      sample();
      return { peak, hwm: [...hwm.values()].reduce((a, b) => a + b, 0) };
    },
  };
}

const mb = (kb) => `${(kb / 1024).toFixed(1)} MB`;
const ms = (v) => `${v.toFixed(1)} ms`;

async function api(base, key, method, route, body) {
  const res = await fetch(`${base}/api/v1${route}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${JSON.stringify(json.error ?? json)}`);
  return json;
}

async function timedRun(base, key, configId, body, blog) {
  const before = { ...blog.stats };
  const started = performance.now();
  const result = await api(base, key, "POST", `/actions/blog-subreddit-syncs/${configId}/run`, body);
  const totalMs = performance.now() - started;
  return {
    result,
    totalMs,
    blogMs: blog.stats.serverMs - before.serverMs,
    blogRequests: blog.stats.requests - before.requests,
  };
}

function report(label, { result, totalMs, blogMs, blogRequests }, posts) {
  const r = result.run;
  console.log(`\n${label}`);
  console.log(
    `  status ${r.status}: discovered ${r.discovered}, created ${r.created}, updated ${r.updated}, unchanged ${r.unchanged}, failed ${r.failed}`,
  );
  console.log(`  total ${ms(totalMs)}; per post ${ms(totalMs / posts)}`);
  console.log(
    `  blog server time ${ms(blogMs)} over ${blogRequests} requests; excluding it: ${ms(totalMs - blogMs)} total, ${ms((totalMs - blogMs) / posts)} per post`,
  );
  if (r.failed > 0) {
    for (const item of result.items.filter((i) => i.action === "error").slice(0, 5))
      console.log(`  failed: ${item.source_url}: ${item.error}`);
  }
}

runMain(async () => {
  const { values } = parseCommandLine(process.argv.slice(2), {
    posts: { type: "string", default: "50" },
    port: { type: "string", default: "8798" },
    "blog-port": { type: "string", default: "8799" },
    corpus: { type: "string", default: READABILITY_TEST_PAGES },
  });
  const posts = integerOption("posts", values.posts, { min: 1, max: 50 });
  const port = integerOption("port", values.port, { min: 1, max: 65535 });
  const blogPort = integerOption("blog-port", values["blog-port"], { min: 1, max: 65535 });
  if (!fs.existsSync(values.corpus)) throw new Error(`corpus not found: ${values.corpus}`);
  const pages = fs
    .readdirSync(values.corpus)
    .sort()
    .map((name) => ({ name, file: path.join(values.corpus, name, "source.html") }))
    .filter((p) => fs.existsSync(p.file))
    .slice(0, posts);
  const bytes = pages.reduce((sum, p) => sum + fs.statSync(p.file).size, 0);

  const persistTo = fs.mkdtempSync(path.join(os.tmpdir(), "threadwatch-bench-sync-"));
  let server;
  let blog;
  try {
    blog = await startBlog(pages, blogPort);
    await ensureLocalDatabase(persistTo);
    const { keys } = await seedWorkspace({ name: "sync benchmark", posts: 0, persistTo });
    const key = keys[0];
    const base = `http://127.0.0.1:${port}`;
    server = startDevServer({ port, ip: "127.0.0.1", persistTo, vars: { ALLOW_PRIVATE_FETCH: "true" }, capture: true });
    await waitUntilReady(server, `${base}/`);
    const pids = workerdPids(server.pid);
    if (pids.length === 0) console.log("warning: no workerd process found under wrangler; memory figures will be 0");

    const config = await api(base, key, "POST", "/actions/blog-subreddit-syncs", {
      blog_url: `${blog.origin}/feed.xml`,
      subreddit: "benchmark",
      max_posts: posts,
    });
    // Warm the Worker (first-request compilation) with a request that does not touch the blog.
    await api(base, key, "GET", `/actions/blog-subreddit-syncs/${config.id}`);

    console.log(
      `bench:sync: ${pages.length} real article pages (${(bytes / 1024 / 1024).toFixed(1)} MB of HTML) from ${path.relative(ROOT, values.corpus)}`,
    );
    console.log(`Worker: wrangler dev on ${base} (fresh persist dir), workerd pids ${pids.join(", ") || "none"}`);

    const memory = sampler(server.pid);
    const first = await timedRun(base, key, config.id, { publish: false }, blog);
    const { peak: peakFirst, hwm } = memory.stop();
    report(`real sync of ${posts} posts into drafts (publish=false)`, first, posts);

    const again = await timedRun(base, key, config.id, { publish: false }, blog);
    report("re-run (idempotent: every post unchanged)", again, posts);

    const dry = await timedRun(base, key, config.id, { dry_run: true }, blog);
    report("dry run (preview, writes nothing)", dry, posts);

    const stored = await api(base, key, "GET", `/actions/blog-subreddit-syncs/${config.id}/items?limit=500`);
    console.log(
      `\nmemory (workerd): before the run ${mb(memory.baseline)}, peak sampled during the first run ${mb(peakFirst)}, kernel high-water marks (VmHWM, summed) ${mb(hwm)}`,
    );
    console.log(`drafts stored: ${stored.count}`);
    const perPost = (first.totalMs - first.blogMs) / posts;
    console.log(
      `target: <= 100 ms per post excluding the blog server: ${ms(perPost)} -> ${perPost <= 100 ? "met" : "NOT met"}`,
    );
    return 0;
  } finally {
    if (server) await stopDevServer(server);
    if (blog) await blog.close();
    fs.rmSync(persistTo, { recursive: true, force: true });
  }
}, USAGE);
