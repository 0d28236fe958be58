#!/usr/bin/env node
// Points wrangler/miniflare's local Browser Rendering at Debian's Chromium.
//
// Miniflare downloads a pinned Chrome build on first use, which fails on machines without open internet.
// It skips the download when an executable and an install marker already sit at the path it expects, so we
// put a small wrapper there that runs the system Chromium. Safe to run repeatedly; used by `npm test`,
// `npm start` and CI.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const CHROMIUM_CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

function findChromium() {
  if (process.env.CHROMIUM_PATH && fs.existsSync(process.env.CHROMIUM_PATH)) return process.env.CHROMIUM_PATH;
  return CHROMIUM_CANDIDATES.find((p) => fs.existsSync(p));
}

function installChromium() {
  if (process.getuid?.() !== 0) return;
  console.log("[setup-browser] installing Debian's chromium (apt-get)...");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
  execFileSync("apt-get", ["install", "-y", "-qq", "chromium"], { stdio: "inherit", env });
}

/** The Chrome build each installed miniflare pins (`BROWSER_VERSION`), wherever npm placed miniflare. */
function miniflareBrowserVersions(root) {
  const versions = new Set();
  const visit = (nodeModules, depth) => {
    if (depth > 4 || !fs.existsSync(nodeModules)) return;
    for (const entry of fs.readdirSync(nodeModules, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith(".")) continue;
      const dir = path.join(nodeModules, entry.name);
      if (entry.name.startsWith("@")) {
        // A scope folder holds packages; each may carry its own node_modules.
        for (const scoped of fs.readdirSync(dir)) visit(path.join(dir, scoped, "node_modules"), depth + 1);
        continue;
      }
      if (entry.name === "miniflare") {
        const index = path.join(dir, "dist", "src", "index.js");
        const match = fs.existsSync(index) && /var BROWSER_VERSION = "([^"]+)"/.exec(fs.readFileSync(index, "utf8"));
        if (match) versions.add(match[1]);
      }
      visit(path.join(dir, "node_modules"), depth + 1);
    }
  };
  visit(path.join(root, "node_modules"), 0);
  return [...versions];
}

let chromium = findChromium();
if (!chromium) {
  installChromium();
  chromium = findChromium();
}
if (!chromium) {
  console.error(
    "[setup-browser] no Chromium found. Install it (Debian: apt-get install -y chromium) or set CHROMIUM_PATH.",
  );
  process.exit(1);
}

const cacheRoot = process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
const versions = miniflareBrowserVersions(process.cwd());
if (versions.length === 0) {
  console.error("[setup-browser] no miniflare installation found under node_modules; run npm install first.");
  process.exit(1);
}
for (const version of versions) {
  const installDir = path.join(cacheRoot, ".wrangler", "chrome", `linux-${version}`);
  const exe = path.join(installDir, "chrome-linux64", "chrome");
  fs.mkdirSync(path.dirname(exe), { recursive: true });
  // --no-sandbox: CI and dev containers run as root, where Chromium's sandbox refuses to start.
  // The background-networking flags stop Chromium reaching for Google services a closed network refuses.
  const wrapper = `#!/bin/sh\nexec "${chromium}" --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync --no-first-run "$@"\n`;
  if (!fs.existsSync(exe) || fs.readFileSync(exe, "utf8") !== wrapper) {
    fs.writeFileSync(exe, wrapper, { mode: 0o755 });
  }
  fs.writeFileSync(path.join(installDir, ".miniflare-install-complete"), "");
  console.log(`[setup-browser] local Browser Rendering ${version} -> ${chromium}`);
}
