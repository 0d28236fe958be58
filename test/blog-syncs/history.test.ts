// Everyday operations on sync configs (docs/blog-sync.md, "Deleting a config", "Run history"): deleting a config, and
// its run history.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { callJson, createTestWorkspace, type TestWorkspace } from "../helpers/api";
import { countAllRows, createConfig, newBlog, runConfig, SYNCS } from "../helpers/blogs";

let ws: TestWorkspace;
let other: TestWorkspace;
beforeAll(async () => {
  ws = await createTestWorkspace("history");
  other = await createTestWorkspace("history, other workspace");
});

const del = (id: number, key = ws.writeKey) => callJson(`${SYNCS}/${id}`, { key, method: "DELETE" });

describe("DELETE /actions/blog-subreddit-syncs/:id", () => {
  it("deletes the config with its drafts and runs; a run of it afterwards is 404", async () => {
    const blog = newBlog("delete");
    const config = await createConfig(ws, { blog_url: blog.feedUrl, subreddit: "rust" });
    expect((await runConfig(ws, config.id, { publish: false })).body.run.created).toBe(3);

    expect((await del(config.id, ws.readKey)).status).toBe(403);
    expect((await del(config.id, other.writeKey)).status).toBe(404);
    const res = await del(config.id);
    expect(res.status).toBe(204);
    expect((await callJson(`${SYNCS}/${config.id}`, { key: ws.readKey })).status).toBe(404);
    const left = await env.DB.prepare(
      "SELECT (SELECT count(*) FROM synced_posts WHERE config_id = ?1) AS posts, (SELECT count(*) FROM sync_runs WHERE config_id = ?1) AS runs",
    )
      .bind(config.id)
      .first<{ posts: number; runs: number }>();
    expect(left).toEqual({ posts: 0, runs: 0 });
    expect((await runConfig(ws, config.id, { publish: false })).status).toBe(404);
    expect((await del(config.id)).status).toBe(404);
    // The same blog + subreddit can be configured again, and runs anew.
    const again = await createConfig(ws, { blog_url: blog.feedUrl, subreddit: "rust" });
    expect((await runConfig(ws, again.id, { publish: false })).body.run).toMatchObject({
      status: "completed",
      created: 3,
    });
  });

  it("is 409 invalid_state while a run is active, and deletes nothing", async () => {
    const blog = newBlog("delete-busy");
    const config = await createConfig(ws, { blog_url: blog.feedUrl, subreddit: "rust" });
    await blog.control({ hold: 1 });
    const running = runConfig(ws, config.id, { publish: false });
    await blog.waitHeld();
    const before = await countAllRows();
    const refused = await del(config.id);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("invalid_state");
    expect(refused.body.error.message).toContain("run");
    expect(await countAllRows()).toEqual(before);
    await blog.release();
    expect((await running).body.run).toMatchObject({ status: "completed", created: 3 });
    // The refusal did not block later runs.
    expect((await runConfig(ws, config.id, { publish: false })).body.run).toMatchObject({
      status: "completed",
      unchanged: 3,
    });
    expect((await del(config.id)).status).toBe(204);
  });

  it("is 409 invalid_state while a post is queued for publishing; runs still work afterwards", async () => {
    const blog = newBlog("delete-queued");
    const config = await createConfig(ws, {
      blog_url: blog.feedUrl,
      subreddit: "rust",
      publish_immediately: true,
    });
    expect((await runConfig(ws, config.id)).body.run.queued).toBe(3);
    const refused = await del(config.id);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("invalid_state");
    expect(refused.body.error.message).toContain("queued");
    expect((await callJson(`${SYNCS}/${config.id}`, { key: ws.readKey })).body.item_counts.queued).toBe(3);
    expect((await runConfig(ws, config.id)).body.run.status).toBe("completed");
  });
});

describe("run history", () => {
  it("lists recorded runs newest first, paged, and shows one run with what it did to each post", async () => {
    const blog = newBlog("history");
    const config = await createConfig(ws, { blog_url: blog.feedUrl, subreddit: "rust" });
    const first = (await runConfig(ws, config.id, { publish: false })).body;
    await blog.control({ versions: { 2: 2 }, fail: [1] });
    const second = (await runConfig(ws, config.id, { publish: false })).body;
    await runConfig(ws, config.id, { dry_run: true }); // not recorded

    const page = await callJson(`${SYNCS}/${config.id}/runs?limit=1`, { key: ws.readKey });
    expect(page.status).toBe(200);
    expect(page.body.count).toBe(2);
    expect(page.body.next_offset).toBe(1);
    expect(page.body.data).toHaveLength(1);
    expect(page.body.data[0]).toEqual({ ...second.run, trigger: "api" });
    const rest = await callJson(`${SYNCS}/${config.id}/runs?limit=1&offset=1`, { key: ws.readKey });
    expect(rest.body.data[0]).toEqual({ ...first.run, trigger: "api" });
    expect(rest.body.next_offset).toBeNull();

    const one = await callJson(`${SYNCS}/${config.id}/runs/${second.run.id}`, { key: ws.readKey });
    expect(one.status).toBe(200);
    expect(one.body.run).toMatchObject({ id: second.run.id, status: "partial", updated: 1, unchanged: 1, failed: 1 });
    expect(one.body.items).toEqual(
      second.items.map(({ body_markdown: _b, images: _i, ...kept }: Record<string, unknown>) => kept),
    );
    expect(one.body.items.map((i: { action: string }) => i.action)).toEqual(["unchanged", "update", "error"]);
    expect(one.body.items[2].error).toBeTruthy();

    // Another workspace, another config's run id, an unknown run: 404.
    expect((await callJson(`${SYNCS}/${config.id}/runs`, { key: other.readKey })).status).toBe(404);
    expect((await callJson(`${SYNCS}/${config.id}/runs/${second.run.id}`, { key: other.readKey })).status).toBe(404);
    const otherConfig = await createConfig(ws, { blog_url: blog.feedUrl, subreddit: "golang" });
    expect((await callJson(`${SYNCS}/${otherConfig.id}/runs/${second.run.id}`, { key: ws.readKey })).status).toBe(404);
    expect((await callJson(`${SYNCS}/${config.id}/runs/999999`, { key: ws.readKey })).status).toBe(404);
  });

  it("keeps every item of a run of 50 posts (item rows are written in chunks)", async () => {
    const blog = newBlog("history-50");
    await blog.control({ posts: 50 });
    const config = await createConfig(ws, { blog_url: blog.feedUrl, subreddit: "rust", max_posts: 50 });
    const run = (await runConfig(ws, config.id, { publish: false })).body;
    expect(run.run.created).toBe(50);
    const one = await callJson(`${SYNCS}/${config.id}/runs/${run.run.id}`, { key: ws.readKey });
    expect(one.body.items).toHaveLength(50);
    expect(one.body.items.map((i: { source_url: string }) => i.source_url)).toEqual(
      run.items.map((i: { source_url: string }) => i.source_url),
    );
  });
});
