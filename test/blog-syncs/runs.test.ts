import { createMessageBatch, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { runSync } from "../../src/blog-sync/run-sync";
import { workspaceDb } from "../../src/db/client";
import { syncRuns } from "../../src/db/schema";
import { RUN_LEASE_MS } from "../../src/durable/run-leases";
import { coordinatorFor, type WorkspaceCoordinator } from "../../src/durable/workspace-coordinator";
import { handleQueueBatch } from "../../src/jobs/queue";
import { callJson, createTestWorkspace, type TestWorkspace } from "../helpers/api";
import { countAllRows, createConfig, items, newBlog, runConfig, SYNCS } from "../helpers/blogs";

let ws: TestWorkspace;
beforeAll(async () => {
  ws = await createTestWorkspace("runs");
});

const getConfig = async (id: number) => (await callJson(`${SYNCS}/${id}`, { key: ws.readKey })).body;
const postN = (n: number) => new RegExp(`/posts/${n}\\.html$`);

describe("dry run", () => {
  it("writes nothing at all (every table's rows counted) and returns the full preview", async () => {
    const blog = newBlog("dry");
    const config = await createConfig(ws, { blog_url: blog.feedUrl, subreddit: "rust", publish_immediately: true });
    const before = await countAllRows();
    const configBefore = await getConfig(config.id);

    const res = await runConfig(ws, config.id, { dry_run: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { run, items: preview } = res.body;
    expect(run).toMatchObject({
      id: null,
      config_id: config.id,
      status: "completed",
      dry_run: true,
      publish: true,
      source_kind: "feed",
      discovered: 3,
      created: 3,
      updated: 0,
      unchanged: 0,
      queued: 3, // would be queued: the config is active and publishes immediately
      failed: 0,
      error: null,
    });
    expect(run.source_url).toBe(blog.feedUrl);
    expect(preview).toHaveLength(3);
    expect(preview.map((i: { source_url: string }) => i.source_url)).toEqual([
      blog.postUrl(3),
      blog.postUrl(2),
      blog.postUrl(1),
    ]);
    for (const item of preview) {
      expect(item).toMatchObject({ synced_post_id: null, action: "create", state: "queued", error: null });
      expect(item.title).toMatch(/^Sync post \d$/);
      expect(item.body_markdown).toContain("version 1 of post number");
      expect(item.body_markdown).not.toContain("<p>");
    }

    expect(await countAllRows()).toEqual(before);
    expect(await getConfig(config.id)).toEqual(configBefore);
    expect(await coordinatorFor(env, ws.id).activeRuns()).toEqual([]);
  });
});

describe("dry run after a real run", () => {
  it("names no stored rows: synced_post_id is null for posts that exist too", async () => {
    const blog = newBlog("dry-after");
    const config = await createConfig(ws, { blog_url: blog.feedUrl, subreddit: "rust" });
    expect((await runConfig(ws, config.id, { publish: false })).body.run).toMatchObject({
      status: "completed",
      created: 3,
    });
    await blog.control({ versions: { 2: 2 } });
    const preview = await runConfig(ws, config.id, { dry_run: true, publish: false });
    expect(preview.body.run).toMatchObject({ id: null, status: "completed", updated: 1, unchanged: 2 });
    expect(
      preview.body.items.map((i: { synced_post_id: number | null; action: string }) => [i.synced_post_id, i.action]),
    ).toEqual([
      [null, "unchanged"],
      [null, "update"],
      [null, "unchanged"],
    ]);
  });
});

describe("real runs", () => {
  it("publish=false writes drafts; a re-run reports unchanged; a changed source updates its draft", async () => {
    const blog = newBlog("drafts");
    const config = await createConfig(ws, { blog_url: blog.feedUrl, subreddit: "rust", publish_immediately: true });

    const first = await runConfig(ws, config.id, { publish: false });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.run).toMatchObject({
      status: "completed",
      dry_run: false,
      publish: false,
      created: 3,
      queued: 0,
      failed: 0,
      error: null,
    });
    expect(first.body.run.id).toBeGreaterThan(0);
    expect(
      first.body.items.every((i: { action: string; state: string }) => i.action === "create" && i.state === "draft"),
    ).toBe(true);

    const stored = await items(ws, config.id);
    expect(stored.count).toBe(3);
    expect(stored.data.map((p) => p.state)).toEqual(["draft", "draft", "draft"]);
    const post2 = stored.data.find((p) => postN(2).test(p.source_url));
    expect(post2).toMatchObject({
      config_id: config.id,
      title: "Sync post 2",
      body_richtext: null,
      approved_at: null,
      forum_post_id: null,
      published_at: null,
    });
    expect(post2.body_markdown).toContain("version 1 of post number 2");
    expect(first.body.items.map((i: { synced_post_id: number }) => i.synced_post_id).sort()).toEqual(
      stored.data.map((p) => p.id).sort(),
    );

    const configAfter = await getConfig(config.id);
    expect(configAfter.last_run_at).not.toBeNull();
    expect(configAfter.last_error).toBeNull();
    expect(configAfter.item_counts).toEqual({ draft: 3, queued: 0, published: 0, failed: 0 });

    const again = await runConfig(ws, config.id, { publish: false });
    expect(again.body.run).toMatchObject({ status: "completed", created: 0, updated: 0, unchanged: 3 });
    expect(again.body.items.every((i: { action: string }) => i.action === "unchanged")).toBe(true);
    const unchanged = await items(ws, config.id);
    expect(unchanged.data.map((p) => p.updated_at)).toEqual(stored.data.map((p) => p.updated_at));

    await blog.control({ versions: { 2: 2 } });
    const changed = await runConfig(ws, config.id, { publish: false });
    expect(changed.body.run).toMatchObject({ status: "completed", created: 0, updated: 1, unchanged: 2 });
    const updatedItem = changed.body.items.find((i: { source_url: string }) => postN(2).test(i.source_url));
    expect(updatedItem).toMatchObject({ action: "update", state: "draft", synced_post_id: post2.id });
    const after = await items(ws, config.id);
    expect(after.count).toBe(3);
    const post2After = after.data.find((p) => p.id === post2.id);
    expect(post2After.body_markdown).toContain("version 2 of post number 2");
    expect(post2After.updated_at > post2.updated_at).toBe(true);

    const runs = await workspaceDb(env, ws.id).db.select().from(syncRuns).all();
    expect(
      runs.filter((r) => r.configId === config.id).map((r) => [r.status, r.created, r.updated, r.unchanged]),
    ).toEqual([
      ["completed", 3, 0, 0],
      ["completed", 0, 0, 3],
      ["completed", 0, 1, 2],
    ]);
  });

  it("never touches a published post, even when its source changed", async () => {
    const blog = newBlog("published");
    const config = await createConfig(ws, { blog_url: blog.feedUrl, subreddit: "rust" });
    await runConfig(ws, config.id, { publish: false });
    const post1 = (await items(ws, config.id)).data.find((p) => postN(1).test(p.source_url));
    await env.DB.prepare(
      "UPDATE synced_posts SET state = 'published', forum_post_id = 't3_abc', permalink = '/r/rust/comments/abc/x/', published_at = ? WHERE id = ?",
    )
      .bind(new Date().toISOString(), post1.id)
      .run();
    const publishedRow = await env.DB.prepare("SELECT * FROM synced_posts WHERE id = ?").bind(post1.id).first();

    await blog.control({ versions: { 1: 5, 3: 2 } });
    const res = await runConfig(ws, config.id, {});
    expect(res.body.run).toMatchObject({ status: "completed", created: 0, updated: 1, unchanged: 1, queued: 0 });
    const skipped = res.body.items.find((i: { source_url: string }) => postN(1).test(i.source_url));
    expect(skipped).toMatchObject({ action: "skip", state: "published", synced_post_id: post1.id });
    expect(skipped.warnings.join(" ")).toMatch(/published/);
    expect(await env.DB.prepare("SELECT * FROM synced_posts WHERE id = ?").bind(post1.id).first()).toEqual(
      publishedRow,
    );
    // The published post's page was not even fetched again.
    expect((await blog.hits())["posts/1.html"]).toBe(1);
  });

  it("publishing runs of an active, publish_immediately config queue new drafts with one task each", async () => {
    const blog = newBlog("queue");
    const config = await createConfig(ws, {
      blog_url: blog.feedUrl,
      subreddit: "rust",
      publish_immediately: true,
      max_posts: 2,
    });
    // The run's publish tasks go to the real queue (whose consumer runs on its own); the test also keeps
    // what was sent, and hands exactly those messages to the queue handler to read its decisions.
    const sent: unknown[] = [];
    const queue = env.PUBLISH_QUEUE;
    const recording: typeof queue = {
      send: (body, options) => {
        sent.push(body);
        return queue.send(body, options);
      },
      sendBatch: (batch, options) => {
        sent.push(...[...batch].map((m) => m.body));
        return queue.sendBatch(batch, options);
      },
      metrics: () => queue.metrics(),
    };
    const result = await runSync({ ...env, PUBLISH_QUEUE: recording }, workspaceDb(env, ws.id), config.id, {
      dryRun: false,
      publish: true,
      trigger: "api",
    });
    expect(result.run).toMatchObject({ status: "completed", publish: true, max_posts: 2, created: 2, queued: 2 });
    expect(result.items.map((i) => i.source_url)).toEqual([blog.postUrl(3), blog.postUrl(2)]);
    expect(result.items.every((i) => i.state === "queued")).toBe(true);
    // One task per queued post, carrying the config's fingerprint.
    expect(sent).toEqual(
      result.items.map((i) => ({
        type: "publish.post",
        workspace_id: ws.id,
        config_id: config.id,
        synced_post_id: i.synced_post_id,
        fingerprint: config.fingerprint,
      })),
    );
    const batch = createMessageBatch(
      "threadwatch-publish",
      sent.map((body, n) => ({ id: `queued-${config.id}-${n}`, timestamp: new Date(), attempts: 1, body })),
    );
    expect((await handleQueueBatch(batch, env)).map((d) => [d.outcome, d.note])).toEqual(
      Array(2).fill(["ack", "gate closed: the post is not approved (POST .../items/:item_id/approve)"]),
    );
    expect((await items(ws, config.id, "queued")).count).toBe(2);
    expect((await items(ws, config.id, "draft")).count).toBe(0);

    // An inactive config never queues: drafts only.
    const quiet = await createConfig(ws, {
      blog_url: newBlog("queue-off").feedUrl,
      subreddit: "rust",
      publish_immediately: true,
      active: false,
    });
    const off = await runConfig(ws, quiet.id, { max_posts: 1 });
    expect(off.body.run).toMatchObject({ created: 1, queued: 0 });
    expect((await items(ws, quiet.id, "draft")).count).toBe(1);
  });

  it("a publishing run queues the drafts an earlier publish=false run wrote, unchanged as they are", async () => {
    const blog = newBlog("queue-later");
    const config = await createConfig(ws, {
      blog_url: blog.feedUrl,
      subreddit: "rust",
      publish_immediately: true,
      max_posts: 2,
    });
    await runConfig(ws, config.id, { publish: false });
    expect((await items(ws, config.id, "draft")).count).toBe(2);
    const res = await runConfig(ws, config.id, {});
    expect(res.body.run).toMatchObject({ status: "completed", created: 0, unchanged: 2, queued: 2 });
    expect(res.body.items.map((i: { action: string; state: string }) => [i.action, i.state])).toEqual([
      ["unchanged", "queued"],
      ["unchanged", "queued"],
    ]);
    expect((await items(ws, config.id, "queued")).count).toBe(2);
    // Already queued: a further run neither queues them again nor changes them.
    const again = await runConfig(ws, config.id, {});
    expect(again.body.run).toMatchObject({ unchanged: 2, queued: 0 });
  });

  it("a run that rewrites an approved draft from its changed source clears the approval: it was given for the old text", async () => {
    const blog = newBlog("approved-update");
    // Approved while the config does not publish at once, so the drafts stay drafts (approving a draft of a
    // publish_immediately config queues it at once: test/publishing/approval-next.test.ts).
    const settings = { blog_url: blog.feedUrl, subreddit: "rust", max_posts: 2 };
    const config = await createConfig(ws, { ...settings, publish_immediately: false });
    await runConfig(ws, config.id, { publish: false });
    const drafts = (await items(ws, config.id, "draft")).data;
    const post2 = drafts.find((p) => postN(2).test(p.source_url));
    const post3 = drafts.find((p) => postN(3).test(p.source_url));
    const approvedAt: Record<number, string> = {};
    // An approval takes no fields: one sent is refused, not ignored, and approves nothing.
    const withField = await callJson(`${SYNCS}/${config.id}/items/${post2.id}/approve`, {
      key: ws.writeKey,
      method: "POST",
      body: { approved: false },
    });
    expect(withField.status).toBe(400);
    expect(withField.body.error).toMatchObject({
      code: "validation_failed",
      details: [{ path: "body.approved", message: "unknown field" }],
    });
    expect((await items(ws, config.id, "draft")).data.every((p: { approved_at: unknown }) => !p.approved_at)).toBe(
      true,
    );
    for (const post of [post2, post3]) {
      const approved = await callJson(`${SYNCS}/${config.id}/items/${post.id}/approve`, {
        key: ws.writeKey,
        method: "POST",
      });
      expect(approved.body).toMatchObject({ state: "draft", approved_at: expect.any(String) });
      approvedAt[post.id] = approved.body.approved_at;
    }
    const publishing = await callJson(SYNCS, {
      key: ws.writeKey,
      method: "POST",
      body: { ...settings, publish_immediately: true },
    });
    expect(publishing.body).toMatchObject({ id: config.id, publish_immediately: true });

    await blog.control({ versions: { 2: 2 } });
    const res = await runConfig(ws, config.id, {});
    expect(res.body.run).toMatchObject({ status: "completed", updated: 1, unchanged: 1, queued: 2 });
    const after = (await items(ws, config.id)).data;
    const rewritten = after.find((p) => p.id === post2.id);
    expect(rewritten.body_markdown).toContain("version 2 of post number 2");
    // Nobody approved the new text: it waits, queued, for a person's approval.
    expect(rewritten).toMatchObject({ state: "queued", approved_at: null });
    // The unchanged draft keeps the approval given for its (same) text.
    expect(after.find((p) => p.id === post3.id)).toMatchObject({
      state: "queued",
      approved_at: approvedAt[post3.id],
    });
  });

  it("a draft that leaves the draft state while the run works on it is not overwritten", async () => {
    const blog = newBlog("moved");
    const config = await createConfig(ws, { blog_url: blog.feedUrl, subreddit: "rust" });
    await runConfig(ws, config.id, { publish: false });
    const post2 = (await items(ws, config.id)).data.find((p) => postN(2).test(p.source_url));
    await blog.control({ versions: { 2: 3 }, hold: 2 });
    const running = runConfig(ws, config.id, { publish: false });
    await blog.waitHeld();
    // Meanwhile the post is queued elsewhere (e.g. approved for publishing).
    await env.DB.prepare("UPDATE synced_posts SET state = 'queued' WHERE id = ?").bind(post2.id).run();
    await blog.release();
    const res = await running;
    const item = res.body.items.find((i: { source_url: string }) => postN(2).test(i.source_url));
    expect(item).toMatchObject({ action: "skip", state: "queued", synced_post_id: post2.id });
    expect(item.warnings.join(" ")).toMatch(/became queued/);
    const after = (await items(ws, config.id)).data.find((p) => p.id === post2.id);
    expect(after.body_markdown).toBe(post2.body_markdown);
    expect(after.state).toBe("queued");
  });

  it("a draft a person edits while the run works on it keeps the edit, though its source changed", async () => {
    const blog = newBlog("edited-meanwhile");
    const config = await createConfig(ws, { blog_url: blog.feedUrl, subreddit: "rust" });
    await runConfig(ws, config.id, { publish: false });
    const post2 = (await items(ws, config.id)).data.find((p) => postN(2).test(p.source_url));
    await blog.control({ versions: { 2: 3 }, hold: 2 });
    const running = runConfig(ws, config.id, { publish: false });
    await blog.waitHeld();
    // The run read the draft before the edit; the person's edit lands while it fetches the changed source.
    const edit = await callJson(`${SYNCS}/${config.id}/items/${post2.id}`, {
      key: ws.writeKey,
      method: "PATCH",
      body: { title: "A person's title", body_markdown: "A person's text." },
    });
    expect(edit.status).toBe(200);
    await blog.release();
    const res = await running;
    const item = res.body.items.find((i: { source_url: string }) => postN(2).test(i.source_url));
    expect(item).toMatchObject({ action: "skip", state: "draft", synced_post_id: post2.id });
    expect(item.warnings.join(" ")).toMatch(/edited/);
    const after = (await items(ws, config.id)).data.find((p) => p.id === post2.id);
    expect(after).toMatchObject({
      title: "A person's title",
      body_markdown: "A person's text.",
      edited: true,
      state: "draft",
    });
  });

  it("include_media keeps the article's images and stores forum rich text; without it both stay empty", async () => {
    const blog = newBlog("media");
    const withMedia = await createConfig(ws, {
      blog_url: blog.feedUrl,
      subreddit: "rust",
      include_media: true,
      max_posts: 1,
    });
    const res = await runConfig(ws, withMedia.id, { publish: false });
    expect(res.body.run).toMatchObject({ status: "completed", created: 1 });
    expect(res.body.items[0].images).toEqual([
      {
        url: `${env.FIXTURE_ORIGIN}/__blogsync/${blog.name}/images/3.png`,
        alt: "Diagram of post 3",
        caption: "The diagram of post 3",
      },
    ]);
    const [post] = (await items(ws, withMedia.id)).data;
    expect(post.images).toEqual(res.body.items[0].images);
    expect(JSON.stringify(post.body_richtext)).toContain("version 1 of post number 3");

    const textOnly = await createConfig(ws, { blog_url: blog.feedUrl, subreddit: "golang", max_posts: 1 });
    await runConfig(ws, textOnly.id, { publish: false });
    const [plain] = (await items(ws, textOnly.id)).data;
    expect(plain.images).toEqual([]);
    expect(plain.body_richtext).toBeNull();
  });

  it("a post that fails makes the run partial with last_error; the next clean run clears it", async () => {
    const blog = newBlog("partial");
    const config = await createConfig(ws, { blog_url: blog.feedUrl, subreddit: "rust" });
    await blog.control({ fail: [2] });
    const res = await runConfig(ws, config.id, { publish: false });
    expect(res.body.run).toMatchObject({ status: "partial", created: 2, failed: 1 });
    expect(res.body.run.error).toMatch(/1 of 3 posts failed/);
    const failedItem = res.body.items.find((i: { source_url: string }) => postN(2).test(i.source_url));
    expect(failedItem).toMatchObject({ action: "error", synced_post_id: null, state: null });
    expect(failedItem.error).toMatch(/500/);
    expect((await getConfig(config.id)).last_error).toBe(res.body.run.error);

    await blog.control({ fail: [] });
    const clean = await runConfig(ws, config.id, { publish: false });
    expect(clean.body.run).toMatchObject({ status: "completed", created: 1, unchanged: 2, error: null });
    expect((await getConfig(config.id)).last_error).toBeNull();
  });

  it("a blog that cannot be read fails the run with its reason (the body may be omitted: a real run)", async () => {
    const config = await createConfig(ws, { blog_url: "http://127.0.0.1:1/feed.xml", subreddit: "rust" });
    const res = await callJson(`${SYNCS}/${config.id}/run`, { key: ws.writeKey, method: "POST" });
    expect(res.status).toBe(200);
    expect(res.body.run).toMatchObject({ status: "failed", dry_run: false, publish: true, discovered: 0, created: 0 });
    expect(res.body.run.id).toBeGreaterThan(0);
    expect(res.body.run.error).toMatch(/^discovery failed/);
    expect(res.body.items).toEqual([]);
    expect((await getConfig(config.id)).last_error).toBe(res.body.run.error);
  });

  it("a blog address that lists no posts fails the run, so a wrong address does not look healthy", async () => {
    const blog = newBlog("empty");
    await blog.control({ posts: 0 });
    const empty = await createConfig(ws, { blog_url: blog.feedUrl, subreddit: "rust" });
    const res = await runConfig(ws, empty.id, { publish: false });
    expect(res.body.run).toMatchObject({ status: "failed", discovered: 0, created: 0 });
    expect(res.body.run.error).toBe(`no posts found at ${blog.feedUrl}`);
    expect((await getConfig(empty.id)).last_error).toBe(res.body.run.error);
    expect((await runConfig(ws, empty.id, { dry_run: true })).body.run).toMatchObject({
      status: "failed",
      error: res.body.run.error,
    });
  });

  it("a second real run while one is active is 409 run_in_progress; dry runs never conflict", async () => {
    const blog = newBlog("busy");
    const config = await createConfig(ws, { blog_url: blog.feedUrl, subreddit: "rust" });
    await blog.control({ hold: 1 }); // the oldest post: handled last
    const first = runConfig(ws, config.id, { publish: false });
    await blog.waitHeld();

    const second = await runConfig(ws, config.id, { publish: false });
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe("run_in_progress");
    expect(second.res.headers.get("x-request-id")).toBe(second.body.error.request_id);
    const preview = await runConfig(ws, config.id, { dry_run: true, max_posts: 2 });
    expect(preview.status).toBe(200);
    expect(preview.body.run.dry_run).toBe(true);

    await blog.release();
    const done = await first;
    expect(done.body.run).toMatchObject({ status: "completed", created: 3 });
    // The slot is free again.
    expect((await runConfig(ws, config.id, { publish: false })).body.run.unchanged).toBe(3);
  });
});

describe("a run that writes nothing", () => {
  it("keeps its claim alive post by post: past its first lease a second run is still 409, and it completes", async () => {
    // A workspace of its own: the fake clock below stays with its coordinator.
    const ws = await createTestWorkspace("runs alive");
    const blog = newBlog("alive");
    const config = await createConfig(ws, { blog_url: blog.feedUrl, subreddit: "rust" });
    expect((await runConfig(ws, config.id, { publish: false })).body.run.created).toBe(3);
    const coordinator = coordinatorFor(env, ws.id);

    // The coordinator's clock stands still until the test moves it (no sleeping for a deadline to pass).
    let now = Date.now();
    await runInDurableObject(coordinator, (instance: WorkspaceCoordinator) => {
      instance.clock = () => now;
    });

    await blog.control({ hold: 2 }); // every post is unchanged: this run writes nothing
    // A claim of 300 ms, as if the run had been silent for most of its lease.
    const running = runSync(env, workspaceDb(env, ws.id), config.id, {
      dryRun: false,
      publish: false,
      trigger: "api",
      leaseMs: 300,
    });
    await blog.waitHeld();
    now += 400; // past the first claim's deadline
    await runDurableObjectAlarm(coordinator); // expires whatever is past its deadline

    const lease = (await coordinator.activeRuns()).find((l) => l.configId === config.id);
    // Renewed to a full lease (RUN_LEASE_MS, 60 s) by the run's fetches and questions at the clock's time,
    // far past its first 300 ms.
    expect(lease!.deadline).toBe(now - 400 + RUN_LEASE_MS);
    expect(lease!.deadline - now).toBeGreaterThan(30_000);
    expect((await runConfig(ws, config.id, { publish: false })).status).toBe(409);
    await blog.release();
    expect((await running).run).toMatchObject({ status: "completed", unchanged: 3, error: null });
  });

  it("still aborts when the config changes, though nothing is left to write", async () => {
    const blog = newBlog("abort-late");
    const config = await createConfig(ws, { blog_url: blog.feedUrl, subreddit: "rust" });
    expect((await runConfig(ws, config.id, { publish: false })).body.run.created).toBe(3);
    await blog.control({ hold: 1 }); // the last post
    const running = runConfig(ws, config.id, { publish: false });
    await blog.waitHeld();
    expect(
      (await callJson(SYNCS, { key: ws.writeKey, method: "POST", body: { id: config.id, subreddit: "golang" } }))
        .status,
    ).toBe(200);
    await blog.release();

    const res = await running;
    expect(res.body.run).toMatchObject({ status: "aborted", created: 0, unchanged: 3 });
    expect(res.body.run.error).toMatch(/config changed/);
    expect((await getConfig(config.id)).last_error).toBeNull(); // an abort is not a failure
  });
});

describe("abort on config change", () => {
  it("a config change during a run stops it before its next write; nothing further is written", async () => {
    const blog = newBlog("abort");
    const config = await createConfig(ws, { blog_url: blog.feedUrl, subreddit: "rust", max_posts: 3 });
    await blog.control({ hold: 2 }); // post 3 is written first, then the run waits for post 2
    const running = runConfig(ws, config.id, { publish: false });
    await blog.waitHeld();
    expect((await items(ws, config.id)).count).toBe(1);

    const change = await callJson(SYNCS, {
      key: ws.writeKey,
      method: "POST",
      body: { id: config.id, subreddit: "golang" },
    });
    expect(change.status).toBe(200);
    await blog.release();

    const res = await running;
    expect(res.status).toBe(200);
    expect(res.body.run).toMatchObject({ status: "aborted", created: 1, updated: 0, queued: 0 });
    expect(res.body.run.error).toMatch(/config changed/);
    expect(res.body.items.map((i: { action: string }) => i.action)).toEqual(["create", "skip"]);
    const stored = await items(ws, config.id);
    expect(stored.data.map((p) => p.source_url)).toEqual([blog.postUrl(3)]);
    expect((await blog.hits())["posts/1.html"]).toBeUndefined();
    const configAfter = await getConfig(config.id);
    expect(configAfter.last_error).toBeNull(); // an abort is not a failure
    expect(configAfter.last_run_at).not.toBeNull();
    const run = await workspaceDb(env, ws.id).db.select().from(syncRuns).all();
    expect(run.find((r) => r.id === res.body.run.id)?.status).toBe("aborted");

    // The next run starts from the new settings and completes.
    const next = await runConfig(ws, config.id, { publish: false });
    expect(next.body.run).toMatchObject({ status: "completed", created: 2, unchanged: 1 });
  });
});
