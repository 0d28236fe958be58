#!/usr/bin/env node
// npm run dev:blog [-- --port N]
// Serves the sample blog (test/fixtures/sites/sample-blog/) on localhost so a local sync has something real
// to read: a landing page, an RSS feed, four posts with images, robots.txt. `{{ORIGIN}}` in the files
// becomes this server's address. Pair it with `npm start` (which allows private addresses); see
// docs/blog-sync.md for the curl steps.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { integerOption, parseCommandLine, runMain } from "./lib/cli.mjs";
import { ROOT } from "./lib/paths.mjs";

const USAGE = `usage: npm run dev:blog [-- --port N]

  --port N   port of the sample blog (default 8790)`;

const SITE = path.join(ROOT, "test", "fixtures", "sites", "sample-blog");
const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".xml": "application/rss+xml; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".png": "image/png",
  ".md": "text/plain; charset=utf-8",
};
const TEXT = new Set([".html", ".xml", ".txt", ".md"]);

function handler(origin) {
  return (req, res) => {
    const url = new URL(req.url ?? "/", origin);
    const relative = decodeURIComponent(url.pathname).replace(/\/$/, "/index.html");
    const file = path.normalize(path.join(SITE, relative));
    const ok = file.startsWith(SITE + path.sep) && fs.existsSync(file) && fs.statSync(file).isFile();
    console.log(`${new Date().toISOString()} ${req.method} ${url.pathname} ${ok ? 200 : 404}`);
    if (!ok) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    const ext = path.extname(file);
    const body = TEXT.has(ext) ? fs.readFileSync(file, "utf8").replaceAll("{{ORIGIN}}", origin) : fs.readFileSync(file);
    res.writeHead(200, { "content-type": TYPES[ext] ?? "application/octet-stream" }).end(body);
  };
}

runMain(async () => {
  const { values } = parseCommandLine(process.argv.slice(2), {
    port: { type: "string", default: "8790" },
  });
  const port = integerOption("port", values.port, { min: 1, max: 65535 });
  const origin = `http://127.0.0.1:${port}`;
  const server = http.createServer(handler(origin));
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  console.log(`sample blog on ${origin}/  (feed: ${origin}/feed.xml; Ctrl-C stops it)`);
  await new Promise((resolve) => {
    const stop = () => server.close(() => resolve());
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  return 0;
}, USAGE);
