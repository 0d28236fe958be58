#!/usr/bin/env node
// npm run bench:crash -- [--port N] [--blog-port N] [--max-wait-s N]
// A crash mid-run: a real sync run works through a slow local blog under `wrangler dev`; the whole wrangler
// process tree is killed (SIGKILL) while the run is between two posts, wrangler dev is started again on
// the same state directory (D1 and the Durable Object's storage survive, as a deployment's would), and a
// new run of the same config is asked for every second until it is accepted (anything but 409
// run_in_progress). Prints the time from the kill to the new run's acceptance. Asserts nothing about speed.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { integerOption, parseCommandLine, runMain } from "../scripts/lib/cli.mjs";
import { startDevServer, waitUntilReady } from "../scripts/lib/dev-server.mjs";
import { ensureLocalDatabase } from "../scripts/lib/local-d1.mjs";
import { seedWorkspace } from "../scripts/lib/seed-workspace.mjs";

const USAGE = `usage: npm run bench:crash -- [--port N] [--blog-port N] [--max-wait-s N]

  --port N         port for the temporary wrangler dev (default 8870)
  --blog-port N    port for the slow local blog (default 8871)
  --max-wait-s N   give up waiting for a new run after N seconds (default 900)`;

const POSTS = 5;
const SLOW_MS = 4_000;

/** A blog of POSTS articles; while `slow` is set each article takes SLOW_MS to answer. */
function startBlog(port) {
  const origin = `http://127.0.0.1:${port}`;
  const state = { slow: true, articleRequests: 0 };
  const items = Array.from(
    { length: POSTS },
    (_, i) =>
      `<item><title>Post ${i + 1}</title><link>${origin}/posts/${i + 1}.html</link>` +
      `<pubDate>${new Date(Date.UTC(2026, 0, 10 - i)).toUTCString()}</pubDate></item>`,
  ).join("");
  const feed = `<?xml version="1.0"?><rss version="2.0"><channel><title>Crash blog</title><link>${origin}/</link>${items}</channel></rss>`;
  const article = (n) =>
    `<!doctype html><html><head><title>Post ${n}</title></head><body><article><h1>Post ${n}</h1>` +
    `${"<p>A paragraph of the article, long enough to be the main content of the page. ".repeat(20)}</p>` +
    `</article></body></html>`;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", origin);
    if (url.pathname === "/feed.xml")
      return void res.writeHead(200, { "content-type": "application/rss+xml" }).end(feed);
    if (url.pathname === "/robots.txt") return void res.writeHead(404).end();
    const match = /^\/posts\/(\d+)\.html$/.exec(url.pathname);
    if (!match) return void res.writeHead(404).end("not found");
    state.articleRequests++;
    const send = () => {
      if (!res.destroyed) res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(article(match[1]));
    };
    if (state.slow) setTimeout(send, SLOW_MS);
    else send();
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () =>
      resolve({
        origin,
        state,
        close: () =>
          new Promise((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      }),
    );
  });
}

/** Pids of `root` and all its descendants, from /proc (Linux). */
function processTree(root) {
  const parent = new Map();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // ended meanwhile
    }
  }
  const found = [root];
  for (let i = 0; i < found.length; i++)
    for (const [pid, ppid] of parent) if (ppid === found[i] && !found.includes(pid)) found.push(pid);
  return found;
}

/** SIGKILL to wrangler and every process under it (workerd included): a crash, no cleanup. */
async function killTree(child) {
  for (const pid of processTree(child.pid).reverse()) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  if (child.exitCode === null && child.signalCode === null) await new Promise((r) => child.once("exit", r));
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function api(base, key, method, route, body) {
  const res = await fetch(`${base}/api/v1${route}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

runMain(async () => {
  const { values } = parseCommandLine(process.argv.slice(2), {
    port: { type: "string", default: "8870" },
    "blog-port": { type: "string", default: "8871" },
    "max-wait-s": { type: "string", default: "900" },
  });
  const port = integerOption("port", values.port, { min: 1, max: 65535 });
  const blogPort = integerOption("blog-port", values["blog-port"], { min: 1, max: 65535 });
  const maxWaitMs = integerOption("max-wait-s", values["max-wait-s"], { min: 1, max: 3600 }) * 1000;
  const persistTo = fs.mkdtempSync(path.join(os.tmpdir(), "threadwatch-bench-crash-"));
  const base = `http://127.0.0.1:${port}`;
  const start = () =>
    startDevServer({ port, ip: "127.0.0.1", persistTo, vars: { ALLOW_PRIVATE_FETCH: "true" }, capture: true });
  let server;
  let blog;
  try {
    blog = await startBlog(blogPort);
    await ensureLocalDatabase(persistTo);
    const { keys } = await seedWorkspace({ name: "crash benchmark", posts: 0, persistTo });
    const key = keys[0];
    server = start();
    await waitUntilReady(server, `${base}/`);
    const config = await api(base, key, "POST", "/actions/blog-subreddit-syncs", {
      blog_url: `${blog.origin}/feed.xml`,
      subreddit: "crashtest",
      max_posts: POSTS,
    });
    if (config.status !== 201) throw new Error(`config: ${config.status} ${JSON.stringify(config.body)}`);
    const configId = config.body.id;

    // The run that will die: started, then killed while its second article is being fetched.
    const doomed = api(base, key, "POST", `/actions/blog-subreddit-syncs/${configId}/run`, { publish: false }).catch(
      (err) => ({ status: 0, body: String(err) }),
    );
    const startedAt = Date.now();
    while (blog.state.articleRequests < 2) {
      if (Date.now() - startedAt > 60_000) throw new Error("the run did not reach its second post within 60 s");
      await sleep(50);
    }
    await sleep(500);
    await killTree(server);
    const killedAt = Date.now();
    await doomed;
    console.log(`bench:crash: a real run of ${POSTS} slow posts killed (SIGKILL, whole wrangler tree) mid-run`);

    blog.state.slow = false;
    server = start();
    await waitUntilReady(server, `${base}/`);
    const readyAt = Date.now();
    console.log(`  wrangler dev answering again ${((readyAt - killedAt) / 1000).toFixed(1)} s after the kill`);

    let attempts = 0;
    for (;;) {
      attempts++;
      const askedAt = Date.now();
      const run = await api(base, key, "POST", `/actions/blog-subreddit-syncs/${configId}/run`, { publish: false });
      if (run.status !== 409) {
        if (run.status !== 200) throw new Error(`new run: ${run.status} ${JSON.stringify(run.body)}`);
        console.log(
          `  new run accepted ${((askedAt - killedAt) / 1000).toFixed(1)} s after the kill ` +
            `(request sent then; ${attempts} attempts, the earlier ones 409 run_in_progress); its status: ${run.body.run.status}`,
        );
        const runs = await api(base, key, "GET", `/actions/blog-subreddit-syncs/${configId}`);
        console.log(`  config last_error after recovery: ${JSON.stringify(runs.body.last_error)}`);
        return 0;
      }
      if (Date.now() - killedAt > maxWaitMs) {
        console.log(`  no new run accepted within ${maxWaitMs / 1000} s of the kill (${attempts} attempts, all 409)`);
        return 1;
      }
      await sleep(1_000);
    }
  } finally {
    if (server) await killTree(server);
    if (blog) await blog.close();
    fs.rmSync(persistTo, { recursive: true, force: true });
  }
}, USAGE);
