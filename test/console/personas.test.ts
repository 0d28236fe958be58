// The console's Personas page in a real Chromium against the real Worker (wrangler dev) and the local forum
// on its four origins: Connect sends the browser to the forum's consent page, which is filled in and clicked
// as a person would, and the forum's redirect lands on the Worker's callback page; the list shows the flags
// and last error; Check and Delete; a read-only session sees no buttons.

import type { Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, screenshot, seriousA11yViolations, startHarness } from "./harness";

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
}, 400_000);

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

async function signIn(page: Page, key: string): Promise<void> {
  await page.goto(`${h.base}/app/sign-in?next=${encodeURIComponent("/app/personas")}`);
  await page.type("#f-api_key", key);
  await submit(page, "form[action='/app/sign-in'] button[type=submit]");
}

const text = (page: Page, selector: string) => page.$eval(selector, (el) => el.textContent ?? "");

describe("the Personas page in Chromium", () => {
  it("connects a forum account through the forum's consent page, checks it and deletes it", async () => {
    const account = "console_persona";
    await h.forum("/accounts", { username: account });
    const page = await newPage();
    await signIn(page, h.writeKey);
    expect(new URL(page.url()).pathname).toBe("/app/personas");
    expect(await text(page, "main")).toContain("No forum account is connected");
    expect(await page.$eval("nav a[aria-current=page]", (a) => a.textContent)).toBe("Personas");

    // Connect: the console's POST answers a redirect to the forum's own consent page.
    expect(await submit(page, "form[action='/app/personas/connect'] button[type=submit]")).toBe(200);
    const consent = new URL(page.url());
    expect(consent.origin).toBe(h.forumOrigins.www);
    expect(consent.pathname).toBe("/api/v1/authorize");
    expect(consent.searchParams.get("scope")).toBe("identity read submit flair history");
    expect(consent.searchParams.get("redirect_uri")).toBe(`${h.base}/oauth/forum/callback`);
    // The person signs in as the account on the forum and allows the app.
    await page.type("input[name=username]", account);
    const status = await submit(page, "button[value=Allow]");
    expect(status).toBe(200);
    expect(new URL(page.url()).pathname).toBe("/oauth/forum/callback");
    expect(await text(page, "#connected")).toContain(`u/${account} is connected`);
    await screenshot(page, "personas-connected");
    await Promise.all([page.waitForNavigation(), page.click("a[href='/app/personas']")]);

    const row = `#persona-${(await h.api(h.readKey, "GET", "/actions/personas")).body.data[0].id}`;
    expect(await text(page, row)).toContain(`u/${account}`);
    const cells = await page.$$eval(`${row} td`, (tds) => tds.map((td) => td.textContent?.trim()));
    expect(cells.slice(0, 5)).toEqual([`u/${account}`, "yes", "yes", "no", "no"]);

    // Check: the persona check; its verdict shows in the row.
    expect(await submit(page, `${row} form[action$='/check'] button`)).toBe(200);
    expect(await text(page, "#done")).toContain("Persona checked");
    const checked = await page.$$eval(`${row} td`, (tds) => tds.map((td) => td.textContent?.trim()));
    expect(checked.slice(0, 5)).toEqual([`u/${account}`, "yes", "yes", "yes", "no"]);
    const violations = await seriousA11yViolations(page);
    expect(violations.map((v) => v.id)).toEqual([]);
    await screenshot(page, "personas");

    // A read-only session sees the list and no button.
    const reader = await newPage();
    await signIn(reader, h.readKey);
    expect(await text(reader, row)).toContain(`u/${account}`);
    expect(await reader.$$("form[action^='/app/personas'] button")).toHaveLength(0);
    expect(await text(reader, "main")).toContain("This session is read-only");

    // Delete: revoked at the forum, then gone.
    expect(await submit(page, `${row} form[action$='/delete'] button`)).toBe(200);
    expect(await text(page, "#done")).toContain("revoked at the forum");
    expect(await page.$(row)).toBeNull();
    expect((await h.api(h.readKey, "GET", "/actions/personas")).body.count).toBe(0);
  }, 240_000);

  it("a declined consent comes back to a page saying nothing was connected", async () => {
    const account = "console_decliner";
    await h.forum("/accounts", { username: account });
    const page = await newPage();
    await signIn(page, h.writeKey);
    await submit(page, "form[action='/app/personas/connect'] button[type=submit]");
    await page.type("input[name=username]", account);
    expect(await submit(page, "button[value=Decline]")).toBe(400);
    expect(await text(page, "#refused")).toContain("did not allow the access");
    expect((await h.api(h.readKey, "GET", "/actions/personas")).body.count).toBe(0);
  }, 120_000);
});
