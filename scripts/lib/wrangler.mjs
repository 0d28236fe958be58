// Runs the project's pinned wrangler non-interactively (no telemetry prompt, no login, no confirmation).
import { spawn } from "node:child_process";
import path from "node:path";
import { ROOT } from "./paths.mjs";

// Run through this very Node (the pinned one npm put first on PATH), never whatever `node` the shebang finds.
const WRANGLER_JS = path.join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js");
const BIN_DIR = path.join(ROOT, "node_modules", ".bin");

/**
 * Environment for every wrangler child: no metrics, no update check, no interactive questions, and no
 * download of the `request.cf` sample (Miniflare's CLOUDFLARE_CF_FETCH_ENABLED): offline, that download
 * printed a `getaddrinfo ENOTFOUND` stack trace on every start; the local service uses Miniflare's
 * built-in placeholder instead (set the variable to "true" to fetch it).
 */
function wranglerEnv(extra = {}) {
  return {
    ...process.env,
    CLOUDFLARE_CF_FETCH_ENABLED: process.env.CLOUDFLARE_CF_FETCH_ENABLED ?? "false",
    WRANGLER_SEND_METRICS: "false",
    WRANGLER_SEND_ERROR_REPORTS: "false",
    WRANGLER_HIDE_BANNER: "true",
    NO_UPDATE_NOTIFIER: "1",
    PATH: `${BIN_DIR}${path.delimiter}${process.env.PATH ?? ""}`,
    ...extra,
  };
}

/** Starts wrangler with the given arguments; stdio is inherited unless `capture` is set. */
export function spawnWrangler(args, { capture = false, env = {} } = {}) {
  return spawn(process.execPath, [WRANGLER_JS, ...args], {
    cwd: ROOT,
    env: wranglerEnv(env),
    stdio: capture ? ["ignore", "pipe", "pipe"] : ["ignore", "inherit", "inherit"],
  });
}

/** Runs wrangler to completion; resolves with its output, rejects with the output when it fails. */
export function runWrangler(args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawnWrangler(args, { capture: true, ...options });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve({ stdout, stderr });
      else
        reject(
          new Error(`wrangler ${args.slice(0, 3).join(" ")} failed (exit ${code}):\n${(stderr || stdout).trim()}`),
        );
    });
  });
}

const persistArgs = (persistTo) => (persistTo ? ["--persist-to", persistTo] : []);

/** Applies migrations/ to the local D1 database (idempotent: wrangler skips what is applied). */
export async function applyLocalMigrations({ persistTo } = {}) {
  await runWrangler(["d1", "migrations", "apply", "DB", "--local", ...persistArgs(persistTo)], { env: { CI: "true" } });
}

/** Runs one SQL statement on the local D1 database and returns its rows. */
export async function queryLocal(sql, { persistTo } = {}) {
  const results = await queryLocalJson(["--command", sql], persistTo);
  return results.at(-1)?.results ?? [];
}

/** Runs every statement of a .sql file and returns the rows of each, in order. */
export async function queryLocalFile(file, { persistTo } = {}) {
  return (await queryLocalJson(["--file", file], persistTo)).map((r) => r.results ?? []);
}

async function queryLocalJson(sqlArgs, persistTo) {
  const { stdout } = await runWrangler([
    "d1",
    "execute",
    "DB",
    "--local",
    "--json",
    ...sqlArgs,
    ...persistArgs(persistTo),
  ]);
  return JSON.parse(stdout);
}

/** Runs a .sql file on the local D1 database. */
export async function executeLocalFile(file, { persistTo } = {}) {
  await runWrangler(["d1", "execute", "DB", "--local", "--yes", "--file", file, ...persistArgs(persistTo)]);
}
