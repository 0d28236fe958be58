#!/usr/bin/env node
// npm run dev:forum [-- --port N]
// A local forum speaking Reddit's protocol (the same module the tests use: test/fixtures/forum/), so the
// whole persona → readiness → preflight → approve → publish path runs on one machine. It creates a demo
// account and subreddit at start and prints the account's cookie export. Pair it with
// `FORUM_BASE_URL=http://localhost:N npm start`; docs/publishing.md walks through it with curl.
import fs from "node:fs";
import path from "node:path";
import { integerOption, parseCommandLine, runMain } from "./lib/cli.mjs";
import { serveLocalForum } from "./lib/local-forum-server.mjs";
import { ROOT } from "./lib/paths.mjs";

const USAGE = `usage: npm run dev:forum [-- --port N] [--username NAME] [--subreddit NAME]

  --port N           port of the local forum (default 8830)
  --username NAME    the demo account (default demo_author)
  --subreddit NAME   the demo subreddit (default threadwatch_demo)

Steer it while it runs (JSON bodies): POST /__control/accounts/NAME {"ratelimit_seconds":[60]},
{"expired":true}, {"crash_after_submit":true}; POST /__control/subreddits {"name","type","requirements",
"flairs"}; GET /__control/submissions, /__control/uploads.`;

runMain(async () => {
  const { values } = parseCommandLine(process.argv.slice(2), {
    port: { type: "string", default: "8830" },
    username: { type: "string", default: "demo_author" },
    subreddit: { type: "string", default: "threadwatch_demo" },
  });
  const port = integerOption("port", values.port, { min: 1, max: 65535 });
  const {
    server,
    base,
    control: call,
  } = await serveLocalForum(port, {
    onRequest: (req, url) => console.log(`${new Date().toISOString()} ${req.method} ${url.pathname}`),
  });
  const { cookies } = await call("/accounts", { username: values.username });
  await call("/subreddits", { name: values.subreddit, type: "public" });
  const file = path.join(ROOT, ".wrangler", "dev-forum-cookies.json");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(cookies, null, 2)}\n`);
  console.log(
    [
      `local forum on ${base}  (Ctrl-C stops it)`,
      `  account u/${values.username}, subreddit r/${values.subreddit}`,
      `  cookie export of the account: ${path.relative(ROOT, file)}`,
      `  run the service against it:   FORUM_BASE_URL=${base} npm start`,
      "",
    ].join("\n"),
  );
  await new Promise((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  server.close();
}, USAGE);
