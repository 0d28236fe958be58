// The inbox's comments (/app/posts?kind=comments) in a real Chromium against the real Worker (wrangler dev): the
// switch between posts and comments, GET /comments's listing and filters, a script in a comment shown as text,
// triage through PATCH /comments/:id's schema and update, and axe-core. Its screenshot lands outside the tree
// (SCREENSHOTS in ./harness); scripts/docs-screenshots.mjs takes the documentation's.
import type { Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, screenshot, seriousA11yViolations, startHarness } from "./harness";

let h: Harness;
const SCRIPT_BODY = "Has anyone tried this? <script>window.__pwned = 1</script><img src=x onerror=window.__pwned=2>";

/** Two comments of the seeded workspace, linked to its first keyword as the store function links them. */
function seedComments(sql: (statement: string) => void, workspaceId: number) {
  const now = new Date(Date.now() - 3_600_000).toISOString().replace(/\.\d{3}Z$/, ".000Z");
  const older = new Date(Date.now() - 7_200_000).toISOString().replace(/\.\d{3}Z$/, ".000Z");
  sql(`INSERT INTO comments (workspace_id, forum_id, post_forum_id, subreddit, thread_title, body, author, permalink,
      score, created_utc, priority, urgency, score_reasons) VALUES
    (${workspaceId}, 'cm1', 'th1', 'SaaS', 'Which help desk for a small team?', '${SCRIPT_BODY}', 'asker',
      '/r/SaaS/comments/th1/which_help_desk/cm1/', 4, '${now}', 'high', 'urgent', '["+30 buying intent"]'),
    (${workspaceId}, 'cm2', 'th2', 'startups', '', 'We use a plain inbox for support', 'other',
      '/r/startups/comments/th2/support/cm2/', 12, '${older}', 'low', 'not_urgent', '[]')`);
  sql(`INSERT INTO comment_keywords (workspace_id, comment_id, keyword_id)
    SELECT ${workspaceId}, c.id, (SELECT min(id) FROM keywords WHERE workspace_id = ${workspaceId})
    FROM comments c WHERE c.workspace_id = ${workspaceId}`);
}

beforeAll(async () => {
  h = await startHarness(seedComments);
}, 400_000); // migrations and wrangler dev's start take minutes on a loaded machine

afterAll(async () => {
  await h?.close();
});

async function newPage(): Promise<Page> {
  const context = await h.browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width: 1200, height: 900 });
  return page;
}

async function submit(page: Page, selector: string): Promise<number> {
  const [response] = await Promise.all([page.waitForNavigation(), page.click(selector)]);
  return response?.status() ?? 0;
}

async function signIn(page: Page, key: string, next: string): Promise<void> {
  await page.goto(`${h.base}/app/sign-in?next=${encodeURIComponent(next)}`);
  await page.type("#f-api_key", key);
  await submit(page, "form[action='/app/sign-in'] button[type=submit]");
}

const text = (page: Page, selector: string) => page.$eval(selector, (el) => el.textContent?.trim() ?? "");
const commentIds = (page: Page) =>
  page.$$eval("article.comment", (els) => els.map((el) => Number(el.id.replace("comment-", ""))));

describe("the inbox's comments in Chromium", () => {
  it("switches from posts to comments: GET /comments's page, a script shown as text, accessible", async () => {
    const page = await newPage();
    await signIn(page, h.writeKey, "/app/posts");
    expect(await page.$$eval("article.comment", (els) => els.length)).toBe(0);
    await submit(page, "nav.tabs a[href='/app/posts?kind=comments']");
    expect(await text(page, "nav.tabs a[aria-current=page]")).toBe("Comments");

    const listed = await h.api(h.readKey, "GET", "/comments?limit=25");
    expect(listed.body.count).toBe(2);
    expect(await commentIds(page)).toEqual(listed.body.data.map((c: { id: number }) => c.id));
    expect(await text(page, "p.meta[aria-live]")).toBe("1–2 of 2 comments");
    expect(await text(page, "article.comment h3")).toBe("Comment on Which help desk for a small team?");
    expect(await text(page, "article.comment section.body")).toBe(SCRIPT_BODY);
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    // A thread whose title is not known yet is named by its subreddit.
    expect(await text(page, "article.comment:nth-of-type(2) h3")).toBe("Comment on a thread in r/startups");
    // Comments have no count of comments to sort by.
    const sorts = await page.$$eval("#q-sort_by option", (els) => els.map((el) => (el as { value: string }).value));
    expect(sorts).toEqual(["", "date", "priority", "urgency", "score"]);
    const violations = await seriousA11yViolations(page);
    expect(violations.map((v) => v.id)).toEqual([]);
    await screenshot(page, "inbox-comments");

    // The filter form keeps the switch: a filter lists comments, as GET /comments does.
    await page.select("#q-sort_by", "score");
    await submit(page, "form[aria-label='Filter comments'] button[type=submit]");
    expect(new URL(page.url()).searchParams.get("kind")).toBe("comments");
    const byScore = await h.api(h.readKey, "GET", "/comments?sort_by=score&limit=25");
    expect(await commentIds(page)).toEqual(byScore.body.data.map((c: { id: number }) => c.id));
    await page.close();
  });

  it("triages a comment and the API sees it; a read key sees no buttons", async () => {
    const page = await newPage();
    await signIn(page, h.writeKey, "/app/posts?kind=comments&answered_status=unanswered");
    const [id] = await commentIds(page);
    await submit(page, `#comment-${id} input[name=is_answered][value=true] ~ button`);
    const url = new URL(page.url());
    expect(url.pathname).toBe("/app/posts");
    expect(url.searchParams.get("kind")).toBe("comments");
    expect((await h.api(h.readKey, "GET", `/comments/${id}`)).body.is_answered).toBe(true);
    expect(await page.$(`#comment-${id}`)).toBeNull(); // back on the unanswered filter, it is gone

    await submit(page, "nav.tabs a[href='/app/posts?kind=comments']");
    await submit(page, `#comment-${id} input[name=archived][value=true] ~ button`);
    expect((await h.api(h.readKey, "GET", `/comments/${id}`)).body).toMatchObject({
      is_answered: true,
      archived: true,
    });
    await page.close();

    const reader = await newPage();
    await signIn(reader, h.readKey, "/app/posts?kind=comments");
    expect((await commentIds(reader)).length).toBe(1);
    expect(await reader.$$eval("article.comment button", (els) => els.length)).toBe(0);
    await reader.close();
  });
});
