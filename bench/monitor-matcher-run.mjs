// Times the ingester's matcher in workerd (bench/monitor-matcher.ts, through wrangler's programmatic dev
// server) on every workspace's terms: its compile time and its time per post, on the recorded forum's posts
// (../shared/corpus/reddit), relevant posts and decoys.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { unstable_startWorker } from "wrangler";
import { CORPUS_DIR, ROOT } from "../scripts/lib/paths.mjs";
import { recordedLinks } from "../scripts/lib/recorded-links.mjs";
import { hash32 } from "../test/fixtures/forum/http.ts";
import { decoyPost, relevantPost, termFor } from "./monitor-world.mjs";

const RECORDED = 400;
const PLANTED = 100;

/** The posts timed: recorded ones (spread over the corpus), then relevant posts and decoys of random workspaces. */
function postsToTime(terms) {
  const links = recordedLinks(path.join(CORPUS_DIR, "reddit"));
  const step = Math.max(1, Math.floor(links.length / RECORDED));
  const item = (l) => ({
    subreddit: l.subreddit ?? "SaaS",
    author: l.author ?? "someone",
    title: l.title,
    body: l.selftext ?? "",
  });
  const recorded = links
    .filter((_, i) => i % step === 0)
    .slice(0, RECORDED)
    .map(item);
  const n = terms.byWorkspace.length;
  const pick = (i, salt) => {
    const h = hash32(`${salt}:${i}`);
    return termFor(terms, h % n, (h >>> 4) / 2 ** 28, h >>> 9);
  };
  const relevant = Array.from({ length: PLANTED }, (_, i) => item(relevantPost(pick(i, "time"), i)));
  const decoys = Array.from({ length: PLANTED }, (_, i) => item(decoyPost(pick(i, "decoy"), i)));
  return { recorded, relevant, decoys };
}

export async function timeMatcher(terms, { matcherPort }) {
  process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";
  const configPath = path.join(os.tmpdir(), `threadwatch-bench-matcher-${process.pid}.toml`);
  fs.writeFileSync(
    configPath,
    [
      `name = "threadwatch-bench-matcher"`,
      `main = ${JSON.stringify(path.join(ROOT, "bench/monitor-matcher.ts"))}`,
      `compatibility_date = "2026-10-01"`,
      `compatibility_flags = ["nodejs_compat"]`,
    ].join("\n"),
  );
  const worker = await unstable_startWorker({
    config: configPath,
    dev: { server: { hostname: "127.0.0.1", port: matcherPort }, inspector: false, watch: false, logLevel: "error" },
  }).finally(() => fs.rmSync(configPath, { force: true }));
  try {
    const { recorded, relevant, decoys } = postsToTime(terms);
    const res = await worker.fetch("http://matcher.local/time", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        workspaces: terms.byWorkspace.map((t) => [t.competitor, ...t.keywords]),
        posts: [...recorded, ...relevant, ...decoys],
        min_ms: 5,
      }),
    });
    if (!res.ok) throw new Error(`matcher timing failed: ${res.status} ${(await res.text()).slice(0, 300)}`);
    const answer = await res.json();
    const r = recorded.length;
    return {
      ...answer,
      recorded: r,
      relevantMissed: answer.posts.slice(r, r + PLANTED).filter((p) => p.workspaces === 0).length,
      decoysMatched: answer.posts.slice(r + PLANTED).filter((p) => p.workspaces > 0).length,
    };
  } finally {
    await worker.dispose();
  }
}
