// The console's Insights page in a real Chromium against the real Worker (wrangler dev): every number in its
// tables is the API's (GET /insights/mentions, /insights/opportunities), each chart is an SVG with a name
// and a table beside it, the page is axe-clean and readable at 360 px and on a large screen, a thread links
// to its card in the inbox, and a bad range is refused beside its field.

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

async function openInsights(width: number, query = ""): Promise<{ page: Page; status: number }> {
  const context = await h.browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width, height: 900 });
  await page.goto(`${h.base}/app/sign-in`);
  await page.type("#f-api_key", h.readKey);
  await Promise.all([page.waitForNavigation(), page.click("form[action='/app/sign-in'] button[type=submit]")]);
  const response = await page.goto(`${h.base}/app/insights${query}`);
  return { page, status: response?.status() ?? 0 };
}

async function expectAccessible(page: Page) {
  const violations = await seriousA11yViolations(page);
  expect(violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual(
    [],
  );
}

/** A table's body as text: each row's header and cells. */
const tableRows = (page: Page, caption: string) =>
  page.$$eval(
    "table.data",
    (tables, wanted) => {
      const table = tables.find((t) => t.querySelector("caption")?.textContent?.startsWith(wanted as string));
      if (!table) return null;
      return [...table.querySelectorAll("tbody tr")].map((tr) =>
        [...tr.querySelectorAll("th, td")].map((cell) => cell.textContent ?? ""),
      );
    },
    caption,
  );

const text = (page: Page, selector: string) => page.$eval(selector, (el) => el.textContent ?? "");

type Point = { t: string; posts: number; comments: number; share?: number | null };
type Series = { key: string; points: Point[] };
const percent = (s: number | null | undefined) => (s === null || s === undefined ? "–" : `${(s * 100).toFixed(1)} %`);

describe("Insights page in Chromium", () => {
  it("is in the nav, draws each chart as a named SVG beside its table, and is axe-clean on a large screen", async () => {
    const { page, status } = await openInsights(1280);
    expect(status).toBe(200);
    expect(await page.$eval("nav a[aria-current=page]", (a) => a.getAttribute("href"))).toBe("/app/insights");
    const charts = await page.$$eval("svg.chart[role=img]", (svgs) =>
      svgs.map((svg) => svg.ownerDocument.getElementById(svg.getAttribute("aria-labelledby") ?? "")?.textContent ?? ""),
    );
    expect(charts).toHaveLength(3);
    expect(charts[0]).toContain("Share of voice");
    await expectAccessible(page);
    await screenshot(page, "insights");
    await page.close();
  });

  it("shows the API's numbers: share of voice, keyword mentions, subreddits and the threads of highest value", async () => {
    const { page } = await openInsights(1280);
    const api = async (q: string) => (await h.api(h.readKey, "GET", `/insights/mentions?${q}`)).body;
    const competitors = await api("group_by=competitor");
    const sovRows = await tableRows(page, "Share of voice");
    expect(sovRows).toEqual(
      competitors.data[0].points.map((p: Point, i: number) => [
        p.t.slice(0, 10),
        ...competitors.data.map(
          (s: Series) => `${percent(s.points[i]!.share)} (${s.points[i]!.posts + s.points[i]!.comments})`,
        ),
      ]),
    );
    // Somewhere in the seeded range competitors are mentioned: the table is not all dashes.
    expect(sovRows!.flat().some((cell) => cell.includes("%"))).toBe(true);

    const keywords = (await api("group_by=keyword")).data.filter((s: Series) => s.points.some((p) => p.posts > 0));
    const kwRows = await tableRows(page, "Mentions per keyword");
    expect(kwRows![0]!.length).toBe(1 + Math.min(6, keywords.length));
    expect(kwRows).toEqual(
      keywords[0].points.map((p: Point, i: number) => [
        p.t.slice(0, 10),
        ...keywords.slice(0, 6).map((s: Series) => String(s.points[i]!.posts + s.points[i]!.comments)),
      ]),
    );

    const subreddits = (await api("group_by=subreddit")).data as Series[];
    const sum = (s: Series, f: (p: Point) => number) => s.points.reduce((n, p) => n + f(p), 0);
    expect(await tableRows(page, "Top subreddits")).toEqual(
      subreddits
        .slice(0, 10)
        .map((s) => [
          `r/${s.key}`,
          String(sum(s, (p) => p.posts)),
          String(sum(s, (p) => p.comments)),
          String(sum(s, (p) => p.posts + p.comments)),
        ]),
    );

    const open = (await h.api(h.readKey, "GET", "/insights/opportunities?limit=10")).body;
    expect(open.data.length).toBeGreaterThan(0);
    const dollars = (v: number) => (v >= 1 ? `$${Math.round(v).toLocaleString("en-US")}` : `$${v.toFixed(2)}`);
    expect(await tableRows(page, "The ")).toEqual(
      open.data.map((p: { value: number; title: string; subreddit: string; priority: string | null }) => [
        dollars(p.value),
        p.title,
        `r/${p.subreddit}`,
        p.priority ?? "–",
      ]),
    );

    // A thread's title leads to its card in the inbox.
    await Promise.all([page.waitForNavigation(), page.click("table.threads tbody a")]);
    expect(new URL(page.url()).pathname).toBe("/app/posts");
    expect(await page.$(`article.post#post-${open.data[0].id}`)).not.toBeNull();
    await page.close();
  });

  it("reads at 360 px wide: no sideways scrolling of the page, charts within the screen, axe-clean", async () => {
    const { page } = await openInsights(360, "?interval=day");
    const widths = {
      page: await page.$eval("html", (html) => html.scrollWidth),
      charts: await page.$$eval("svg.chart", (svgs) => svgs.map((svg) => svg.getBoundingClientRect().right)),
    };
    expect(widths.page).toBeLessThanOrEqual(360);
    for (const right of widths.charts) expect(right).toBeLessThanOrEqual(360);
    await expectAccessible(page);
    await screenshot(page, "insights-360");
    await page.close();
  });

  it("refuses a range that ends before it starts, beside the field, with the API's message", async () => {
    const { page, status } = await openInsights(1280, "?since=2026-11-10&until=2026-11-01");
    expect(status).toBe(400);
    const api = await h.api(h.readKey, "GET", "/insights/mentions?since=2026-11-10&until=2026-11-01");
    expect(await text(page, "#i-since-error")).toBe(api.body.error.details[0].message);
    expect(await page.$eval("#i-since", (el) => el.getAttribute("aria-invalid"))).toBe("true");
    await expectAccessible(page);
    await page.close();
  });
});
