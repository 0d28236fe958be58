// One column of npm run bench:monitor (bench/monitor.mjs): a fresh wrangler dev of bench/monitor-worker.ts
// (the service, its ingester on the forum's clock) against the local forum in this process, with W
// workspaces × 20 terms written into the local D1 file first. Phase A runs today's per-workspace search
// (POST /actions/monitoring/run) for a sample of workspaces on the real clock; phase B lets the ingester run
// at the forum's peak rates with the forum's clock `factor` times faster, plants relevant posts and decoys,
// and polls GET /posts. Returns the figures; asserts nothing.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { callApi, startDevServer, stopDevServer, waitUntilReady } from "../scripts/lib/dev-server.mjs";
import { copyMigratedDatabase, openLocalD1 } from "../scripts/lib/local-d1.mjs";
import { withSeeder } from "../scripts/lib/seed-runner.mjs";
import { plant } from "../test/fixtures/forum/control.ts";
import { hash32 } from "../test/fixtures/forum/http.ts";
import { startLocalForum } from "../test/fixtures/forum/serve.ts";
import { timeMatcher } from "./monitor-matcher-run.mjs";
import { buildTerms, decoyPost, relevantPost, termFor, writeTerms } from "./monitor-world.mjs";

const ADMIN = "bench-admin-token";
const MINUTE = 60_000;
/** Late-visible planted posts become visible this many forum seconds after they are allocated. */
const LATE_S = [60, 600];
const LATE_SHARE = 0.2;
/** After planting stops, by default: the last late post's visibility, its 30-minute ask, and two rounds. */
export const TAIL_MINUTES = Math.ceil((LATE_S[1] + 30 * 60 + 120) / 60);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function pool(items, n, fn) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

/** Which walk or caller a forum request belongs to, from its path and ids. */
function classify(url, planted) {
  const p = url.pathname.replace(/\.json$/, "");
  if (p === "/r/all/new") return "head";
  if (p === "/r/all/comments") return "comments";
  if (p.endsWith("/search")) return "search";
  if (p !== "/api/info") return "other";
  const ids = (url.searchParams.get("id") ?? "").split(",");
  const kinds = new Set(ids.map((id) => id.slice(0, 2)));
  if (kinds.size > 1) return "refresh";
  if (kinds.has("t1")) return "comments";
  return ids.every((id) => planted.has(id.slice(3))) ? "refresh" : "posts";
}

/** Rows of every table of the service's database (D1's own tables left out). */
async function tableRows(persistTo) {
  const db = await openLocalD1(persistTo, { readOnly: true });
  try {
    const names = db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
      )
      .all()
      .map((r) => r.name)
      .filter((n) => n !== "d1_migrations");
    return Object.fromEntries(names.map((n) => [n, db.prepare(`SELECT count(*) AS n FROM "${n}"`).get().n]));
  } finally {
    db.close();
  }
}

/** Stored (workspace index, forum id) pairs of the given ids, with the real time each row was written. */
async function storedRows(persistTo, ids) {
  const db = await openLocalD1(persistTo, { readOnly: true });
  try {
    const out = [];
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      const rows = db
        .prepare(
          `SELECT workspace_id, forum_id, created_at FROM posts WHERE forum_id IN (${chunk.map(() => "?").join(",")})`,
        )
        .all(...chunk);
      out.push(...rows.map((r) => ({ w: r.workspace_id - 1, id: r.forum_id, at: Date.parse(r.created_at) })));
    }
    return out;
  } finally {
    db.close();
  }
}

/** Seeds W workspaces' terms into a fresh persist dir and issues read_write keys for the sample. */
async function seed(persistTo, terms, sample) {
  await copyMigratedDatabase(persistTo);
  const db = await openLocalD1(persistTo);
  try {
    writeTerms(db, terms);
  } finally {
    db.close();
  }
  const keys = new Map();
  await withSeeder(persistTo, async (seeder) => {
    for (const w of sample)
      keys.set(w, (await seeder.issueKeys(w + 1, "bench", [{ name: "bench", scope: "read_write" }])).keys[0]);
  });
  return keys;
}

/** Phase A: today's per-workspace search for each sample workspace, on posts planted for them first. */
async function perWorkspaceSearch({ base, keys, sample, terms, world, client, requests }) {
  const planted = [];
  for (const w of sample)
    for (let k = 0; k < 2; k++) {
      const term = terms.byWorkspace[w].keywords[5 + k];
      const t = plant(world, client, { ...relevantPost(term, k), subreddit: "smallbusiness" });
      planted.push({ id: t.id, w });
    }
  const decoys = sample.map((w, i) => plant(world, client, decoyPost(terms.byWorkspace[w].keywords[7], i)).id);
  const from = requests.length;
  const started = performance.now();
  const statuses = {};
  await pool(sample, 5, async (w) => {
    const { run } = await callApi(base, keys.get(w), "POST", "/api/v1/actions/monitoring/run");
    statuses[run.status] = (statuses[run.status] ?? 0) + 1;
  });
  const seconds = (performance.now() - started) / 1000;
  const made = requests.slice(from);
  const listed = new Set();
  await pool(sample, 5, async (w) => {
    const page = await callApi(base, keys.get(w), "GET", "/api/v1/posts?limit=100&sort_by=date");
    for (const p of page.data) listed.add(`${w}:${p.forum_id}`);
  });
  return {
    sampled: sample.length,
    requests: made.length,
    searches: made.filter((r) => r.cat === "search").length,
    perWorkspace: made.length / sample.length,
    statuses,
    seconds,
    planted: planted.length,
    found: planted.filter((p) => listed.has(`${p.w}:${p.id}`)).length,
    decoys: decoys.length,
    decoysStored: sample.reduce((n, w) => n + decoys.filter((id) => listed.has(`${w}:${id}`)).length, 0),
  };
}

/** Waits (bounded) until the ingester has finished `rounds` rounds after it started; real seconds taken. */
async function warmUp(base, key, rounds, timeoutMs) {
  const started = performance.now();
  const seen = new Set();
  while (performance.now() - started < timeoutMs) {
    const status = await callApi(base, key, "GET", "/api/v1/actions/monitoring");
    const walked = status.ingest?.posts?.walked_to;
    if (walked) seen.add(walked);
    if (seen.size > rounds) return (performance.now() - started) / 1000;
    await sleep(500);
  }
  throw new Error(`the ingester did not finish ${rounds} rounds within ${timeoutMs / 1000} s`);
}

/** Phase B: plants posts at a steady rate over `plantMs` of forum time, polls GET /posts, waits the tail out. */
async function ingest(o) {
  const { world, client, terms, sample, keys, base, W } = o;
  const clock = client.clock;
  const inSample = new Set(sample);
  const posts = [];
  const decoys = [];
  const start = clock.now();
  const end = start + o.plantMs + o.tailMinutes * MINUTE;
  let polls = 0;
  const pollMs = [];
  const poll = async () => {
    while (clock.now() < end) {
      const now = clock.now();
      const due = new Map();
      for (const p of posts)
        if (p.track && p.listedAt === undefined && p.visibleAt <= now) due.set(p.w, [...(due.get(p.w) ?? []), p]);
      await pool([...due.keys()], 4, async (w) => {
        const sent = performance.now();
        const page = await callApi(base, keys.get(w), "GET", "/api/v1/posts?limit=100&sort_by=date");
        pollMs.push(performance.now() - sent);
        const at = clock.now();
        polls++;
        const ids = new Set(page.data.map((p) => p.forum_id));
        for (const p of due.get(w)) if (ids.has(p.id)) p.listedAt = at;
      });
      await sleep(o.pollMs);
    }
  };
  const polling = poll();
  for (let done = false; !done; ) {
    done = clock.now() >= start + o.plantMs;
    const share = done ? 1 : (clock.now() - start) / o.plantMs;
    while (posts.length < Math.floor(share * o.planted)) {
      const i = posts.length;
      const h = hash32(`plant:${W}:${i}`);
      const w = i % 2 === 0 ? sample[(i / 2) % sample.length] : h % W;
      const term = termFor(terms, w, (h >>> 4) / 2 ** 28, h >>> 9);
      const late = (h >>> 12) % 1000 < LATE_SHARE * 1000;
      const lateS = LATE_S[0] + ((h >>> 14) % (LATE_S[1] - LATE_S[0] + 1));
      const t = plant(world, client, {
        ...relevantPost(term, i),
        subreddit: ["SaaS", "smallbusiness", "startups"][i % 3],
        author: `bench_${h % 5000}`,
        visible_after_s: late ? lateS : 0,
      });
      posts.push({ id: t.id, w, term, late, visibleAt: t.visible_at, track: inSample.has(w) });
    }
    while (decoys.length < Math.floor(share * o.decoys)) {
      const i = decoys.length;
      const w = hash32(`decoy:${W}:${i}`) % W;
      decoys.push(plant(world, client, decoyPost(termFor(terms, w, (i % 10) / 10, i), i)).id);
    }
    if (!done) await sleep(100);
  }
  await polling;
  return { posts, decoys, start, end: clock.now(), polls, pollMs };
}

/**
 * The rounds the bench Worker logged in `text` (one JSON line each: its counts and real milliseconds). A line
 * split across two chunks is lost; the figures are a sample, which says how many rounds it holds.
 */
function roundsLogged(text) {
  const found = [];
  for (const line of text.split("\n")) {
    const at = line.indexOf('{"level":"info","msg":"bench ingest round"');
    if (at < 0) continue;
    try {
      found.push(JSON.parse(line.slice(at)));
    } catch {
      // A partial line: left out of the sample.
    }
  }
  return found;
}

/** Requests a forum minute, per caller, over [from, to): the max and the mean of the whole minutes. */
function perMinute(requests, from, to) {
  const minutes = Math.max(1, Math.floor((to - from) / MINUTE));
  const cats = ["head", "posts", "comments", "refresh", "search", "other", "total"];
  const counts = Object.fromEntries(cats.map((c) => [c, new Array(minutes).fill(0)]));
  for (const r of requests) {
    const m = Math.floor((r.at - from) / MINUTE);
    if (m < 0 || m >= minutes) continue;
    counts[r.cat][m]++;
    // A round of the post walk starts with its head read (/r/all/new): it counts in the walk too.
    if (r.cat === "head") counts.posts[m]++;
    counts.total[m]++;
  }
  return Object.fromEntries(
    cats.map((c) => [c, { max: Math.max(...counts[c]), mean: counts[c].reduce((a, b) => a + b, 0) / minutes }]),
  );
}

/** Runs one workspace count end to end and returns its figures. */
export async function measureSize(W, o) {
  const terms = buildTerms(W);
  const sample = Array.from({ length: Math.min(o.sample, W) }, (_, i) => Math.floor((i * W) / Math.min(o.sample, W)));
  const persistTo = fs.mkdtempSync(path.join(os.tmpdir(), "threadwatch-bench-monitor-"));
  const out = { W, terms: 0, factor: o.factor };
  let server;
  let forum;
  try {
    let t = performance.now();
    const keys = await seed(persistTo, terms, sample);
    out.seedSeconds = (performance.now() - t) / 1000;
    o.say(`${W} workspaces: terms and ${sample.length} keys written in ${out.seedSeconds.toFixed(1)} s`);
    out.matcher = await timeMatcher(terms, o);
    out.terms = out.matcher.terms;
    o.say(`  matcher: ${out.matcher.terms} terms compiled in ${(out.matcher.compile_ms / 1000).toFixed(1)} s`);

    const clientId = `bench-monitor-${W}-${process.pid}`;
    const planted = new Set();
    const requests = [];
    forum = await startLocalForum({
      ports: o.forumPorts,
      clients: [
        {
          client_id: clientId,
          secret: "bench",
          // The forum's 1,000 requests per 600 s of its own time: its window counts real time.
          limit: 1000 * o.factor,
          window_s: 600,
          // An hour ahead of real time, so the searches of phase A (real clock) and the walk (forum clock)
          // never share the quota's window.
          clock: { now_ms: Date.now() + 3_600_000, factor: o.factor },
        },
      ],
      onRequest: (_origin, _req, url) => requests.push({ at: client.clock.now(), cat: classify(url, planted) }),
    });
    const client = forum.world.client(clientId);
    const forumT0 = client.clock.now();
    const realT0 = Date.now();
    server = startDevServer({
      port: o.port,
      ip: "127.0.0.1",
      persistTo,
      vars: {
        ADMIN_TOKEN: ADMIN,
        REDDIT_CLIENT_ID: clientId,
        REDDIT_CLIENT_SECRET: "bench",
        REDDIT_AUTH_URL: `${forum.origins.www}/api/v1/access_token`,
        REDDIT_API_BASE_URL: forum.origins.api,
        BENCH_FORUM_T0: String(forumT0),
        BENCH_REAL_T0: String(realT0),
        BENCH_CLOCK_FACTOR: String(o.factor),
      },
      extraArgs: ["--inspector-port", String(o.inspectorPort), "bench/monitor-worker.ts"],
      capture: true,
    });
    const base = `http://127.0.0.1:${o.port}`;
    const rounds = [];
    server.stdout.on("data", (text) => rounds.push(...roundsLogged(text)));
    await waitUntilReady(server, `${base}/`, 180_000);

    const common = { base, keys, sample, terms, world: forum.world, client, requests, W };
    out.old = await perWorkspaceSearch(common);
    o.say(`  per-workspace search: ${out.old.requests} requests for ${out.old.sampled} workspaces`);

    await callApi(base, ADMIN, "POST", "/__bench/ingester/open");
    await callApi(base, keys.get(sample[0]), "POST", "/api/v1/actions/monitoring/run");
    t = performance.now();
    out.warmSeconds = await warmUp(base, keys.get(sample[0]), 3, 20 * MINUTE);
    o.say(`  ingester: three rounds done ${out.warmSeconds.toFixed(0)} s (real) after it started`);
    const before = await tableRows(persistTo);
    const firstRound = rounds.length;
    const run = await ingest({ ...o, ...common, plantMs: o.plantMinutes * MINUTE });
    out.rounds = rounds.slice(firstRound);
    for (const p of run.posts) planted.add(p.id);
    out.requests = perMinute(requests, run.start, run.end);
    out.minutes = (run.end - run.start) / MINUTE;
    out.polls = run.polls;
    out.pollMs = run.pollMs;
    await stopDevServer(server);
    server = undefined;

    const after = await tableRows(persistTo);
    const rows = await storedRows(persistTo, [...run.posts.map((p) => p.id), ...run.decoys]);
    const stored = new Map(rows.map((r) => [`${r.w}:${r.id}`, r.at]));
    const expected = run.posts.flatMap((p) => terms.holders.get(p.term).map((w) => ({ ...p, w, target: p.w })));
    const found = (list) => list.filter((e) => stored.has(`${e.w}:${e.id}`)).length;
    const forumAt = (real) => forumT0 + (real - realT0) * o.factor;
    out.recall = {
      posts: run.posts.length,
      pairs: expected.length,
      found: found(expected),
      onTime: [expected.filter((e) => !e.late).length, found(expected.filter((e) => !e.late))],
      late: [expected.filter((e) => e.late).length, found(expected.filter((e) => e.late))],
    };
    const decoySet = new Set(run.decoys);
    out.decoys = { planted: run.decoys.length, stored: rows.filter((r) => decoySet.has(r.id)).length };
    const listed = run.posts.filter((p) => p.track && p.listedAt !== undefined);
    out.listed = {
      tracked: run.posts.filter((p) => p.track).length,
      onTime: listed.filter((p) => !p.late).map((p) => (p.listedAt - p.visibleAt) / 1000),
      late: listed.filter((p) => p.late).map((p) => (p.listedAt - p.visibleAt) / 1000),
      // The polled pairs alone (each tracked post and the workspace it was planted for), to row written.
      trackedWritten: run.posts
        .filter((p) => p.track && !p.late && stored.has(`${p.w}:${p.id}`))
        .map((p) => (forumAt(stored.get(`${p.w}:${p.id}`)) - p.visibleAt) / 1000),
      written: expected
        .filter((e) => stored.has(`${e.w}:${e.id}`))
        .map((e) => (forumAt(stored.get(`${e.w}:${e.id}`)) - e.visibleAt) / 1000),
    };
    const added = Object.keys(after).map((n) => [n, after[n] - (before[n] ?? 0)]);
    out.rows = {
      items: (after.posts ?? 0) - (before.posts ?? 0),
      total: added.reduce((a, [, n]) => a + n, 0),
      tables: added.filter(([, n]) => n > 0),
    };
    return out;
  } finally {
    if (server) await stopDevServer(server);
    if (forum) await forum.close();
    fs.rmSync(persistTo, { recursive: true, force: true });
  }
}
