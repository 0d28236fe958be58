#!/usr/bin/env node
// npm start [-- --port N] [--persist-to DIR] [--dev-vars FILE]
// Local development: prepares the browser binding, applies D1 migrations, seeds a demo workspace once,
// prints working demo keys and the admin token, and runs `wrangler dev` with ALLOW_PRIVATE_FETCH on.
// wrangler's output passes through scripts/lib/dev-output.mjs (its bindings table once, no readiness probe
// lines), and wrangler never reaches for the network on its own (scripts/lib/wrangler.mjs): offline, the
// output is our steps, wrangler's table and warnings once, and our banner.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { integerOption, parseCommandLine, runMain } from "./lib/cli.mjs";
import { ensureDemoWorkspace } from "./lib/demo-workspace.mjs";
import { devOutputFilter } from "./lib/dev-output.mjs";
import { portTaken, portTakenError, startDevServer, stopDevServer, waitUntilReady } from "./lib/dev-server.mjs";
import { ensureDevVars } from "./lib/dev-vars.mjs";
import { describeSettings, forumSettings } from "./lib/forum-settings.mjs";
import { ensureLocalDatabase } from "./lib/local-d1.mjs";
import { DEFAULT_PERSIST_DIR, ROOT } from "./lib/paths.mjs";

const USAGE = `usage: npm start [-- --port N] [--persist-to DIR] [--dev-vars FILE] [--inspector-port N]

  --port N             port of the local service (default 8787)
  --persist-to DIR     local state directory, as for wrangler (default .wrangler/state)
  --dev-vars FILE      local secrets file (default .dev.vars; another file's secrets are passed to wrangler
                       dev as --var, so a second local service keeps its own admin token)
  --inspector-port N   wrangler dev's DevTools inspector port (default: wrangler's own)`;

const step = (message) => console.log(`[start] ${message}`);

function setupBrowser() {
  try {
    execFileSync(process.execPath, [path.join(ROOT, "scripts", "setup-browser.mjs")], { cwd: ROOT, stdio: "inherit" });
  } catch {
    // The API works without it; only persona/browser operations need the local Chromium.
    step("warning: local Browser Rendering is not set up (see above); browser operations will fail");
  }
}

/**
 * A fresh single-use owner invitation for the demo workspace (7 days), made through the admin API: the
 * console's way in as a person. Undefined (and said so) when the service refused.
 */
async function ownerInvitation(port, demo, adminToken) {
  try {
    const res = await fetch(`http://localhost:${port}/admin/v1/workspaces/${demo.workspace_id}/invitations`, {
      method: "POST",
      headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
      body: JSON.stringify({ email: "owner@demo.threadwatch.local", role: "owner" }),
    });
    if (res.status === 201) return (await res.json()).url;
    // 409: the demo owner has joined already; they sign in with their password.
    if (res.status === 409) return "already accepted: sign in as owner@demo.threadwatch.local";
    return `not made (the admin API answered ${res.status})`;
  } catch (err) {
    return `not made (${err.message})`;
  }
}

function banner(port, demo, adminToken, devVarsFile, invitation) {
  const base = `http://localhost:${port}`;
  return [
    "",
    `threadwatch is running on ${base}  (Ctrl-C stops it)`,
    `  demo workspace ${demo.workspace_id}${demo.created ? " (seeded now)" : ""}${demo.rekeyed ? " (new demo keys: a remembered one was revoked or deleted)" : ""}`,
    `  read_write key: ${demo.api_key}`,
    `  read key:       ${demo.read_key}`,
    `  admin token:    ${adminToken}   (from ${devVarsFile ?? ".dev.vars"})`,
    `  owner invitation (single use, 7 days): ${invitation}`,
    "",
    `  curl -H "Authorization: Bearer ${demo.read_key}" "${base}/api/v1/posts?limit=2"`,
    // The admin CLI's default is port 8787; name the service when it runs elsewhere.
    `  npm run admin -- ${port === 8787 ? "" : `--base-url ${base} `}workspaces list`,
    "",
  ].join("\n");
}

/** Monitoring's metrics provider (docs/monitoring.md), passed from this process's environment when set. */
const MONITORING_VARS = ["DATAFORSEO_LOGIN", "DATAFORSEO_PASSWORD", "DATAFORSEO_BASE_URL"];
const monitoringVars = () =>
  Object.fromEntries(MONITORING_VARS.filter((name) => process.env[name]).map((name) => [name, process.env[name]]));

/** Copies a child's output to ours line by line, keeping only the lines `keep` accepts. */
function relayLines(stream, out, keep) {
  let pending = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk) => {
    const lines = (pending + chunk).split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) if (keep(line)) out.write(`${line}\n`);
  });
  stream.on("end", () => {
    if (pending && keep(pending)) out.write(`${pending}\n`);
  });
}

runMain(async () => {
  const { values } = parseCommandLine(process.argv.slice(2), {
    port: { type: "string", default: "8787" },
    "persist-to": { type: "string" },
    "dev-vars": { type: "string" },
    "inspector-port": { type: "string" },
  });
  const port = integerOption("port", values.port, { min: 1, max: 65535 });
  const persistTo = values["persist-to"] ? path.resolve(values["persist-to"]) : undefined;
  const devVarsFile = values["dev-vars"] ? path.resolve(values["dev-vars"]) : undefined;
  const inspector = values["inspector-port"]
    ? ["--inspector-port", String(integerOption("inspector-port", values["inspector-port"], { min: 1, max: 65535 }))]
    : [];

  if (await portTaken(port)) throw await portTakenError(port, "npm start");
  setupBrowser();
  const { vars, added } = ensureDevVars(devVarsFile);
  if (added.length > 0) step(`wrote ${added.join(" and ")} to ${devVarsFile ?? ".dev.vars"}`);
  if (await ensureLocalDatabase(persistTo)) step("applied D1 migrations to the local database");
  const demo = await ensureDemoWorkspace(persistTo ?? DEFAULT_PERSIST_DIR);

  step(`starting wrangler dev on port ${port}`);
  // The forum's settings (npm run dev:forum prints them): from the environment, else the last ones given.
  const { settings: forum, file: forumFile } = forumSettings(persistTo ?? DEFAULT_PERSIST_DIR);
  if (Object.keys(forum).length > 0)
    step(`forum settings (remembered in ${path.relative(ROOT, forumFile)}): ${describeSettings(forum).join(" ")}`);
  const secrets = devVarsFile ? { ADMIN_TOKEN: vars.ADMIN_TOKEN, SESSION_KEY: vars.SESSION_KEY } : {};
  const child = startDevServer({
    port,
    persistTo,
    vars: { ALLOW_PRIVATE_FETCH: "true", ...secrets, ...monitoringVars(), ...forum },
    extraArgs: inspector,
    capture: true,
  });
  const output = devOutputFilter();
  relayLines(child.stdout, process.stdout, output.keep);
  relayLines(child.stderr, process.stderr, output.keep);
  let stopping = false;
  const stop = () => {
    stopping = true;
    void stopDevServer(child);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve(code ?? (signal ? 0 : 1))));

  try {
    const probes = await waitUntilReady(child, `http://localhost:${port}/`);
    const invitation = await ownerInvitation(port, demo, vars.ADMIN_TOKEN);
    console.log(banner(port, demo, vars.ADMIN_TOKEN, devVarsFile, invitation));
    output.ready(probes);
  } catch (err) {
    if (!stopping) console.error(`[start] ${err.message}`);
  }
  const code = await exited;
  return stopping ? 0 : code;
}, USAGE);
