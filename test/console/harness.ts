// The console's browser tests run against the real Worker: `wrangler dev` on a port of its own with a fresh
// local database in a temporary --persist-to directory (a copy of a database migrated once, see
// copyMigratedDatabase in scripts/lib/local-d1.mjs; a workspace seeded by the seed command's own code), the
// fixture server for the outside world, and Debian's Chromium through puppeteer-core.

import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
// @ts-expect-error: plain .mjs helpers of the project's scripts (no type declarations)
import { startDevServer, stopDevServer, waitUntilReady } from "../../scripts/lib/dev-server.mjs";
// @ts-expect-error: see above
import { copyMigratedDatabase, openLocalD1 } from "../../scripts/lib/local-d1.mjs";
// @ts-expect-error: see above
import { seedWorkspace } from "../../scripts/lib/seed-workspace.mjs";
import { type LocalForum, startLocalForum } from "../fixtures/forum/serve";
import { type FixtureServer, startFixtureServer } from "../fixtures/server";

/** The console tests' port and inspector port (8880-8889 and 9238 are this suite's). */
const PORT = Number(process.env.CONSOLE_TEST_PORT ?? 8881);
const INSPECTOR_PORT = 9238;
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const ADMIN_TOKEN = "console-test-admin-token";
/** The forum app of the console tests on the local forum (its redirect URI is this Worker's callback). */
const FORUM_CLIENT = { client_id: "console-test-client", secret: "console-test-secret" };
const SESSION_KEY = "Y29uc29sZS10ZXN0LXNlc3Npb24ta2V5LTMyYnl0ZXM="; // base64 of 32 bytes

export interface Harness {
  base: string;
  fixtureOrigin: string;
  /** The local forum's four origins (test/fixtures/forum/serve.ts). */
  forumOrigins: LocalForum["origins"];
  workspaceId: number;
  writeKey: string;
  readKey: string;
  browser: Browser;
  /** An /api/v1 call with a key; the parsed JSON body (or null) and the status. */
  api(key: string, method: string, pathname: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** An /admin/v1 call with the admin token. */
  admin(method: string, pathname: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** A call to the local forum's /__control (accounts, subreddits, submissions, consent); GET without a body. */
  forum(pathname: string, body?: unknown): Promise<any>;
  /** Connects `username` (an account of the local forum) to the workspace: connect, consent, callback. */
  connect(username: string): Promise<{ status: number; html: string }>;
  close(): Promise<void>;
}

interface SqliteDb {
  exec(sql: string): void;
  prepare(sql: string): { get(...params: unknown[]): Record<string, unknown> | undefined };
  close(): void;
}

/**
 * Seeds a workspace with its two keys and `posts` synthetic posts (the seed command's own code), then lets
 * `prepare` change rows straight in the database file, before wrangler dev opens it.
 */
async function seed(
  persistTo: string,
  posts: number,
  prepare: (sql: (s: string) => void, workspaceId: number) => void,
) {
  const seeded = await seedWorkspace({ name: "Console test", posts, persistTo, keyName: "console", seed: 17 });
  const db: SqliteDb = await openLocalD1(persistTo);
  try {
    prepare((statement) => db.exec(statement), seeded.workspaceId);
  } finally {
    db.close();
  }
  return { workspaceId: seeded.workspaceId as number, keys: seeded.keys as string[] };
}

async function call(url: string, bearer: string, method: string, body?: unknown) {
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${bearer}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

export async function startHarness(
  prepare: (sql: (statement: string) => void, workspaceId: number) => void = () => {},
): Promise<Harness> {
  const persistTo = fs.mkdtempSync(path.join(os.tmpdir(), "threadwatch-console-"));
  const fixtures: FixtureServer = await startFixtureServer();
  const base = `http://localhost:${PORT}`;
  const localForum = await startLocalForum({
    clients: [{ ...FORUM_CLIENT, redirect_uris: [`${base}/oauth/forum/callback`] }],
  });
  let server: ReturnType<typeof startDevServer> | undefined;
  let browser: Browser | undefined;
  try {
    const t0 = Date.now();
    await copyMigratedDatabase(persistTo); // wrangler's migrations, run once per set of migrations and copied
    const t1 = Date.now();
    const seeded = await seed(persistTo, 80, prepare);
    server = startDevServer({
      port: PORT,
      persistTo,
      capture: true,
      vars: {
        ADMIN_TOKEN,
        SESSION_KEY,
        ALLOW_PRIVATE_FETCH: "true",
        // The local forum (test/fixtures/forum/serve.ts) on its four origins: personas, readiness, preflights.
        FORUM_BASE_URL: localForum.origins.site,
        REDDIT_AUTHORIZE_URL: `${localForum.origins.www}/api/v1/authorize`,
        REDDIT_AUTH_URL: `${localForum.origins.www}/api/v1/access_token`,
        REDDIT_API_BASE_URL: localForum.origins.api,
        REDDIT_CLIENT_ID: FORUM_CLIENT.client_id,
        REDDIT_CLIENT_SECRET: FORUM_CLIENT.secret,
        REDDIT_USER_AGENT: "test:threadwatch-console:1.0 (by threadwatch tests)",
      },
      extraArgs: ["--inspector-port", String(INSPECTOR_PORT)],
    });
    await waitUntilReady(server, `${base}/`);
    if (process.env.CONSOLE_TEST_TIMINGS) console.log(`migrations ${t1 - t0} ms, seed+server ${Date.now() - t1} ms`);
    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"],
    });
    const started = { server, browser };
    return {
      base,
      fixtureOrigin: fixtures.origin,
      forumOrigins: localForum.origins,
      workspaceId: seeded.workspaceId,
      writeKey: seeded.keys[0]!,
      readKey: seeded.keys[1]!,
      browser,
      api: (key, method, pathname, body) => call(`${base}/api/v1${pathname}`, key, method, body),
      admin: (method, pathname, body) => call(`${base}/admin/v1${pathname}`, ADMIN_TOKEN, method, body),
      async forum(pathname, body) {
        const res = await fetch(`${localForum.origins.www}/__control${pathname}`, {
          method: body === undefined ? "GET" : "POST",
          headers: { "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        if (res.status >= 300) throw new Error(`forum control ${pathname}: ${res.status} ${await res.text()}`);
        return res.json();
      },
      async connect(username) {
        const started = await call(`${base}/api/v1/actions/personas/connect`, seeded.keys[0]!, "POST", {});
        if (started.status !== 201) throw new Error(`connect: ${started.status} ${JSON.stringify(started.body)}`);
        const { location } = await localForum.control("/consent", {
          authorize_url: started.body.authorize_url,
          username,
        });
        const res = await fetch(location);
        return { status: res.status, html: await res.text() };
      },
      async close() {
        await started.browser.close().catch(() => {});
        await stopDevServer(started.server);
        await localForum.close();
        await fixtures.close();
        fs.rmSync(persistTo, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await browser?.close().catch(() => {});
    if (server) await stopDevServer(server);
    await localForum.close();
    await fixtures.close();
    fs.rmSync(persistTo, { recursive: true, force: true });
    throw err;
  }
}

const require = createRequire(import.meta.url);
const AXE_SOURCE = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * Runs axe-core on the page and returns its serious and critical violations. The script is evaluated
 * through the DevTools protocol, which the page's CSP (script-src 'self') does not govern.
 */
export async function seriousA11yViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  const result = (await page.evaluate(() =>
    (globalThis as any).axe.run((globalThis as any).document, { resultTypes: ["violations"] }),
  )) as { violations: AxeViolation[] };
  return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

/** A page in a browser context of its own (its own cookies: another browser, for the Worker); dialogs accepted. */
export async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width: 1200, height: 900 });
  page.on("dialog", (dialog) => void dialog.accept());
  return page;
}

/** Clicks what submits a form and waits for the page it leads to; that page's status. */
export async function submit(page: Page, selector: string): Promise<number> {
  const [response] = await Promise.all([page.waitForNavigation(), page.click(selector)]);
  return response?.status() ?? 0;
}

/**
 * Where the tests' screenshots go: outside the tree (the system's temporary directory, or
 * CONSOLE_SCREENSHOTS), so a test run leaves `git status` clean. docs/console/ is written only by
 * `npm run docs:screenshots`, from the demo workspace rather than these tests' hostile strings.
 */
export const SCREENSHOTS = process.env.CONSOLE_SCREENSHOTS ?? path.join(os.tmpdir(), "threadwatch-console-screenshots");

/** Saves a screenshot of the page's viewport as `<name>.png` in SCREENSHOTS, to look at after a failure. */
export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: false });
}
