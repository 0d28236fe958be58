#!/usr/bin/env node
// npm run bench:publish [-- --posts N] [--port N] [--forum-port N] [--inspector-port N]
// Times the browser operations through a local service (wrangler dev, fresh database) and real Chromium
// against the local forum: a persona check, readiness and a publish preflight, each cold (first) and warm
// (again), then N queued, approved posts published one after another by the publish queue. The workspace
// keeps its browser warm between operations (BROWSER_KEEP_WARM_SECONDS, here --keep-warm): the Chromium
// processes are counted before the run, right after it, and once the warm period is over: a browser still
// open then is a leak.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { integerOption, parseCommandLine, runMain } from "../scripts/lib/cli.mjs";
import { callApi, startDevServer, stopDevServer, waitUntilReady } from "../scripts/lib/dev-server.mjs";
import { ensureLocalDatabase } from "../scripts/lib/local-d1.mjs";
import { serveLocalForum } from "../scripts/lib/local-forum-server.mjs";
import { ROOT } from "../scripts/lib/paths.mjs";
import { progress } from "../scripts/lib/progress.mjs";
import { seedWorkspace } from "../scripts/lib/seed-workspace.mjs";
import { queryLocal } from "../scripts/lib/wrangler.mjs";

const USAGE = `usage: npm run bench:publish -- [--posts N] [--keep-warm S] [--port N] [--forum-port N] [--inspector-port N]

  --posts N        queued, approved posts to publish (1..50, default 20)
  --keep-warm S    seconds the workspace keeps its browser after an operation (0..120, default 10; the
                   service's default is 60): the bench waits that long before the last Chromium count
  --port N         port for the temporary wrangler dev (default 8834)
  --forum-port N   port for the local forum (default 8835)
  --inspector-port N   wrangler dev's DevTools inspector port (default: wrangler's own)`;

const ADMIN = "bench-admin-token";

/** Chromium processes started under `root` (wrangler dev launches the browser binding's Chromium). */
function chromiumUnder(root) {
  const children = new Map();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const comm = fs.readFileSync(`/proc/${entry}/comm`, "utf8").trim();
      children.set(ppid, [...(children.get(ppid) ?? []), { pid: Number(entry), comm }]);
    } catch {
      // gone meanwhile
    }
  }
  let count = 0;
  const visit = (pid) => {
    for (const child of children.get(pid) ?? []) {
      if (/chrom/i.test(child.comm)) count++;
      visit(child.pid);
    }
  };
  visit(root);
  return count;
}

const ms = (n) => `${Math.round(n)} ms`;

runMain(async () => {
  const { values } = parseCommandLine(process.argv.slice(2), {
    posts: { type: "string", default: "20" },
    "keep-warm": { type: "string", default: "10" },
    port: { type: "string", default: "8834" },
    "forum-port": { type: "string", default: "8835" },
    "inspector-port": { type: "string" },
  });
  const posts = integerOption("posts", values.posts, { min: 1, max: 50 });
  const keepWarm = integerOption("keep-warm", values["keep-warm"], { min: 0, max: 120 });
  const port = integerOption("port", values.port, { min: 1, max: 65535 });
  const forumPort = integerOption("forum-port", values["forum-port"], { min: 1, max: 65535 });
  execFileSync(process.execPath, [path.join(ROOT, "scripts", "setup-browser.mjs")], { cwd: ROOT, stdio: "ignore" });

  const local = await serveLocalForum(forumPort);
  const forumBase = local.base;
  const control = async (p, body) =>
    (
      await fetch(`${forumBase}/__control${p}`, {
        method: body ? "POST" : "GET",
        headers: { "content-type": "application/json" },
        body: body ? JSON.stringify(body) : undefined,
      })
    ).json();

  const persistTo = fs.mkdtempSync(path.join(os.tmpdir(), "threadwatch-bench-publish-"));
  let server;
  try {
    await ensureLocalDatabase(persistTo);
    const { workspaceId, keys } = await seedWorkspace({ name: "publish benchmark", posts: 0, persistTo });
    const key = keys[0];
    const base = `http://127.0.0.1:${port}`;
    server = startDevServer({
      port,
      ip: "127.0.0.1",
      persistTo,
      capture: true,
      vars: {
        ALLOW_PRIVATE_FETCH: "true",
        FORUM_BASE_URL: forumBase,
        ADMIN_TOKEN: ADMIN,
        SESSION_KEY: Buffer.from("bench-session-key-32-bytes-long!").toString("base64"),
        BROWSER_KEEP_WARM_SECONDS: String(keepWarm),
      },
      extraArgs: values["inspector-port"]
        ? [
            "--inspector-port",
            String(integerOption("inspector-port", values["inspector-port"], { min: 1, max: 65535 })),
          ]
        : [],
    });
    await waitUntilReady(server, `${base}/`);
    const chromeBefore = chromiumUnder(server.pid);
    const call = async (method, route, body, bearer = key) => {
      const started = performance.now();
      const json = await callApi(base, bearer, method, route, body);
      return { json, ms: performance.now() - started };
    };

    const sr = "bench_publish";
    await control("/subreddits", { name: sr, type: "public" });
    const { cookies } = await control("/accounts", { username: "bench_author" });
    const persona = (await call("POST", "/api/v1/actions/personas", { username: "bench_author", cookies })).json;
    const check = await call("POST", `/api/v1/actions/personas/${persona.id}/preflight`);
    if (!check.json.persona.browser_ready) throw new Error(`persona check failed: ${check.json.persona.last_error}`);
    await call("POST", `/admin/v1/workspaces/${workspaceId}/personas/${persona.id}/approve`, undefined, ADMIN);
    const config = (
      await call("POST", "/api/v1/actions/blog-subreddit-syncs", {
        blog_url: "http://127.0.0.1:9/feed.xml",
        subreddit: sr,
        persona_id: persona.id,
        publish_immediately: true,
      })
    ).json;
    // N queued drafts, written as a run would write them.
    const rows = Array.from(
      { length: posts },
      (_, i) =>
        `(${workspaceId}, ${config.id}, 'https://blog.example/bench/${i}', 'Benchmark post ${i + 1}', 'Body of benchmark post ${i + 1}.', '${"0".repeat(64)}', 'queued')`,
    );
    await queryLocal(
      `INSERT INTO synced_posts (workspace_id, config_id, source_url, title, body_markdown, content_hash, state) VALUES ${rows.join(", ")}`,
      { persistTo },
    );
    const items = (await call("GET", `/api/v1/actions/blog-subreddit-syncs/${config.id}/items?limit=500`)).json.data;

    console.log(`bench:publish: wrangler dev on ${base} (fresh database), local forum on ${forumBase}, real Chromium`);
    console.log(`persona check (first browser launch of the run): ${ms(check.ms)}`);
    const readiness = [];
    for (let i = 0; i < 3; i++)
      readiness.push(await call("POST", `/api/v1/actions/blog-subreddit-syncs/${config.id}/readiness`));
    if (!readiness[0].json.ready) throw new Error(`not ready: ${JSON.stringify(readiness[0].json.checks)}`);
    const preflight = [];
    for (let i = 0; i < 3; i++)
      preflight.push(
        await call("POST", `/api/v1/actions/blog-subreddit-syncs/${config.id}/publish-preflight`, {
          synced_post_id: items[0].id,
        }),
      );
    console.log(
      `readiness: cold ${ms(readiness[0].ms)}, warm ${readiness
        .slice(1)
        .map((r) => ms(r.ms))
        .join(", ")}`,
    );
    console.log(
      `publish preflight: cold ${ms(preflight[0].ms)}, warm ${preflight
        .slice(1)
        .map((r) => ms(r.ms))
        .join(", ")}`,
    );

    const started = performance.now();
    for (const item of items)
      await call("POST", `/api/v1/actions/blog-subreddit-syncs/${config.id}/items/${item.id}/approve`);
    let published = 0;
    const bar = progress("published", posts); // on a terminal only
    const deadline = Date.now() + 30 * 60_000;
    while (Date.now() < deadline) {
      const cfg = (await call("GET", `/api/v1/actions/blog-subreddit-syncs/${config.id}`)).json;
      published = cfg.item_counts.published;
      bar.set(published + cfg.item_counts.failed);
      if (published + cfg.item_counts.failed >= posts) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    bar.end();
    const total = performance.now() - started;
    const submitted = (await control("/submissions")).data.length;
    console.log(
      `${posts} approved posts: ${published} published in ${(total / 1000).toFixed(1)} s (${ms(total / posts)} per post, one browser turn each), forum received ${submitted} submissions`,
    );
    const chromeAfter = chromiumUnder(server.pid);
    // The warm period, then the coordinator's alarm closes the browser (a little slack for the close itself).
    await new Promise((r) => setTimeout(r, keepWarm * 1000 + 5000));
    const chromeIdle = chromiumUnder(server.pid);
    console.log(
      `Chromium processes under wrangler dev: before the run ${chromeBefore}, right after it ${chromeAfter} (the warm browser), ${keepWarm + 5} s later ${chromeIdle}`,
    );
    const warm = Math.max(...preflight.slice(1).map((r) => r.ms));
    console.log(`target: warm preflight < 2 s: ${ms(warm)} -> ${warm < 2000 ? "met" : "NOT met"}`);
    return published === posts && submitted === posts && chromeIdle === chromeBefore ? 0 : 1;
  } finally {
    if (server) await stopDevServer(server);
    await local.close();
    fs.rmSync(persistTo, { recursive: true, force: true });
  }
}, USAGE);
