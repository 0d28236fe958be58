#!/usr/bin/env node
// npm run docs:screenshots
// Regenerates the console's pictures in docs/console/ from what a person would see: the demo workspace
// `npm start` seeds (in a temporary state directory, so the local one is untouched), the sample blog of
// `npm run dev:blog` synced into drafts, and the local forum of `npm run dev:forum` for the persona. The
// console's browser tests take their own screenshots outside the tree; only this command writes here.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import puppeteer from "puppeteer-core";
import { integerOption, parseCommandLine, runMain } from "./lib/cli.mjs";
import { ensureDemoWorkspace } from "./lib/demo-workspace.mjs";
import { callApi, startDevServer, stopDevServer, waitUntilReady } from "./lib/dev-server.mjs";
import { copyMigratedDatabase } from "./lib/local-d1.mjs";
import { serveLocalForum, workerVars } from "./lib/local-forum-server.mjs";
import { ROOT } from "./lib/paths.mjs";
import { addVirtualAuthenticator } from "./lib/virtual-authenticator.mjs";

const USAGE = `usage: npm run docs:screenshots [-- --out DIR] [--port N]

  --out DIR   where the PNGs go (default docs/console)
  --port N    the service's port (default 8895); the sample blog N+1, the forum's four origins N+3 to N+6,
              wrangler's inspector N+9`;

const DEFAULT_PORT = 8895;
const ADMIN_TOKEN = "docs-screenshots-admin-token";
const SESSION_KEY = "ZG9jcy1zY3JlZW5zaG90cy1zZXNzaW9uLWtleS0zMmI="; // base64 of 32 bytes
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const step = (message) => console.log(`[docs:screenshots] ${message}`);

/** The sample blog, as `npm run dev:blog` serves it; resolves once it listens. */
async function startSampleBlog(port) {
  const child = spawn(process.execPath, [path.join(ROOT, "scripts", "dev-blog.mjs"), "--port", String(port)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise((resolve, reject) => {
    child.stdout.on("data", (chunk) => String(chunk).includes("sample blog on") && resolve());
    child.once("exit", (code) => reject(new Error(`the sample blog exited (${code})`)));
  });
  return child;
}

/** The local forum of `npm run dev:forum`, in this process, with one account and one subreddit. */
async function startForum(port) {
  const { close, control, origins } = await serveLocalForum(port);
  await control("/accounts", { username: "northwind_dev" });
  await control("/subreddits", { name: "northwind_queues", type: "public" });
  return { close, control, origins, username: "northwind_dev", subreddit: "northwind_queues" };
}

/**
 * The pages of people: an owner's invitation accepted, the password sign-in's refusal, Settings › Account
 * with two sessions and a passkey (Chromium's DevTools virtual authenticator), Settings › Members with a
 * team and a fresh invitation's link, and Settings › Audit.
 */
async function shootPeople({ base, demo, page, save, submit }) {
  const admin = (route, body) =>
    callApi(base, ADMIN_TOKEN, "POST", `/admin/v1/workspaces/${demo.workspace_id}${route}`, body);
  const password = "correct horse battery staple";
  /** The owner invites through Settings › Members; the link shown to copy is opened in another browser. */
  const inviteAsOwner = async (owner, email, role) => {
    await owner.goto(`${base}/app/settings/members`);
    await owner.type("#f-email", email);
    await owner.select("#f-invite-role", role);
    await submit(owner, "form[action='/app/settings/members/invitations'] button[type=submit]");
    return owner.$eval("#invitation-link", (el) => el.textContent);
  };
  const join = async (p, url, name) => {
    await p.goto(url);
    await p.type("#f-name", name);
    await p.type("#f-password", password);
    await submit(p, "form[aria-label='Accept the invitation'] button[type=submit]");
  };
  const owner = await page();
  await owner.goto((await admin("/invitations", { email: "dana@northwind.example", role: "owner" })).url);
  await owner.type("#f-name", "Dana Okafor");
  await save(owner, "invitation");
  await owner.type("#f-password", password);
  await submit(owner, "form[aria-label='Accept the invitation'] button[type=submit]");

  const laptop = await page();
  await laptop.goto(`${base}/app/sign-in`);
  await laptop.type("#f-email", "dana@northwind.example");
  await laptop.type("#f-password", "not the password");
  await submit(laptop, "form[action='/app/sign-in/password'] button[type=submit]");
  await save(laptop, "sign-in-person");
  await laptop.type("#f-password", password);
  await submit(laptop, "form[action='/app/sign-in/password'] button[type=submit]");

  await addVirtualAuthenticator(owner);
  await owner.goto(`${base}/app/settings/account`);
  await owner.$eval("#f-passkey_name", (el) => {
    el.value = "Work laptop";
  });
  await Promise.all([owner.waitForNavigation(), owner.click("#passkey-add")]);
  await owner.goto(`${base}/app/settings/account`);
  await owner.screenshot({ path: save.pathOf("account"), fullPage: true });
  save.wrote("account");

  for (const [email, role, name] of [
    ["sam@northwind.example", "admin", "Sam Reyes"],
    ["lee@northwind.example", "member", "Lee Chen"],
    ["ari@northwind.example", "viewer", "Ari Novak"],
  ])
    await join(await page(), await inviteAsOwner(owner, email, role), name);
  await inviteAsOwner(owner, "jo@northwind.example", "member");
  await save(owner, "members");
  await owner.goto(`${base}/app/settings/audit`);
  await save(owner, "audit");
}

/** Every page a person meets, each saved as `<name>.png` in `out`. */
async function shoot(browser, { base, demo, blog, forum, out }) {
  const api = (method, route, body, key = demo.api_key) => callApi(base, key, method, `/api/v1${route}`, body);
  const page = async () => {
    const p = await (await browser.createBrowserContext()).newPage();
    await p.setViewport({ width: 1200, height: 900 });
    return p;
  };
  const pathOf = (name) => path.join(out, `${name}.png`);
  const wrote = (name) => step(`wrote ${path.relative(ROOT, pathOf(name))}`);
  const save = Object.assign(
    async (p, name) => {
      await p.screenshot({ path: pathOf(name) });
      wrote(name);
    },
    { pathOf, wrote },
  );
  const signIn = async (p, key, next) => {
    await p.goto(`${base}/app/sign-in?next=${encodeURIComponent(next)}`);
    await p.type("#f-api_key", key);
    await Promise.all([p.waitForNavigation(), p.click("form[action='/app/sign-in'] button[type=submit]")]);
  };
  const submit = (p, selector) => Promise.all([p.waitForNavigation(), p.click(selector)]);

  const reader = await page();
  await reader.goto(`${base}/app/sign-in`);
  await save(reader, "sign-in");
  await signIn(reader, demo.read_key, "/app/posts");
  await save(reader, "inbox-read-only");

  const p = await page();
  await signIn(p, demo.api_key, "/app/posts");
  await save(p, "inbox");
  await p.goto(`${base}/app/keywords`);
  await save(p, "keywords");
  await p.goto(`${base}/app/competitors`);
  await save(p, "competitors");
  // The Insights page whole, on a large screen and at 360 px wide.
  await p.goto(`${base}/app/insights`);
  await p.screenshot({ path: pathOf("insights"), fullPage: true });
  wrote("insights");
  await p.setViewport({ width: 360, height: 800 });
  await p.screenshot({ path: pathOf("insights-360"), fullPage: true });
  wrote("insights-360");
  await p.setViewport({ width: 1200, height: 900 });

  const config = await api("POST", "/actions/blog-subreddit-syncs", {
    blog_url: `${blog}/`,
    subreddit: `r/${forum.subreddit}`,
    include_media: true,
  });
  await p.goto(`${base}/app/syncs/${config.id}`);
  await submit(p, `form[action='/app/syncs/${config.id}/dry-run'] button`);
  await save(p, "sync-dry-run");
  await submit(p, `form[action='/app/syncs/${config.id}/run'] button`);
  await save(p, "sync");
  const items = await api("GET", `/actions/blog-subreddit-syncs/${config.id}/items?state=draft`);
  const draft = items.data.find((item) => item.images.length > 0) ?? items.data[0];
  const review = `${base}/app/syncs/${config.id}/items/${draft.id}`;
  await p.goto(review);
  await save(p, "review");

  // Every gate open: a persona connected through the forum's consent page, checked and approved, and a
  // config that publishes.
  await p.goto(`${base}/app/personas`);
  await submit(p, "form[action='/app/personas/connect'] button[type=submit]");
  await p.type("input[name=username]", forum.username);
  await save(p, "personas-consent");
  await submit(p, "button[value=Allow]");
  await save(p, "personas-connected");
  const persona = (await api("GET", "/actions/personas")).data[0];
  await api("POST", `/actions/personas/${persona.id}/preflight`);
  await p.goto(`${base}/app/personas`);
  await save(p, "personas");
  await callApi(base, ADMIN_TOKEN, "POST", `/admin/v1/workspaces/${demo.workspace_id}/personas/${persona.id}/approve`);
  await api("POST", "/actions/blog-subreddit-syncs", {
    id: config.id,
    publish_immediately: true,
    persona_id: persona.id,
  });
  await p.goto(review);
  await save(p, "review-ready");

  await p.goto(`${base}/app/settings/api`);
  await p.type("#f-name", "CRM export");
  await submit(p, "form[action='/app/settings/api/keys'] button[type=submit]");
  await p.goto(`${base}/app/settings/api`);
  await save(p, "settings-api");
  await shootPeople({ base, demo, page, save, submit });
}

runMain(async () => {
  const { values } = parseCommandLine(process.argv.slice(2), { out: { type: "string" }, port: { type: "string" } });
  const PORT =
    values.port === undefined ? DEFAULT_PORT : integerOption("port", values.port, { min: 1024, max: 65_000 });
  const out = path.resolve(values.out ?? path.join(ROOT, "docs", "console"));
  fs.mkdirSync(out, { recursive: true });
  const persistTo = fs.mkdtempSync(path.join(os.tmpdir(), "threadwatch-docs-"));
  const stops = [() => fs.rmSync(persistTo, { recursive: true, force: true })];
  try {
    await copyMigratedDatabase(persistTo);
    const demo = await ensureDemoWorkspace(persistTo);
    step(`demo workspace ${demo.workspace_id} seeded`);
    const blogChild = await startSampleBlog(PORT + 1);
    stops.push(() => blogChild.kill());
    const forum = await startForum(PORT + 2);
    stops.push(() => forum.close());
    const server = startDevServer({
      port: PORT,
      persistTo,
      capture: true,
      vars: { ADMIN_TOKEN, SESSION_KEY, ALLOW_PRIVATE_FETCH: "true", ...workerVars(forum.origins) },
      extraArgs: ["--inspector-port", String(PORT + 9)],
    });
    stops.push(() => stopDevServer(server));
    const base = `http://localhost:${PORT}`;
    await waitUntilReady(server, `${base}/`);
    const browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"],
    });
    stops.push(() => browser.close());
    await shoot(browser, { base, demo, blog: `http://127.0.0.1:${PORT + 1}`, forum, out });
  } finally {
    for (const stop of stops.reverse()) await stop();
  }
}, USAGE);
