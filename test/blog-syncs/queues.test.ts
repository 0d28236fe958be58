import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  getQueueResult,
  waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import worker from "../../src";
import { getConfigRow } from "../../src/db/blog-sync-configs";
import { getSyncedPost, insertSyncedPost } from "../../src/db/blog-sync-posts";
import { finishRun, insertRun } from "../../src/db/blog-sync-runs";
import { workspaceDb } from "../../src/db/client";
import { syncRuns } from "../../src/db/schema";
import { handleQueueBatch } from "../../src/jobs/queue";
import { callJson, createTestWorkspace, type TestWorkspace } from "../helpers/api";
import { createConfig, newBlog, SYNCS } from "../helpers/blogs";
import { expectLogged } from "../helpers/logs";

let ws: TestWorkspace;
beforeAll(async () => {
  ws = await createTestWorkspace("queues");
});

let counter = 0;
async function deliver(queue: string, bodies: unknown[], attempts = 1) {
  const batch = createMessageBatch(
    queue,
    bodies.map((body) => ({ id: `msg-${++counter}`, timestamp: new Date(), attempts, body })),
  );
  const ctx = createExecutionContext();
  // The queue handler the Worker exports delegates to handleQueueBatch, which also returns its decisions.
  const decisions = await handleQueueBatch(batch, env);
  return { result: await getQueueResult(batch, ctx), ids: batch.messages.map((m) => m.id), decisions };
}

async function queuedPost(configId: number, url: string) {
  return insertSyncedPost(
    workspaceDb(env, ws.id),
    configId,
    {
      sourceUrl: url,
      title: "A post",
      bodyMarkdown: "Body",
      bodyRichtext: null,
      images: [],
      contentHash: "0".repeat(64),
    },
    "queued",
  );
}

describe("publish queue consumer", () => {
  it("a task whose fingerprint no longer matches returns the post to draft and is skipped; redelivery is harmless", async () => {
    const config = await createConfig(ws, {
      blog_url: newBlog().feedUrl,
      subreddit: "rust",
      publish_immediately: true,
    });
    const post = await queuedPost(config.id, "https://example.com/a");
    const task = {
      type: "publish.post",
      workspace_id: ws.id,
      config_id: config.id,
      synced_post_id: post.id,
      fingerprint: config.fingerprint,
    };

    // Destination changed before publishing.
    const changed = await callJson(SYNCS, {
      key: ws.writeKey,
      method: "POST",
      body: { id: config.id, subreddit: "golang" },
    });
    expect(changed.body.fingerprint).not.toBe(config.fingerprint);

    const first = await deliver("threadwatch-publish", [task]);
    expect(first.result.explicitAcks).toEqual(first.ids);
    expect(first.result.retryMessages).toEqual([]);
    const after = await getSyncedPost(workspaceDb(env, ws.id), post.id);
    expect(after?.state).toBe("draft");
    expect(after?.forumPostId).toBeNull();

    const again = await deliver("threadwatch-publish", [task]);
    expect(again.result.explicitAcks).toEqual(again.ids);
    expect((await getSyncedPost(workspaceDb(env, ws.id), post.id))?.state).toBe("draft");
  });

  it("a task with the current fingerprint leaves an unapproved post, or an approved one with no ready persona, queued with the closed gate named", async () => {
    const config = await createConfig(ws, {
      blog_url: newBlog().feedUrl,
      subreddit: "rust",
      publish_immediately: true,
    });
    const w = workspaceDb(env, ws.id);
    const unapproved = await queuedPost(config.id, "https://example.com/b");
    const approved = await queuedPost(config.id, "https://example.com/c");
    await env.DB.prepare("UPDATE synced_posts SET approved_at = ? WHERE id = ?")
      .bind(new Date().toISOString(), approved.id)
      .run();
    const task = (id: number) => ({
      type: "publish.post",
      workspace_id: ws.id,
      config_id: config.id,
      synced_post_id: id,
      fingerprint: config.fingerprint,
    });
    const { result, ids } = await deliver("threadwatch-publish", [task(unapproved.id), task(approved.id)]);
    expect(result.explicitAcks.sort()).toEqual(ids.sort());
    expect((await getSyncedPost(w, unapproved.id))?.state).toBe("queued");
    expect((await getSyncedPost(w, approved.id))?.state).toBe("queued");
    expect((await getSyncedPost(w, approved.id))?.forumPostId).toBeNull();
    expect((await getSyncedPost(w, unapproved.id))?.error).toMatch(/gate closed: the post is not approved/);
    expect((await getSyncedPost(w, approved.id))?.error).toMatch(/gate closed: no active, auth-completed/);
  });

  it("a task for another workspace's post, or a post that is not queued, changes nothing", async () => {
    const config = await createConfig(ws, { blog_url: newBlog().feedUrl, subreddit: "rust" });
    const post = await queuedPost(config.id, "https://example.com/d");
    const stranger = await createTestWorkspace("queues stranger");
    const { result, ids } = await deliver("threadwatch-publish", [
      {
        type: "publish.post",
        workspace_id: stranger.id,
        config_id: config.id,
        synced_post_id: post.id,
        fingerprint: "f".repeat(64),
      },
    ]);
    expect(result.explicitAcks).toEqual(ids);
    expect((await getSyncedPost(workspaceDb(env, ws.id), post.id))?.state).toBe("queued");
  });

  it("drops malformed messages (acknowledged, logged) instead of retrying them forever", async () => {
    const dropped = expectLogged("error", "invalid queue message dropped");
    const { result, ids, decisions } = await deliver("threadwatch-publish", [
      { type: "publish.post", workspace_id: "1" },
      { type: "mystery" },
      "not even an object",
    ]);
    expect(result.explicitAcks.sort()).toEqual(ids.sort());
    expect(result.retryMessages).toEqual([]);
    expect(decisions).toEqual(ids.map((id) => ({ id, outcome: "ack", note: "invalid queue message dropped" })));
    expect(dropped.map((line) => line.id).sort()).toEqual(ids.sort());
  });
});

describe("sync queue consumer", () => {
  it("a failing daily run is retried with growing backoff on every delivery, the last one too (then the DLQ takes it)", async () => {
    // wrangler.toml: max_retries = 3, so a message is delivered up to 4 times before the dead-letter queue.
    // Nothing listens on port 1: every run fails in discovery.
    const config = await createConfig(ws, { blog_url: "http://127.0.0.1:1/feed.xml", subreddit: "rust" });
    const message = { type: "sync.run", workspace_id: ws.id, config_id: config.id, schedule_key: "2026-03-01" };
    const retried = expectLogged("warn", "queue message retried");
    // getQueueResult does not report a retry's delay; the handler's returned decision does.
    const delays: number[] = [];
    for (let attempts = 1; attempts <= 4; attempts++) {
      const { result, ids, decisions } = await deliver("threadwatch-sync", [message], attempts);
      expect(result.explicitAcks).toEqual([]);
      expect(result.retryMessages.map((m) => m.msgId)).toEqual(ids);
      expect(decisions.map((d) => [d.id, d.outcome])).toEqual([[ids[0], "retry"]]);
      const [decision] = decisions;
      if (decision?.outcome === "retry") delays.push(decision.delaySeconds);
    }
    expect(delays).toEqual([30, 120, 480, 1920]);
    expect(retried).toHaveLength(4);
    const w = workspaceDb(env, ws.id);
    expect((await getConfigRow(w, config.id))?.lastError).toMatch(/discovery failed/);
    const runs = await w.db.select().from(syncRuns).all();
    const mine = runs.filter((r) => r.configId === config.id);
    expect(mine).toHaveLength(4);
    expect(mine.every((r) => r.status === "failed" && r.trigger === "schedule" && r.scheduleKey === "2026-03-01")).toBe(
      true,
    ); // Off again: the daily cron below queues every active config, and this one would fail there once more.
    await callJson(SYNCS, { key: ws.writeKey, method: "POST", body: { id: config.id, active: false } });
  });

  it("does nothing for an inactive or missing config, or a day whose run already finished", async () => {
    const inactive = await createConfig(ws, { blog_url: newBlog().feedUrl, subreddit: "rust", active: false });
    const done = await createConfig(ws, { blog_url: newBlog().feedUrl, subreddit: "rust" });
    const w = workspaceDb(env, ws.id);
    const run = await insertRun(w, {
      configId: done.id,
      trigger: "schedule",
      scheduleKey: "2026-03-02",
      publish: true,
      maxPosts: 5,
      fingerprint: done.fingerprint,
    });
    await finishRun(w, run.id, done.id, {
      status: "completed",
      sourceKind: "feed",
      sourceUrl: "x",
      discovered: 0,
      created: 0,
      updated: 0,
      unchanged: 0,
      queued: 0,
      failed: 0,
      error: null,
      finishedAt: new Date().toISOString(),
    });
    const before = (await w.db.select().from(syncRuns).all()).length;
    const { result, ids } = await deliver("threadwatch-sync", [
      { type: "sync.run", workspace_id: ws.id, config_id: inactive.id, schedule_key: "2026-03-02" },
      { type: "sync.run", workspace_id: ws.id, config_id: 999_999, schedule_key: "2026-03-02" },
      { type: "sync.run", workspace_id: ws.id, config_id: done.id, schedule_key: "2026-03-02" },
    ]);
    expect(result.explicitAcks.sort()).toEqual(ids.sort());
    expect((await w.db.select().from(syncRuns).all()).length).toBe(before);
  });
});

describe("daily cron", () => {
  it("enqueues one run per active config of every workspace, and the sync queue runs them", async () => {
    const a = await createTestWorkspace("cron a");
    const b = await createTestWorkspace("cron b");
    const activeA = await createConfig(a, { blog_url: newBlog("cron").feedUrl, subreddit: "rust" });
    const inactiveA = await createConfig(a, { blog_url: newBlog("cron").feedUrl, subreddit: "rust", active: false });
    const activeB = await createConfig(b, { blog_url: newBlog("cron").feedUrl, subreddit: "golang" });
    const scheduledTime = Date.UTC(2026, 4, 17, 6, 0, 0);
    const controller = createScheduledController({ cron: "0 6 * * *", scheduledTime });
    const ctx = createExecutionContext();
    await worker.scheduled(controller, env, ctx);
    await waitOnExecutionContext(ctx);

    // The cron itself runs nothing: the queue consumer does, once per active config.
    const seen = async () =>
      (
        await env.DB.prepare(
          "SELECT workspace_id, config_id FROM sync_runs WHERE schedule_key = '2026-05-17' AND workspace_id IN (?, ?) ORDER BY config_id",
        )
          .bind(a.id, b.id)
          .all<{ workspace_id: number; config_id: number }>()
      ).results;
    const end = Date.now() + 20_000;
    let rows = await seen();
    while (new Set(rows.map((r) => r.config_id)).size < 2 && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 100));
      rows = await seen();
    }
    const configIds = [...new Set(rows.map((r) => r.config_id))].sort((x, y) => x - y);
    expect(configIds).toEqual([activeA.id, activeB.id].sort((x, y) => x - y));
    expect(configIds).not.toContain(inactiveA.id);
    expect(rows.find((r) => r.config_id === activeB.id)?.workspace_id).toBe(b.id);
  });
});

describe("dead-letter queues", () => {
  it("a publish task given up on marks its still-queued post failed with the reason; redelivery is harmless", async () => {
    const config = await createConfig(ws, {
      blog_url: newBlog().feedUrl,
      subreddit: "rust",
      publish_immediately: true,
    });
    const queued = await queuedPost(config.id, "https://example.com/dead-letter");
    const task = {
      type: "publish.post",
      workspace_id: ws.id,
      config_id: config.id,
      synced_post_id: queued.id,
      fingerprint: config.fingerprint,
    };

    const first = await deliver("threadwatch-publish-dlq", [task], 1);
    expect(first.result.explicitAcks).toEqual(first.ids);
    const failed = await getSyncedPost(workspaceDb(env, ws.id), queued.id);
    expect(failed?.state).toBe("failed");
    expect(failed?.error).toMatch(/given up/);

    const again = await deliver("threadwatch-publish-dlq", [task], 1);
    expect(again.result.explicitAcks).toEqual(again.ids);
    expect((await getSyncedPost(workspaceDb(env, ws.id), queued.id))?.state).toBe("failed");
  });

  it("a dead-lettered publish task leaves a post that already left the queue alone", async () => {
    const config = await createConfig(ws, {
      blog_url: newBlog().feedUrl,
      subreddit: "rust",
      publish_immediately: true,
    });
    const draft = await insertSyncedPost(
      workspaceDb(env, ws.id),
      config.id,
      {
        sourceUrl: "https://example.com/already-draft",
        title: "A post",
        bodyMarkdown: "Body",
        bodyRichtext: null,
        images: [],
        contentHash: "1".repeat(64),
      },
      "draft",
    );
    const task = {
      type: "publish.post",
      workspace_id: ws.id,
      config_id: config.id,
      synced_post_id: draft.id,
      fingerprint: config.fingerprint,
    };
    const { result, ids } = await deliver("threadwatch-publish-dlq", [task], 1);
    expect(result.explicitAcks).toEqual(ids);
    const after = await getSyncedPost(workspaceDb(env, ws.id), draft.id);
    expect(after?.state).toBe("draft");
    expect(after?.error).toBeNull();
  });

  it("a daily run given up on is recorded as the config's last_error, keeping the last failure", async () => {
    const config = await createConfig(ws, { blog_url: "http://127.0.0.1:1/feed.xml", subreddit: "dead_letters" });
    const message = { type: "sync.run", workspace_id: ws.id, config_id: config.id, schedule_key: "2026-03-09" };
    const retried = expectLogged("warn", "queue message retried");
    // The last real delivery fails (nothing listens on port 1), then the dead-letter queue gets the message.
    await deliver("threadwatch-sync", [message], 4);
    const w = workspaceDb(env, ws.id);
    expect((await getConfigRow(w, config.id))?.lastError).toMatch(/discovery failed/);
    expect(retried).toHaveLength(1);
    const { result, ids } = await deliver("threadwatch-sync-dlq", [message], 1);
    expect(result.explicitAcks).toEqual(ids);
    expect(result.retryMessages).toEqual([]);
    const lastError = (await getConfigRow(w, config.id))?.lastError;
    expect(lastError).toMatch(
      /^the daily run of 2026-03-09 was given up after every retry; last failure: .*discovery failed/,
    );
  });
});
