// The web console in a real Chromium against the real Worker (wrangler dev): sign-in with both key kinds,
// the inbox, tracking, blog sync and review, Settings > API, CSRF and read-only refusals, escaping, and
// axe-core on every page. Each page's screenshot lands outside the tree (SCREENSHOTS in ./harness).

import fs from "node:fs";
import path from "node:path";
import type { Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, SCREENSHOTS, screenshot, seriousA11yViolations, startHarness } from "./harness";

let h: Harness;
const ROOT = path.join(import.meta.dirname, "..", "..");
/** docs/console/'s pictures and when each was last written: a test run must not touch them. */
const docsPictures = () =>
  Object.fromEntries(
    fs
      .readdirSync(path.join(ROOT, "docs", "console"))
      .map((name) => [name, fs.statSync(path.join(ROOT, "docs", "console", name)).mtimeMs]),
  );
const picturesBefore = docsPictures();
const SCRIPT_TITLE =
  "Is there an alternative? <script>window.__pwned = 1</script> <img src=x onerror=window.__pwned=2>";

beforeAll(async () => {
  // A forum post whose title carries markup (the newest, high priority): it must reach the page as text.
  h = await startHarness((sql, workspaceId) =>
    sql(
      `UPDATE posts SET title = '${SCRIPT_TITLE}', priority = 'high', created_utc = '2030-01-01T00:00:00.000Z' WHERE id = (SELECT min(id) FROM posts WHERE workspace_id = ${workspaceId} AND archived = 0)`,
    ),
  );
}, 400_000); // migrations and wrangler dev's start take minutes on a loaded machine

afterAll(async () => {
  await h?.close();
});

async function newPage(): Promise<Page> {
  const context = await h.browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width: 1200, height: 900 });
  page.on("dialog", (dialog) => void dialog.accept());
  return page;
}

async function submit(page: Page, selector: string): Promise<number> {
  const [response] = await Promise.all([page.waitForNavigation(), page.click(selector)]);
  return response?.status() ?? 0;
}

async function signIn(page: Page, key: string, next?: string): Promise<void> {
  await page.goto(`${h.base}/app/sign-in${next ? `?next=${encodeURIComponent(next)}` : ""}`);
  await page.type("#f-api_key", key);
  await submit(page, "form[action='/app/sign-in'] button[type=submit]");
}

/** The session cookie header of a page's browser context (what a forged request would ride on). */
async function cookieHeader(page: Page): Promise<string> {
  const cookies = await page.browserContext().cookies();
  return cookies.map((c) => `${c.name}=${c.value}`).join("; ");
}

const text = (page: Page, selector: string) => page.$eval(selector, (el) => el.textContent ?? "");

async function expectAccessible(page: Page) {
  const violations = await seriousA11yViolations(page);
  expect(violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual(
    [],
  );
}

describe("web console in Chromium", () => {
  it("signs in with a read_write key, never writes the key into the page, and sets a strict session cookie", async () => {
    const page = await newPage();
    await page.goto(`${h.base}/app/sign-in`);
    await expectAccessible(page);
    await screenshot(page, "sign-in");
    await page.type("#f-api_key", "tw_live_0000000000000000000000000000000000000000");
    expect(await submit(page, "form[action='/app/sign-in'] button[type=submit]")).toBe(401);
    expect(await text(page, "#f-api_key-error")).toContain("unknown API key");

    await page.type("#f-api_key", h.writeKey);
    await submit(page, "form[action='/app/sign-in'] button[type=submit]");
    expect(new URL(page.url()).pathname).toBe("/app/posts");
    expect(await page.content()).not.toContain(h.writeKey);
    const session = (await page.browserContext().cookies()).find((c) => c.name === "tw_console");
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Strict", path: "/app" });
    expect(session!.value).not.toContain(h.writeKey.slice(8));
    const expiresInHours = (session!.expires * 1000 - Date.now()) / 3_600_000;
    expect(expiresInHours).toBeGreaterThan(11.9);
    expect(expiresInHours).toBeLessThanOrEqual(12);
    await page.close();
  });

  it("serves every page with the security headers", async () => {
    const res = await fetch(`${h.base}/app/sign-in`);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    expect(res.headers.get("referrer-policy")).toBe("same-origin");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("inbox: filters, search and paging as GET /posts does; a script in a title is shown as text", async () => {
    const page = await newPage();
    await signIn(page, h.writeKey);
    // The injected title is the newest post: first on the page, as text, and its script never ran.
    expect(await text(page, "article.post h3")).toBe(SCRIPT_TITLE);
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    await expectAccessible(page);
    await screenshot(page, "inbox");

    // The console pages 25 posts at a time.
    const all = await h.api(h.readKey, "GET", "/posts?limit=25");
    expect(await text(page, "p.meta[aria-live]")).toBe(`1–25 of ${all.body.count} posts`);
    await submit(page, "nav.pager a");
    expect(new URL(page.url()).searchParams.get("offset")).toBe("25");
    const second = await h.api(h.readKey, "GET", "/posts?limit=25&offset=25");
    expect(await page.$$eval("article.post", (els) => els.map((el) => Number(el.id.replace("post-", ""))))).toEqual(
      second.body.data.map((p: { id: number }) => p.id),
    );

    await page.goto(`${h.base}/app/posts`);
    await page.select("#q-priority", "high");
    await page.select("#q-sort_by", "score");
    await submit(page, "form[aria-label='Filter posts'] button[type=submit]");
    const high = await h.api(h.readKey, "GET", "/posts?priority=high&sort_by=score&limit=25");
    const shownIds = await page.$$eval("article.post", (els) => els.map((el) => Number(el.id.replace("post-", ""))));
    expect(shownIds).toEqual(high.body.data.map((p: { id: number }) => p.id));
    expect(await page.$$eval(".badge.high", (els) => els.length)).toBe(shownIds.length);

    const word = (high.body.data[0].title as string).split(/\W+/).find((w) => w.length > 4)!;
    await page.goto(`${h.base}/app/posts`);
    await page.type("#q-search", word);
    await submit(page, "form[aria-label='Filter posts'] button[type=submit]");
    const found = await h.api(h.readKey, "GET", `/posts?search=${encodeURIComponent(word)}&limit=25`);
    expect(found.body.count).toBeGreaterThan(0);
    expect(await page.$$eval("article.post", (els) => els.map((el) => Number(el.id.replace("post-", ""))))).toEqual(
      found.body.data.map((p: { id: number }) => p.id),
    );

    // A malformed search is an error beside the field, with what was typed kept.
    await page.goto(`${h.base}/app/posts?search=${encodeURIComponent('"unclosed')}`);
    expect(await text(page, "#q-search-error")).toContain("full-text query");
    expect(await page.$eval("#q-search", (el) => (el as any).value)).toBe('"unclosed');
    await page.close();
  });

  it("marks a post answered and the API sees it", async () => {
    const page = await newPage();
    await signIn(page, h.writeKey, "/app/posts?answered_status=unanswered");
    const id = await page.$eval("article.post", (el) => Number(el.id.replace("post-", "")));
    await submit(page, `#post-${id} input[name=is_answered][value=true] ~ button`);
    expect(new URL(page.url()).pathname).toBe("/app/posts");
    const answered = await h.api(h.readKey, "GET", "/posts?answered_status=answered&limit=500");
    expect(answered.body.data.map((p: { id: number }) => p.id)).toContain(id);
    expect(await page.$(`#post-${id}`)).toBeNull(); // back on the unanswered filter, it is gone
    await page.close();
  });

  it("a keyword added, then switched off, in the console re-matches the stored posts, as the API's writes do", async () => {
    // Three words that open a stored post's title and that no keyword tracks yet.
    const listed = await h.api(h.readKey, "GET", "/posts?limit=200");
    const tracked = await h.api(h.readKey, "GET", "/keywords");
    const known = new Set((tracked.body.data as { keyword: string }[]).map((k) => k.keyword.toLowerCase()));
    const opening = (title: string) => title.split(/\s+/).slice(0, 3);
    const post = (listed.body.data as { id: number; title: string }[]).find(
      (p) =>
        opening(p.title).every((w) => /^[A-Za-z]{3,}$/.test(w)) && !known.has(opening(p.title).join(" ").toLowerCase()),
    );
    expect(post).toBeDefined();
    const phrase = opening(post!.title).join(" ");
    const matchedBy = async (id: number) => {
      const found = await h.api(h.readKey, "GET", `/posts?keyword_id=${id}&limit=200`);
      return (found.body.data as { id: number }[]).map((p) => p.id);
    };
    /** Polls until `test` holds: the re-match runs from the queue, off the form's request. */
    const eventually = async (test: () => Promise<boolean>) => {
      const deadline = Date.now() + 30_000;
      while (!(await test())) {
        if (Date.now() > deadline) throw new Error("the stored posts were not re-matched within 30 s");
        await new Promise((r) => setTimeout(r, 250));
      }
    };

    const page = await newPage();
    await signIn(page, h.writeKey, "/app/keywords");
    await page.type("#new-keyword", phrase);
    expect(await submit(page, "form[action='/app/keywords'] button[type=submit]")).toBe(200);
    const keywords = await h.api(h.readKey, "GET", "/keywords");
    const id = (keywords.body.data as { id: number; keyword: string }[]).find((k) => k.keyword === phrase)!.id;
    await eventually(async () => (await matchedBy(id)).includes(post!.id));

    await page.click(`#k${id}-active`);
    await submit(page, `form[action='/app/keywords/${id}'] button[type=submit]`);
    const after = await h.api(h.readKey, "GET", "/keywords");
    expect((after.body.data as { id: number; active: boolean }[]).find((k) => k.id === id)!.active).toBe(false);
    await eventually(async () => !(await matchedBy(id)).includes(post!.id));
    await page.close();
  });

  it("adds a keyword, keeps the input with its error beside the field, and the API lists it", async () => {
    const page = await newPage();
    await signIn(page, h.writeKey, "/app/keywords");
    expect(new URL(page.url()).pathname).toBe("/app/keywords");
    await page.type("#new-keyword", "queue monitoring");
    await submit(page, "form[action='/app/keywords'] button[type=submit]");
    const listed = await h.api(h.readKey, "GET", "/keywords");
    expect(listed.body.data.map((k: { keyword: string }) => k.keyword)).toContain("queue monitoring");

    await page.type("#new-keyword", "Queue Monitoring");
    expect(await submit(page, "form[action='/app/keywords'] button[type=submit]")).toBe(400);
    expect(await text(page, "form[action='/app/keywords'] .notice")).toContain("already exists");
    expect(await page.$eval("#new-keyword", (el) => (el as any).value)).toBe("Queue Monitoring");
    await page.goto(`${h.base}/app/keywords`);
    await expectAccessible(page);
    await screenshot(page, "keywords");

    await page.goto(`${h.base}/app/competitors`);
    await page.type("#new-name", "Acme Queues");
    await page.type("#new-website_url", "ftp://acme.example");
    expect(await submit(page, "form[action='/app/competitors'] button[type=submit]")).toBe(400);
    expect(await text(page, "#new-website_url-error")).not.toBe("");
    expect(await page.$eval("#new-name", (el) => (el as any).value)).toBe("Acme Queues");
    await page.$eval("#new-website_url", (el) => {
      (el as any).value = "https://acme.example";
    });
    await page.type("#new-keywords", "AcmeQ, Acme MQ");
    await submit(page, "form[action='/app/competitors'] button[type=submit]");
    const competitors = await h.api(h.readKey, "GET", "/competitors");
    expect(competitors.body.data.find((c: { name: string }) => c.name === "Acme Queues")).toMatchObject({
      website_url: "https://acme.example",
      keywords: ["AcmeQ", "Acme MQ"],
    });
    await expectAccessible(page);
    await screenshot(page, "competitors");
    await page.close();
  });

  it("runs a dry-run preview, writes drafts, and reviews a draft rendered as the forum shows it", async () => {
    const created = await h.api(h.writeKey, "POST", "/actions/blog-subreddit-syncs", {
      blog_url: `${h.fixtureOrigin}/__console/feed.xml`,
      subreddit: "r/queues",
      include_media: true,
    });
    expect(created.status).toBe(201);
    const configId = created.body.id as number;
    const page = await newPage();
    await signIn(page, h.writeKey, `/app/syncs/${configId}`);
    await submit(page, `form[action='/app/syncs/${configId}/dry-run'] button`);
    const preview = await text(page, "section[aria-label='Dry-run preview']");
    expect(preview).toContain("Dry-run preview: completed, 2 found via feed");
    expect(preview).toContain("Release notes <script>");
    expect((await h.api(h.readKey, "GET", `/actions/blog-subreddit-syncs/${configId}/items`)).body.count).toBe(0);
    await expectAccessible(page);
    await screenshot(page, "sync-dry-run");

    await submit(page, `form[action='/app/syncs/${configId}/run'] button`);
    const items = (await h.api(h.readKey, "GET", `/actions/blog-subreddit-syncs/${configId}/items`)).body.data;
    expect(items).toHaveLength(2);
    await page.goto(`${h.base}/app/syncs/${configId}?state=draft`);
    await expectAccessible(page);
    await screenshot(page, "sync");

    const draft = items.find((i: { title: string }) => i.title.includes("<script>"));
    await page.goto(`${h.base}/app/syncs/${configId}/items/${draft.id}`);
    expect(await text(page, "article.forum h2.title")).toBe(draft.title);
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    // Sanitized: the javascript: link is not a link, the https one is; the image is inline. The draft ends with
    // its source line (source_link, on by default), a link back to the article.
    expect(await page.$$eval("article.forum a", (els) => els.map((a) => a.getAttribute("href")))).toEqual([
      "https://example.com/docs",
      draft.source_url,
    ]);
    expect(await page.$eval("article.forum img", (img) => (img as any).src)).toContain("dashboard.png");
    expect(await page.$eval("article.forum img", (img) => (img as any).naturalWidth)).toBeGreaterThan(0);
    expect(await text(page, "article.forum")).toContain("r/queues");
    // Gates: the config does not publish, so Approve is disabled and says why.
    expect(await page.$eval("section[aria-label=Approval] button", (b) => (b as any).disabled)).toBe(true);
    expect(await text(page, "#approve-why")).toContain("does not publish");
    await expectAccessible(page);
    await screenshot(page, "review");

    // The preflight report is the publishing service's: without a forum persona it names that gate.
    expect(await text(page, "body")).toContain("persona");
    // The config active and publishing, but no persona: Approve stays disabled and names the persona gate.
    await h.api(h.writeKey, "POST", "/actions/blog-subreddit-syncs", { id: configId, publish_immediately: true });
    const approvedAt = async () =>
      (await h.api(h.readKey, "GET", `/actions/blog-subreddit-syncs/${configId}/items`)).body.data.find(
        (i: { id: number }) => i.id === draft.id,
      ).approved_at;
    await page.reload();
    expect(await page.$eval("section[aria-label=Approval] button", (b) => (b as any).disabled)).toBe(true);
    expect(await text(page, "#approve-why")).toContain("no active, auth-completed, browser-ready persona");
    expect(await text(page, "#approve-why")).not.toContain("does not publish");
    // A forged POST past the disabled button (the form's own CSRF token): the service refuses, beside the button.
    const approvePath = `/app/syncs/${configId}/items/${draft.id}/approve`;
    const forgedApprove = async () => {
      const token = await page.$eval(`form[action='${approvePath}'] input[name=_csrf]`, (el) => (el as any).value);
      const res = await fetch(`${h.base}${approvePath}`, {
        method: "POST",
        redirect: "manual",
        headers: { cookie: await cookieHeader(page), "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ _csrf: token }),
      });
      return { status: res.status, body: await res.text() };
    };
    const noPersona = await forgedApprove();
    expect(noPersona.status).toBe(409);
    expect(noPersona.body).toMatch(
      /id="approve-error"[\s\S]*not approved: a gate is closed: no active, auth-completed/,
    );
    expect(await approvedAt()).toBeNull();

    // A persona signed in on the forum and browser-ready, not yet approved for the customer: still disabled.
    const account = "console_author";
    await h.forum("/accounts", { username: account });
    const connected = await h.connect(account);
    expect(connected.status, connected.html).toBe(200);
    const persona = { body: (await h.api(h.writeKey, "GET", "/actions/personas")).body.data[0] };
    expect(persona.body.username).toBe(account);
    const checked = await h.api(h.writeKey, "POST", `/actions/personas/${persona.body.id}/preflight`);
    expect(checked.body.persona).toMatchObject({ auth_completed: true, browser_ready: true, approved: false });
    await page.reload();
    expect(await page.$eval("section[aria-label=Approval] button", (b) => (b as any).disabled)).toBe(true);
    expect(await text(page, "#approve-why")).toContain(`persona u/${account} is not approved for the customer`);
    const unapproved = await forgedApprove();
    expect(unapproved.status).toBe(409);
    expect(unapproved.body).toMatch(
      /id="approve-error"[\s\S]*not approved: a gate is closed: persona u\/console_author is not/,
    );
    expect(await approvedAt()).toBeNull();
    expect((await h.admin("POST", `/workspaces/${h.workspaceId}/personas/${persona.body.id}/approve`)).status).toBe(
      200,
    );

    // Another browser job of the workspace is running (a persona check the slow forum keeps busy): disabled,
    // and a forged POST is refused with when to retry.
    // Held: the job lasts until the test lets the forum answer.
    await h.forum(`/accounts/${account}`, { hold: true });
    const busy = h.api(h.writeKey, "POST", `/actions/personas/${persona.body.id}/preflight`);
    for (let i = 0; i < 100 && (await h.forum(`/stats?account=${account}`)).now === 0; i++)
      await new Promise((r) => setTimeout(r, 100));
    const duringJob = await forgedApprove();
    expect(duringJob.status).toBe(409);
    expect(duringJob.body).toMatch(/not approved: the workspace(&#39;|&#x27;|')s browser is in use/);
    expect(duringJob.body).toContain("Another browser job of this workspace is running; try again in");
    expect(await approvedAt()).toBeNull();
    await page.reload(); // the job is still held: the page says so at once instead of queueing its preflight
    expect((await h.forum(`/stats?account=${account}`)).now).toBe(1);
    await h.forum(`/accounts/${account}`, { hold: false });
    expect((await busy).status).toBe(200);
    expect(await page.$eval("section[aria-label=Approval] button", (b) => (b as any).disabled)).toBe(true);
    expect(await text(page, "#approve-why")).toContain(
      "another browser job of the workspace is running (persona check",
    );

    // Every gate open: Approve is enabled and approves the post through the same service as the API's route.
    await page.reload();
    expect(await page.$eval("section[aria-label=Approval] button", (b) => (b as any).disabled)).toBe(false);
    expect(await text(page, "#approve-why")).toContain("Approving lets this post be published to r/queues");
    await expectAccessible(page);
    await screenshot(page, "review-ready");
    await submit(page, "section[aria-label=Approval] button");
    expect(await approvedAt()).not.toBeNull();
    // The page answers with the changed state: a confirmation, and a button that is done.
    expect(await text(page, "#done")).toContain("Approved for publishing");
    expect(await page.$eval("section[aria-label=Approval] button", (b) => (b as any).disabled)).toBe(true);
    expect(await text(page, "section[aria-label=Approval] button")).toBe("Approved");
    expect(await text(page, "body")).not.toContain("items/:item_id");
    // A draft: approving sends nothing to the forum.
    expect((await h.forum(`/submissions?account=${account}`)).data).toEqual([]);
    await page.close();
  }, 600_000); // seven page loads each run a preflight in Chromium: minutes on a loaded machine

  it("a second run while one is active says what is happening and when to retry", async () => {
    const created = await h.api(h.writeKey, "POST", "/actions/blog-subreddit-syncs", {
      blog_url: `${h.fixtureOrigin}/__blogsync/console-held/feed.xml`,
      subreddit: "held_runs",
    });
    const configId = created.body.id as number;
    await fetch(`${h.fixtureOrigin}/__blogsync/console-held/control`, {
      method: "POST",
      body: JSON.stringify({ hold: 1 }),
    });
    const first = h.api(h.writeKey, "POST", `/actions/blog-subreddit-syncs/${configId}/run`, { publish: false });
    expect(await (await fetch(`${h.fixtureOrigin}/__blogsync/console-held/held`)).json()).toEqual({ held: true });
    const page = await newPage();
    await signIn(page, h.writeKey, `/app/syncs/${configId}`);
    expect(await submit(page, `form[action='/app/syncs/${configId}/run'] button`)).toBe(409);
    expect(await text(page, ".notice")).toContain("wait until it has finished");
    await fetch(`${h.fixtureOrigin}/__blogsync/console-held/release`, { method: "POST" });
    expect((await first).status).toBe(200);
    await page.close();
  });

  it("Settings > API: creates a key shown once, the key works, revoking it makes it 401", async () => {
    const page = await newPage();
    await signIn(page, h.writeKey, "/app/settings/api");
    await page.type("#f-name", "browser test key");
    await page.select("#f-scope", "read");
    await submit(page, "form[action='/app/settings/api/keys'] button[type=submit]");
    const key = (await text(page, "#new-key")).trim();
    expect(key).toMatch(/^tw_live_[0-9A-Za-z]{40}$/);
    expect((await h.api(key, "GET", "/keywords")).status).toBe(200);
    expect((await h.api(key, "POST", "/keywords", { keyword: "nope" })).status).toBe(403);
    await page.goto(`${h.base}/app/settings/api`);
    expect(await page.content()).not.toContain(key);
    await expectAccessible(page);
    await screenshot(page, "settings-api");
    const row = await page.$$eval("tbody tr", (rows) =>
      rows.find((r) => r.textContent?.includes("browser test key"))?.getAttribute("id"),
    );
    await submit(page, `#${row} button.danger`);
    expect(await text(page, `#${row}`)).toContain("revoked");
    expect((await h.api(key, "GET", "/keywords")).status).toBe(401);

    await page.type("#f-name", "temporary");
    await page.click("#f-temporary");
    await page.$eval("#f-expires_in_hours", (el) => {
      (el as any).value = "";
    });
    expect(await submit(page, "form[action='/app/settings/api/keys'] button[type=submit]")).toBe(400);
    expect(await text(page, "#f-expires_in_hours-error")).toContain("needs its hours");
    expect(await page.$eval("#f-name", (el) => (el as any).value)).toBe("temporary");
    await page.close();
  });

  it("refuses a POST without the CSRF token (403) and changes nothing", async () => {
    const page = await newPage();
    await signIn(page, h.writeKey, "/app/keywords");
    const before = (await h.api(h.readKey, "GET", "/keywords")).body.count;
    for (const token of [undefined, "forged"]) {
      const res = await fetch(`${h.base}/app/keywords`, {
        method: "POST",
        redirect: "manual",
        headers: { cookie: await cookieHeader(page), "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ keyword: "forged keyword", ...(token ? { _csrf: token } : {}) }),
      });
      expect(res.status).toBe(403);
    }
    expect((await h.api(h.readKey, "GET", "/keywords")).body.count).toBe(before);
    await page.close();
  });

  it("a read-key session shows everything, offers no buttons that change anything, and a forged POST is 403", async () => {
    const page = await newPage();
    await signIn(page, h.readKey);
    for (const path of ["/app/posts", "/app/keywords", "/app/competitors", "/app/syncs", "/app/settings/api"]) {
      await page.goto(`${h.base}${path}`);
      const forms = await page.$$eval("form[method=post]", (els) => els.map((f) => f.getAttribute("action")));
      expect(forms, path).toEqual(["/app/sign-out"]);
      await expectAccessible(page);
    }
    await page.goto(`${h.base}/app/posts`);
    expect(await page.$$eval("article.post", (els) => els.length)).toBeGreaterThan(0);
    await screenshot(page, "inbox-read-only");
    // With the session's own valid token (from its sign-out form), a write is still refused.
    const token = await page.$eval("form[action='/app/sign-out'] input[name=_csrf]", (el) => (el as any).value);
    const before = (await h.api(h.readKey, "GET", "/keywords")).body.count;
    const res = await fetch(`${h.base}/app/keywords`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: await cookieHeader(page), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ keyword: "read key write", _csrf: token }),
    });
    expect(res.status).toBe(403);
    expect((await h.api(h.readKey, "GET", "/keywords")).body.count).toBe(before);
    // Signing out is not a change: a read-key session can.
    await submit(page, "form[action='/app/sign-out'] button");
    expect(new URL(page.url()).pathname).toBe("/app/sign-in");
    await page.close();
  });

  it("an expired or tampered session goes to sign-in and then back to the page asked for; sign-out ends it", async () => {
    const page = await newPage();
    await signIn(page, h.writeKey);
    const cookie = (await page.browserContext().cookies()).find((c) => c.name === "tw_console")!;
    // Claim a later expiry without the signature to match: the session is not accepted.
    const [keyId, , nonce, signature] = cookie.value.split(".");
    await page.browserContext().setCookie({ ...cookie, value: [keyId, "9999999999", nonce, signature].join(".") });
    await page.goto(`${h.base}/app/competitors?x=1`);
    const url = new URL(page.url());
    expect(url.pathname).toBe("/app/sign-in");
    expect(url.searchParams.get("next")).toBe("/app/competitors?x=1");
    expect(await text(page, ".notice")).toContain("session has ended");
    await page.type("#f-api_key", h.writeKey);
    await submit(page, "form[action='/app/sign-in'] button[type=submit]");
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe("/app/competitors?x=1");

    await submit(page, "form[action='/app/sign-out'] button");
    expect(new URL(page.url()).pathname).toBe("/app/sign-in");
    await page.goto(`${h.base}/app/posts`);
    expect(new URL(page.url()).pathname).toBe("/app/sign-in");
    await page.close();
  });

  it("renders every page in standards mode and answers a mistyped address with the HTML 404 page", async () => {
    const page = await newPage();
    await signIn(page, h.writeKey, "/app/posts");
    for (const path of ["/app/posts", "/app/keywords", "/app/syncs", "/app/settings/api"]) {
      await page.goto(`${h.base}${path}`);
      expect(await page.evaluate(() => (globalThis as any).document.compatMode), path).toBe("CSS1Compat");
    }
    for (const path of ["/app/nope", "/app/posts/5"]) {
      const res = await page.goto(`${h.base}${path}`);
      expect(res?.status(), path).toBe(404);
      expect(res?.headers()["content-type"], path).toContain("text/html");
      expect(await page.evaluate(() => (globalThis as any).document.compatMode)).toBe("CSS1Compat");
      expect(await text(page, "main")).toContain("There is no such page in the console.");
    }
    await page.close();
  });

  it("lays out 13 keywords one line each, and a sync's blog address shows whole", async () => {
    const page = await newPage();
    await signIn(page, h.writeKey, "/app/keywords");
    const listed = (await h.api(h.readKey, "GET", "/keywords")).body.count as number;
    for (let i = listed; i < 13; i++) await h.api(h.writeKey, "POST", "/keywords", { keyword: `layout keyword ${i}` });
    await page.goto(`${h.base}/app/keywords`);
    const rows = await page.$$eval("table.list tbody tr", (trs) => trs.map((tr) => tr.getBoundingClientRect().height));
    expect(rows.length).toBeGreaterThanOrEqual(13);
    // One line of inputs per keyword (it was a stacked form: 2,785 px for 13 keywords).
    expect(Math.max(...rows)).toBeLessThan(70);
    expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollHeight)).toBeLessThan(
      400 + rows.length * 70,
    );

    const blogUrl = `${h.fixtureOrigin}/__console/feed.xml?utm_source=a-rather-long-campaign-name-for-this-blog`;
    const created = await h.api(h.writeKey, "POST", "/actions/blog-subreddit-syncs", {
      blog_url: blogUrl,
      subreddit: "r/layout_check",
    });
    await page.goto(`${h.base}/app/syncs/${created.body.id}`);
    const box = await page.$eval("#f-blog_url", (el) => ({
      client: (el as any).clientWidth,
      scroll: (el as any).scrollWidth,
    }));
    expect(box.scroll).toBeLessThanOrEqual(box.client);
    expect(await page.$$eval("#f-persona_id option", (os) => os.map((o) => o.textContent))).toContain(
      "Chosen when publishing",
    );
    await page.close();
  });

  it("writes its screenshots outside the tree: docs/console/ is left as it was", () => {
    expect(fs.existsSync(path.join(SCREENSHOTS, "inbox.png"))).toBe(true);
    expect(path.relative(ROOT, SCREENSHOTS).startsWith("..")).toBe(true);
    expect(docsPictures()).toEqual(picturesBefore);
  });
});
