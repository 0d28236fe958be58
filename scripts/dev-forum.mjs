#!/usr/bin/env node
// npm run dev:forum [-- --port N] [--username NAME] [--subreddit NAME] [--every S] [--corpus DIR]
// (npm run dev:reddit is the same command.) The local forum the tests use (test/fixtures/forum/serve.ts),
// on four origins as the real one: the consent page and token endpoint (www), the OAuth host (api), the
// public site and the upload host, with a registered web-app client, ids allocated at the forum's real
// rates, a demo account and subreddit, the links of the recorded forum answers in ../shared/corpus/reddit
// (re-dated into the last three days) and a new post about the demo workspace's terms every `--every`
// seconds, so `npm start` with the printed variables shows posts flowing into GET /posts, and personas can
// be connected through its consent page. docs/publishing.md walks through it.
import path from "node:path";
import { integerOption, parseCommandLine, runMain } from "./lib/cli.mjs";
import { DEV_CLIENT, serveLocalForum } from "./lib/local-forum-server.mjs";
import { CORPUS_DIR } from "./lib/paths.mjs";
import { recordedLinks } from "./lib/recorded-links.mjs";

const USAGE = `usage: npm run dev:forum [-- --port N] [--username NAME] [--subreddit NAME] [--every S] [--corpus DIR]

  --port N           the forum's www, api, site and upload origins take the four ports after N
                     (default 8830)
  --username NAME    the demo account (default demo_author)
  --subreddit NAME   the demo subreddit (default threadwatch_demo)
  --every S          a new post about a tracked term appears every S seconds (default 30; 0: none)
  --corpus DIR       recorded forum answers (default reddit/ under $CORPUS_DIR or ../shared/corpus)

Steer it while it runs (JSON bodies, on the www origin): POST /__control/accounts/NAME
{"ratelimit_seconds":[60]}, {"suspended":true}, {"shadow_banned":true}, {"expired":true}; POST
/__control/subreddits {"name","type","requirements","flairs"}; POST /__control/remove {"id","by"};
POST /__control/site-fault {"fault":"block"}; GET /__control/clients/ID/stats, /__control/submissions.`;

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
function generated(ageSeconds) {
  const i = seq++;
  const term = TERMS[i % TERMS.length];
  const competitor = COMPETITORS[(i * 7) % COMPETITORS.length];
  return {
    title: TITLES[i % TITLES.length](term, competitor),
    selftext: BODIES[i % BODIES.length](term),
    subreddit: SUBREDDITS[i % SUBREDDITS.length],
    author: `dev_user_${i % 17}`,
    score: (i * 13) % 40,
    num_comments: (i * 5) % 12,
    created_utc: Math.floor(Date.now() / 1000) - ageSeconds,
  };
}

runMain(async () => {
  const { values } = parseCommandLine(process.argv.slice(2), {
    port: { type: "string", default: "8830" },
    username: { type: "string", default: "demo_author" },
    subreddit: { type: "string", default: "threadwatch_demo" },
    every: { type: "string", default: "30" },
    corpus: { type: "string", default: path.join(CORPUS_DIR, "reddit") },
  });
  const port = integerOption("port", values.port, { min: 1, max: 65530 });
  const every = integerOption("every", values.every, { min: 0, max: 86_400 });
  const local = await serveLocalForum(port, {
    onRequest: (req, url, origin) => console.log(`${new Date().toISOString()} ${origin} ${req.method} ${url.pathname}`),
  });
  const { forum, origins } = local;
  await forum.control("/accounts", { username: values.username });
  await forum.control("/subreddits", { name: values.subreddit, type: "public" });
  const initial = [
    ...recordedLinks(values.corpus),
    ...Array.from({ length: 40 }, (_, i) => generated(600 + i * 5_400)),
  ];
  await forum.control(`/clients/${DEV_CLIENT.client_id}/things`, { things: initial });
  const timer =
    every > 0
      ? setInterval(() => {
          const post = { ...generated(0), created_utc: undefined };
          forum.control(`/clients/${DEV_CLIENT.client_id}/things`, { things: [post] }).then(({ data }) => {
            console.log(`new post ${data[0].id}: ${post.title}`);
          }, console.error);
        }, every * 1000)
      : undefined;
  console.log(
    [
      "local forum (Ctrl-C stops it)",
      `  www (consent page, token endpoint, /__control): ${origins.www}`,
      `  api (the OAuth host):                           ${origins.api}`,
      `  site (the public site, logged out):             ${origins.site}`,
      `  upload (the upload host):                       ${origins.upload}`,
      `  web-app client: id ${DEV_CLIENT.client_id}, secret ${DEV_CLIENT.secret} (any redirect URI; any other id works too)`,
      `  account u/${values.username}, subreddit r/${values.subreddit}; ${initial.length} posts, a new one every ${every || "∞"} s`,
      `  connect u/${values.username} with POST /api/v1/actions/personas/connect (or the console's Personas page)`,
      "Run the service against it:",
      `  REDDIT_CLIENT_ID=${DEV_CLIENT.client_id} REDDIT_CLIENT_SECRET=${DEV_CLIENT.secret} \\`,
      `  REDDIT_AUTHORIZE_URL=${origins.www}/api/v1/authorize \\`,
      `  REDDIT_AUTH_URL=${origins.www}/api/v1/access_token \\`,
      `  REDDIT_API_BASE_URL=${origins.api} \\`,
      `  FORUM_BASE_URL=${origins.site} npm start`,
      "",
    ].join("\n"),
  );
  await new Promise((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  if (timer) clearInterval(timer);
  await local.close();
}, USAGE);
