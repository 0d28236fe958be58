#!/usr/bin/env node
// npm run dev:reddit [-- --port N] [--every S] [--corpus DIR]
// A local forum data API speaking the real protocol (test/fixtures/forum/fake-forum.ts: app-only OAuth with
// HTTP Basic, /search with `after` paging, /api/info, X-Ratelimit-* headers, 429s over 100 requests a
// minute), so `npm start` with the REDDIT_* variables below shows posts flowing into GET /posts. Its posts:
// the links of the recorded forum answers in ../shared/corpus/reddit (re-dated into the last three days),
// generated posts about the demo workspace's keywords and competitors, and a new generated post every
// `--every` seconds. Any client id and secret are accepted.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { FakeForum, readBody } from "../test/fixtures/forum/fake-forum.ts";
import { integerOption, parseCommandLine, runMain } from "./lib/cli.mjs";
import { CORPUS_DIR } from "./lib/paths.mjs";

const USAGE = `usage: npm run dev:reddit [-- --port N] [--every S] [--corpus DIR]

  --port N     port of the local forum API (default 8791)
  --every S    a new post about a tracked term appears every S seconds (default 30; 0: none)
  --corpus DIR recorded forum answers (default reddit/ under $CORPUS_DIR or ../shared/corpus)`;

// The demo workspace's terms (scripts/lib/seed-data.mjs), so its inbox fills up.
const TERMS = ["email marketing", "newsletter platform", "open rate", "deliverability", "cold email", "spam folder"];
const COMPETITORS = ["Mailchimp", "ConvertKit", "Klaviyo", "Brevo", "Beehiiv"];
const SUBREDDITS = ["emailmarketing", "marketing", "smallbusiness", "SaaS", "Newsletters"];
const TITLES = [
  (t, c) => `Looking for a ${c} alternative for ${t}?`,
  (t) => `How do you improve ${t} for a small shop?`,
  (t, c) => `${c} or something else for ${t}?`,
  (t) => `Our ${t} dropped after the migration`,
  (t, c) => `Leaving ${c}: what do you use for ${t}?`,
];
const BODIES = [
  (t) => `We send about 5k emails a month and ${t} is our biggest worry. Any recommendation?`,
  (t) => `Not sure where to start with ${t}. What worked for you?`,
  () => "Sharing our numbers after a year, happy to answer questions.",
];

let seq = 0;
function generated(now, ageSeconds) {
  const i = seq++;
  const term = TERMS[i % TERMS.length];
  const competitor = COMPETITORS[(i * 7) % COMPETITORS.length];
  return {
    id: `dev${i.toString(36)}${(now % 1e6).toString(36)}`,
    title: TITLES[i % TITLES.length](term, competitor),
    selftext: BODIES[i % BODIES.length](term),
    subreddit: SUBREDDITS[i % SUBREDDITS.length],
    author: `dev_user_${i % 17}`,
    score: (i * 13) % 40,
    num_comments: (i * 5) % 12,
    created_utc: Math.floor(now / 1000) - ageSeconds,
  };
}

/** The t3 links of every recorded listing under the corpus's reddit/ folder, re-dated into the last three days. */
function recordedLinks(dir, now) {
  const links = [];
  if (!fs.existsSync(dir)) return links;
  const files = fs.readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith(".json"));
  for (const f of files) {
    let doc;
    try {
      doc = JSON.parse(fs.readFileSync(path.join(dir, String(f)), "utf8"));
    } catch {
      continue;
    }
    const bodies = doc.interactions
      ? doc.interactions.map((i) => {
          try {
            return JSON.parse(i.response?.body?.string ?? "null");
          } catch {
            return null;
          }
        })
      : [doc];
    for (const body of bodies) {
      for (const child of body?.data?.children ?? []) {
        const d = child?.data;
        if (child?.kind !== "t3" || typeof d?.id !== "string" || typeof d.title !== "string") continue;
        links.push({
          id: d.id,
          title: d.title,
          selftext: typeof d.selftext === "string" ? d.selftext : "",
          subreddit: d.subreddit ?? "redditdev",
          author: d.author ?? "[deleted]",
          url: typeof d.url === "string" && d.url.startsWith("http") ? d.url : undefined,
          score: d.score ?? 0,
          num_comments: d.num_comments ?? 0,
          created_utc: Math.floor(now / 1000) - ((links.length * 2_357) % (3 * 86_400)),
        });
      }
    }
  }
  return links;
}

runMain(async () => {
  const { values } = parseCommandLine(process.argv.slice(2), {
    port: { type: "string", default: "8791" },
    every: { type: "string", default: "30" },
    corpus: { type: "string", default: path.join(CORPUS_DIR, "reddit") },
  });
  const port = integerOption("port", values.port, { min: 1, max: 65535 });
  const every = integerOption("every", values.every, { min: 0, max: 86_400 });
  const forum = new FakeForum({ acceptAnyClient: true });
  const now = Date.now();
  const initial = [
    ...recordedLinks(values.corpus, now),
    ...Array.from({ length: 40 }, (_, i) => generated(now, 600 + i * 5_400)),
  ];
  const clients = new Set();
  const seed = (clientId) => {
    if (clients.has(clientId)) return;
    clients.add(clientId);
    forum.addPosts(clientId, initial);
  };
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", `http://127.0.0.1:${port}`);
    const body = await readBody(req);
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    if (basic) seed(Buffer.from(basic, "base64").toString("utf8").split(":")[0]);
    const handled = forum.handle(req, res, url, body);
    console.log(
      `${new Date().toISOString()} ${req.method} ${url.pathname}${url.search.slice(0, 80)} ${res.statusCode}`,
    );
    if (!handled)
      res.writeHead(404, { "content-type": "application/json" }).end('{"message": "Not Found", "error": 404}');
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  const timer =
    every > 0
      ? setInterval(() => {
          const post = generated(Date.now(), 0);
          for (const c of clients) forum.addPosts(c, [post]);
          console.log(`new post ${post.id}: ${post.title}`);
        }, every * 1000)
      : undefined;
  const origin = `http://127.0.0.1:${port}`;
  console.log(
    [
      `local forum API on ${origin} (${initial.length} posts; a new one every ${every || "∞"} s; Ctrl-C stops it)`,
      "Run the service against it:",
      `  REDDIT_CLIENT_ID=local REDDIT_CLIENT_SECRET=local REDDIT_AUTH_URL=${origin}/api/v1/access_token \\`,
      `  REDDIT_API_BASE_URL=${origin} npm start`,
    ].join("\n"),
  );
  await new Promise((resolve) => {
    const stop = () => {
      if (timer) clearInterval(timer);
      server.close(() => resolve());
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}, USAGE);
