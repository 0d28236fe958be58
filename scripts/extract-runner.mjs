// Starts scripts/extract-worker.ts in workerd (through wrangler's programmatic dev server) so that Node
// scripts run the very code the Worker runs. Used by `npm run extract` and `npm run bench:extract`.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { unstable_startWorker } from "wrangler";
import { ROOT } from "./lib/paths.mjs";

export async function startExtractWorker({ allowPrivate = false } = {}) {
  // Request.cf comes from a Cloudflare endpoint; nothing here needs it (and there may be no internet).
  process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";
  // Without a config, wrangler would pick up the project's wrangler.toml (the whole product Worker, its
  // Durable Object and queues); this worker needs none of it, so it gets a minimal config of its own.
  const configPath = path.join(os.tmpdir(), `threadwatch-extract-${process.pid}.toml`);
  fs.writeFileSync(
    configPath,
    [
      `name = "threadwatch-extract"`,
      `main = ${JSON.stringify(path.join(ROOT, "scripts/extract-worker.ts"))}`,
      `compatibility_date = "2026-10-01"`,
      `compatibility_flags = ["nodejs_compat"]`,
      `[vars]`,
      `ALLOW_PRIVATE_FETCH = "${allowPrivate}"`,
    ].join("\n"),
  );
  const worker = await unstable_startWorker({
    config: configPath,
    dev: { server: { hostname: "127.0.0.1", port: 0 }, inspector: false, watch: false, logLevel: "error" },
  }).finally(() => fs.rmSync(configPath, { force: true }));
  async function call(init, path = "/extract") {
    const res = await worker.fetch(`http://extract.local${path}`, { method: "POST", ...init });
    return res.json();
  }
  return {
    /**
     * Extracts a page from its bytes; `url` is the page's address (relative links resolve against it).
     * Timed over at least `repeat` runs and at least `minMs` milliseconds (the mean is `elapsed_ms`).
     */
    extractBytes: (bytes, url, contentType, repeat = 1, minMs = 0) =>
      call({
        body: bytes,
        headers: {
          "x-page-url": url,
          "x-repeat": String(repeat),
          "x-min-ms": String(minMs),
          ...(contentType ? { "x-content-type": contentType } : {}),
        },
      }),
    /** Fetches (safe fetch, docs/extraction.md) and extracts a page. */
    extractUrl: (url) => call({ headers: { "x-fetch-url": url } }),
    /** Parses a feed document (benchmark). */
    parseFeed: (bytes, url) => call({ body: bytes, headers: { "x-page-url": url } }, "/feed"),
    /** Parses a sitemap document, gzip or not (benchmark). */
    parseSitemap: (bytes, url) => call({ body: bytes, headers: { "x-page-url": url } }, "/sitemap"),
    /** Runs discovery from a blog address. */
    discover: (url, options = {}) =>
      call({ headers: { "x-fetch-url": url, "x-options": JSON.stringify(options) } }, "/discover"),
    dispose: () => worker.dispose(),
  };
}
