#!/usr/bin/env node
// npm install's preinstall step. npm itself may run on an older Node than the project's (the README's
// Node 20, say): the project installs its own Node 22 (devDependency "node"), which npm puts first on the
// PATH of every `npm run` / `npm test`, and its tools (wrangler, miniflare, puppeteer) need it. npm would
// print five EBADENGINE lines for each of them; .npmrc keeps install output to errors, and this one line
// says why.
import { pathToFileURL } from "node:url";

const WANTED = [22, 12];

/** The line for npm running on Node `version` ("20.20.2"), or undefined when it is new enough already. */
export function nodeNote(version) {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  if (major > WANTED[0] || (major === WANTED[0] && minor >= WANTED[1])) return undefined;
  return `threadwatch: npm runs on Node ${version}; the project's scripts and tests run on the Node 22 it installs (devDependency "node"), which wrangler, miniflare and puppeteer need, so npm's engine warnings about them do not apply and are not shown (.npmrc loglevel=error)`;
}

/** The Node npm itself runs on: its user agent says ("npm/11.19.1 node/v20.20.2 linux x64 ..."). */
export function npmNodeVersion(userAgent) {
  return /\bnode\/v(\d+\.\d+\.\d+)/.exec(userAgent ?? "")?.[1];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  // This script itself may run on the project's Node 22 (npm puts node_modules/.bin first on the PATH).
  const note = nodeNote(npmNodeVersion(process.env.npm_config_user_agent) ?? process.versions.node);
  if (note) console.log(note);
}
