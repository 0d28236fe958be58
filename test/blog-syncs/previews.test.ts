// Previews bounded (docs/security.md, "Previews and outbound fetches"): one dry run per config at a time
// (409 run_in_progress for the second, through the workspace coordinator's preview leases), and a
// per-workspace cap on outbound fetches per minute that every run and preview counts against.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { FETCHES_PER_MINUTE } from "../../src/durable/fetch-budget";
import { coordinatorFor } from "../../src/durable/workspace-coordinator";
import { createTestWorkspace } from "../helpers/api";
import { createConfig, newBlog, runConfig } from "../helpers/blogs";

describe("dry runs", () => {
  it("one at a time per config: a second is 409 run_in_progress; other configs and real runs go on", async () => {
    const ws = await createTestWorkspace("one preview");
    const blog = newBlog("preview-a");
    const other = newBlog("preview-b");
    const config = await createConfig(ws, { blog_url: blog.feedUrl, subreddit: "previews", max_posts: 3 });
    const otherConfig = await createConfig(ws, { blog_url: other.feedUrl, subreddit: "previews", max_posts: 3 });
    await blog.control({ hold: 2 });

    const first = runConfig(ws, config.id, { dry_run: true });
    await blog.waitHeld();
    const second = await runConfig(ws, config.id, { dry_run: true });
    expect([second.status, second.body.error.code]).toEqual([409, "run_in_progress"]);
    expect(second.body.error.message).toContain("dry run");
    // Another config's preview is not blocked, and neither is a real run of the same config (docs/blog-sync.md,
    // "Runs": dry runs never conflict with real runs).
    const elsewhere = await runConfig(ws, otherConfig.id, { dry_run: true });
    expect([elsewhere.status, elsewhere.body.run.status]).toEqual([200, "completed"]);
    const real = runConfig(ws, config.id, { publish: false });

    await blog.release();
    const [firstDone, realDone] = await Promise.all([first, real]);
    expect([firstDone.status, firstDone.body.run.status, firstDone.body.run.dry_run]).toEqual([200, "completed", true]);
    expect([realDone.status, realDone.body.run.status]).toEqual([200, "completed"]);
    // The claim ended with the preview: the next one runs.
    const again = await runConfig(ws, config.id, { dry_run: true });
    expect([again.status, again.body.run.status]).toEqual([200, "completed"]);
  });

  it("a preview that fails still frees its config", async () => {
    const ws = await createTestWorkspace("preview fails");
    const config = await createConfig(ws, {
      blog_url: `${env.FIXTURE_ORIGIN}/__blogsync/no-such-blog-${Date.now()}/missing.xml`,
      subreddit: "previews",
    });
    const first = await runConfig(ws, config.id, { dry_run: true });
    expect([first.status, first.body.run.status]).toEqual([200, "failed"]);
    expect((await runConfig(ws, config.id, { dry_run: true })).status).toBe(200);
  });
});

describe("the workspace's outbound fetch budget", () => {
  it(`refuses requests past ${FETCHES_PER_MINUTE} a minute, before they reach the blog; other workspaces unaffected`, async () => {
    const ws = await createTestWorkspace("fetch budget");
    const blog = newBlog("budget");
    const config = await createConfig(ws, { blog_url: blog.feedUrl, subreddit: "previews", max_posts: 3 });
    // A preview counts its requests: feed, robots.txt and three articles.
    const counted = await runConfig(ws, config.id, { dry_run: true });
    expect(counted.body.run.status).toBe("completed");
    const coordinator = coordinatorFor(env, ws.id);
    let granted = 0;
    for (let i = 0; i < FETCHES_PER_MINUTE; i++) {
      const answer = await coordinator.beforeFetch({ configId: config.id, token: "budget-probe", preview: true });
      if (answer.ok) granted++;
    }
    // The preview used at least its feed and three articles of this minute's budget.
    expect(granted).toBeLessThanOrEqual(FETCHES_PER_MINUTE - 4);
    const refused = await coordinator.beforeFetch({ configId: config.id, token: "budget-probe", preview: true });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.retryAfterSeconds).toBeGreaterThan(0);

    // The fixture counts every request it serves, its own `hits` queries too: compare the blog's pages only.
    const pages = async () => Object.entries(await blog.hits()).filter(([path]) => path !== "hits");
    const hitsBefore = await pages();
    const dry = await runConfig(ws, config.id, { dry_run: true });
    expect(dry.status).toBe(200);
    expect(dry.body.run.status).toBe("failed");
    expect(JSON.stringify(dry.body.run)).toContain("outbound fetch budget");
    const real = await runConfig(ws, config.id, { publish: false });
    expect(real.body.run.status).toBe("failed");
    expect(real.body.run.created).toBe(0);
    // Nothing reached the blog once the budget was used up.
    expect(await pages()).toEqual(hitsBefore);

    // Another workspace has its own budget.
    const ws2 = await createTestWorkspace("fetch budget other");
    const config2 = await createConfig(ws2, { blog_url: blog.feedUrl, subreddit: "previews", max_posts: 3 });
    expect((await runConfig(ws2, config2.id, { dry_run: true })).body.run.status).toBe("completed");
  });
});
