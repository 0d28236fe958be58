// post.created deliveries (docs/alerts.md) from real monitoring passes against the local forum API, through the
// real alerts queue (its consumer runs on its own; tests run with ALERT_RETRY_BASE_SECONDS=0 so retries do
// not wait) to real local receivers.
import { createMessageBatch } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { alertNewPosts } from "../../src/alerts/post-alerts";
import { workspaceDb } from "../../src/db/client";
import { insertDeliveries, listAttempts, listWebhookRows } from "../../src/db/webhooks";
import { ALERT_RETENTION_MS, CRON_DAILY_SYNC, runScheduled } from "../../src/jobs/cron";
import { handleQueueBatch } from "../../src/jobs/queue";
import { runMonitorPass } from "../../src/monitor/pass";
import { createWebhook, deliveriesOf, eventually, newReceiver, verifyAsDocumented } from "../helpers/alerts";
import { callJson } from "../helpers/api";
import { expectLogged } from "../helpers/logs";
import { type FakePost, forum, newClient, nowSeconds, trackingWorkspace } from "../helpers/monitor";

type Client = ReturnType<typeof newClient>;
const pass = (wsId: number, config: Client) =>
  runMonitorPass(env, workspaceDb(env, wsId), { trigger: "api", config, budgetMs: 20_000 });

/** Posts about `term` the score puts at high, medium and low priority (src/monitor/score.ts). */
function prioritized(term: string, prefix: string, newer = 0): Record<"high" | "medium" | "low", FakePost> {
  // `newer` seconds later than a first batch: a pass reads newest first and stops at what it saw last time.
  const now = nowSeconds() + newer;
  return {
    // buying intent + question + fresh + no comments = 65
    high: { id: `${prefix}h`, title: `Can anyone recommend a ${term}?`, selftext: "Thanks", created_utc: now - 60 },
    // question + fresh + no comments = 35
    medium: { id: `${prefix}m`, title: `Thoughts on ${term}?`, selftext: "Curious", created_utc: now - 120 },
    // fresh, some comments = 15
    low: {
      id: `${prefix}l`,
      title: `Our ${term} notes`,
      selftext: "Sharing",
      num_comments: 3,
      created_utc: now - 180,
    },
  };
}

async function setup(name: string, minPriority: "high" | "medium" | "low" = "high") {
  const client = newClient(name);
  await forum.reset(client);
  const term = `${name} widget`;
  const ws = await trackingWorkspace(name, [term]);
  const receiver = newReceiver(name);
  const hook = await createWebhook(ws.writeKey, { url: receiver.url, min_priority: minPriority });
  return { client, term, ws, receiver, hook };
}

const settled = async (key: string, hookId: number, n: number) =>
  eventually(async () => {
    const page = await deliveriesOf(key, hookId);
    expect(page.count).toBe(n);
    expect(
      page.data.every((d) => d.status !== "pending"),
      JSON.stringify(page.data),
    ).toBe(true);
    return page;
  });

describe("post.created deliveries from a monitoring pass", () => {
  it("one signed delivery per new post at or above min_priority, the post as GET /posts shows it", async () => {
    const { client, term, ws, receiver, hook } = await setup("medium-min", "medium");
    const posts = prioritized(term, "mm");
    await forum.addPosts(client, [posts.high, posts.medium, posts.low]);
    const run = await pass(ws.id, client);
    expect(run).toMatchObject({ status: "completed", created: 3 });

    const page = await settled(ws.readKey, hook.id, 2);
    expect(page.data.map((d) => [d.type, d.status, d.attempts, d.last_status_code])).toEqual([
      ["post.created", "delivered", 1, 200],
      ["post.created", "delivered", 1, 200],
    ]);
    const received = await receiver.deliveries();
    expect(received).toHaveLength(2);
    const stored = (await callJson("/api/v1/posts?limit=500", { key: ws.readKey })).body.data as any[];
    for (const got of received) {
      expect(verifyAsDocumented(got.body, got.headers["threadwatch-signature"]!, hook.secret)).toBe(true);
      const event = JSON.parse(got.body);
      expect(Object.keys(event).sort()).toEqual(["created_at", "data", "id", "type"]);
      expect(event.type).toBe("post.created");
      expect(got.headers["threadwatch-event-id"]).toBe(event.id);
      expect(event.data.post).toEqual(stored.find((p) => p.id === event.data.post.id));
    }
    const announced = received.map((r) => JSON.parse(r.body).data.post.forum_id).sort();
    expect(announced).toEqual([posts.high.id, posts.medium.id].sort());
    expect(stored.find((p) => p.forum_id === posts.low.id)?.priority).toBe("low");
  });

  it("no delivery below min_priority (default high), and none for a re-seen post", async () => {
    const { client, term, ws, receiver, hook } = await setup("reseen");
    const posts = prioritized(term, "rs");
    await forum.addPosts(client, [posts.high, posts.medium, posts.low]);
    expect(await pass(ws.id, client)).toMatchObject({ created: 3 });
    await settled(ws.readKey, hook.id, 1);
    // The next pass sees the same posts again (refreshed, re-scored): nothing new is announced.
    await forum.configure(client, {});
    const again = await pass(ws.id, client);
    expect(again.created).toBe(0);
    expect(again.updated).toBeGreaterThan(0);
    // A new post arrives: only it is announced.
    const fresh = prioritized(term, "rs2", 30);
    await forum.addPosts(client, [fresh.high]);
    expect(await pass(ws.id, client)).toMatchObject({ created: 1 });
    await settled(ws.readKey, hook.id, 2);
    // Asked to announce the already-announced posts again, nothing is written or sent (unique per post).
    expect(await alertNewPosts(env, workspaceDb(env, ws.id), [posts.high.id, fresh.high.id])).toBe(0);
    const received = (await receiver.deliveries()).map((r) => JSON.parse(r.body).data.post.forum_id);
    expect(received).toEqual([posts.high.id, fresh.high.id]);
  });

  it("posts a pass stored before a failing write are announced: the failure takes no stored post's alert with it", async () => {
    const { client, term, ws, hook } = await setup("torn write", "low");
    const now = nowSeconds();
    // One page of 60 new posts, newest first: written 25 to a batch, the third batch fails (the 51st post).
    const posts = Array.from({ length: 60 }, (_, i) => ({
      id: `tw${i + 1}`,
      title: `Can anyone recommend a ${term}? (${i + 1})`,
      created_utc: now - 60 - i,
    }));
    await forum.addPosts(client, posts);
    await env.DB.prepare(
      `CREATE TRIGGER torn_write BEFORE INSERT ON posts WHEN NEW.forum_id = 'tw51'
       BEGIN SELECT RAISE(ABORT, 'the database refused the write'); END`,
    ).run();
    const failed = expectLogged("error", "monitoring pass failed");
    try {
      const run = await pass(ws.id, client);
      expect(run.status).toBe("failed");
      expect(failed).toHaveLength(1);
    } finally {
      await env.DB.prepare("DROP TRIGGER torn_write").run();
    }
    const stored = (await callJson("/api/v1/posts?limit=500", { key: ws.readKey })).body.data as any[];
    expect(stored).toHaveLength(50);
    // Every stored post has its delivery; the next pass stores the rest and announces only them.
    await settled(ws.readKey, hook.id, 50);
    expect(await pass(ws.id, client)).toMatchObject({ status: "completed", created: 10 });
    await settled(ws.readKey, hook.id, 60);
  });

  it("one workspace's posts never reach another workspace's webhook", async () => {
    const a = await setup("tenant-a", "low");
    const b = await setup("tenant-b", "low");
    await forum.addPosts(a.client, Object.values(prioritized(a.term, "ta")));
    await forum.addPosts(b.client, [prioritized(b.term, "tb").high]);
    await pass(a.ws.id, a.client);
    await pass(b.ws.id, b.client);
    await settled(a.ws.readKey, a.hook.id, 3);
    await settled(b.ws.readKey, b.hook.id, 1);
    const toA = (await a.receiver.deliveries()).map((r) => JSON.parse(r.body).data.post.forum_id).sort();
    const toB = (await b.receiver.deliveries()).map((r) => JSON.parse(r.body).data.post.forum_id);
    expect(toA).toEqual(["tah", "tal", "tam"]);
    expect(toB).toEqual(["tbh"]);
    // B's signature does not verify with A's secret.
    const [bGot] = await b.receiver.deliveries();
    expect(verifyAsDocumented(bGot!.body, bGot!.headers["threadwatch-signature"]!, a.hook.secret)).toBe(false);
  });

  it("a slow receiver never slows ingestion: the pass finishes while the receiver still holds the request", async () => {
    const { client, term, ws, receiver, hook } = await setup("slow");
    await receiver.configure({ hold: true });
    await forum.addPosts(client, [prioritized(term, "sl").high]);
    const run = await pass(ws.id, client);
    expect(run).toMatchObject({ status: "completed", created: 1 });
    // The delivery reached the receiver, which has not answered, and the pass is done.
    await eventually(async () => expect(await receiver.deliveries()).toHaveLength(1));
    expect((await deliveriesOf(ws.readKey, hook.id)).data[0]).toMatchObject({ status: "pending", attempts: 0 });
    await receiver.release();
    const page = await settled(ws.readKey, hook.id, 1);
    expect(page.data[0]).toMatchObject({ status: "delivered", attempts: 1 });
  });
});

describe("when the alerts queue cannot be reached", () => {
  it("the pass still completes, and the deliveries no message was sent for are failed with why, not left pending", async () => {
    const { client, term, ws, receiver, hook } = await setup("queue-down", "low");
    await forum.addPosts(client, Object.values(prioritized(term, "qd")));
    const broken = {
      ...env,
      ALERT_QUEUE: {
        send: async () => Promise.reject(new Error("Queue send failed: internal error")),
        sendBatch: async () => Promise.reject(new Error("Queue send failed: internal error")),
      } as unknown as typeof env.ALERT_QUEUE,
    };
    const notQueued = expectLogged("error", "alerts of new posts could not be queued");
    const run = await runMonitorPass(broken, workspaceDb(env, ws.id), { trigger: "api", config: client });
    expect(run).toMatchObject({ status: "completed", created: 3 });
    expect(notQueued).toHaveLength(1);
    const page = await deliveriesOf(ws.readKey, hook.id);
    expect(page.count).toBe(3);
    for (const d of page.data)
      expect(d).toMatchObject({
        status: "failed",
        attempts: 0,
        last_error: "not sent: it could not be queued (Queue send failed: internal error)",
      });
    expect(await receiver.deliveries()).toEqual([]);
  });
});

describe("the slack format", () => {
  it("posts Slack's incoming-webhook body: title, subreddit, priority, reasons and the thread's absolute link", async () => {
    const client = newClient("slack");
    await forum.reset(client);
    const ws = await trackingWorkspace("slack", ["slack widget"]);
    const receiver = newReceiver("slack");
    const hook = await createWebhook(ws.writeKey, { url: receiver.url, format: "slack" });
    const post = prioritized("slack widget", "sk").high;
    await forum.addPosts(client, [{ ...post, title: "Can anyone recommend a slack widget? <!channel> <b>&</b>" }]);
    await pass(ws.id, client);
    await settled(ws.readKey, hook.id, 1);
    const [got] = await receiver.deliveries();
    const body = JSON.parse(got!.body);
    expect(Object.keys(body).sort()).toEqual(["blocks", "text"]);
    const stored = (await callJson("/api/v1/posts", { key: ws.readKey })).body.data[0];
    // The monitored thread on the forum's public site, the JSON event's `url` (a text post): not the base URL
    // of the forum personas publish on (FORUM_BASE_URL, the local forum here), where that thread does not exist.
    const link = stored.url;
    expect(link).toBe(`https://www.reddit.com${stored.permalink}`);
    expect(link).toMatch(/^https:\/\/www\.reddit\.com\/r\/testing\/comments\/skh\//);
    expect(link.startsWith(env.FORUM_BASE_URL!)).toBe(false);
    expect(body.text).toContain("high-priority");
    expect(body.text).toContain("r/testing");
    expect(body.text).toContain(link);
    // The notification's text is mrkdwn too: the forum's words cannot mention a channel or make a link there.
    expect(body.text).toContain("&lt;!channel&gt; &lt;b&gt;&amp;&lt;/b&gt;");
    expect(body.text).not.toMatch(/<!channel>|<b>/);
    const blocks = JSON.stringify(body.blocks);
    // Slack's control characters in the title are escaped; the link, priority and every reason are there.
    expect(blocks).toContain(
      `<${link}|Can anyone recommend a slack widget? &lt;!channel&gt; &lt;b&gt;&amp;&lt;/b&gt;>`,
    );
    expect(blocks).toContain("priority *high*");
    expect(blocks).toContain("r/testing");
    for (const reason of stored.score_reasons) expect(blocks).toContain(reason.replace(/"/g, '\\"'));
    expect(body.blocks.at(-1).elements[0].url).toBe(link);
  });
});

describe("retries, dead letters and 410", () => {
  it("retries a 500 and a 429 with the same event id and a fresh signature each time, then delivers", async () => {
    const { client, term, ws, receiver, hook } = await setup("retry-ok");
    await receiver.configure({ failStatuses: [500, 429] });
    await forum.addPosts(client, [prioritized(term, "ro").high]);
    const retried = expectLogged("warn", "queue message retried");
    await pass(ws.id, client);
    const page = await settled(ws.readKey, hook.id, 1);
    expect(retried.map((line) => line.note)).toEqual(["attempt 1: HTTP 500", "attempt 2: HTTP 429"]);
    expect(page.data[0]).toMatchObject({ status: "delivered", attempts: 3, last_status_code: 200, last_error: null });
    const received = await receiver.deliveries();
    expect(received.map((r) => r.answered)).toEqual([500, 429, 200]);
    expect(new Set(received.map((r) => JSON.parse(r.body).id)).size).toBe(1);
    for (const r of received)
      expect(verifyAsDocumented(r.body, r.headers["threadwatch-signature"]!, hook.secret)).toBe(true);
    const attempts = await listAttempts(workspaceDb(env, ws.id), page.data[0]!.id);
    expect(attempts.map((a) => [a.attempt, a.outcome, a.statusCode])).toEqual([
      [1, "retry", 500],
      [2, "retry", 429],
      [3, "delivered", 200],
    ]);
    expect(attempts[0]!.error).toBe("receiver says 500");
  });

  it("retries until the queue gives up, then the dead-letter queue marks the delivery failed", async () => {
    const { client, term, ws, receiver, hook } = await setup("dead-letter");
    await receiver.configure({ status: 503, errorBody: "down for maintenance" });
    await forum.addPosts(client, [prioritized(term, "dl").high]);
    const retried = expectLogged("warn", "queue message retried");
    await pass(ws.id, client);
    const page = await settled(ws.readKey, hook.id, 1);
    // Every one of the 15 attempts asked for a retry; after the last the queue gave up.
    expect(retried.map((line) => line.attempts)).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
    // The first attempt and the queue's 14 retries (wrangler.toml max_retries), then the dead letter.
    expect(page.data[0]).toMatchObject({
      status: "failed",
      attempts: 15,
      last_status_code: 503,
      last_error: "down for maintenance",
    });
    expect(await receiver.deliveries()).toHaveLength(15);
    const hooks = await listWebhookRows(workspaceDb(env, ws.id));
    expect(hooks.find((h) => h.id === hook.id)?.active).toBe(true);
  });

  it("a 410 fails the delivery at once and disables the webhook; its other deliveries are not sent", async () => {
    const { client, term, ws, receiver, hook } = await setup("gone");
    await receiver.configure({ status: 410, errorBody: "endpoint removed" });
    await forum.addPosts(client, [prioritized(term, "go").high]);
    await pass(ws.id, client);
    const page = await settled(ws.readKey, hook.id, 1);
    expect(page.data[0]).toMatchObject({ status: "failed", attempts: 1, last_status_code: 410 });
    const listed = (await callJson("/api/v1/actions/webhooks", { key: ws.readKey })).body.data.find(
      (h: any) => h.id === hook.id,
    );
    expect(listed.active).toBe(false);
    expect(listed.disabled_reason).toMatch(/410/);
    // A disabled webhook gets nothing more: no new deliveries, and the test action says why.
    await forum.addPosts(client, [prioritized(term, "go2", 30).high]);
    expect(await pass(ws.id, client)).toMatchObject({ created: 1 });
    expect((await deliveriesOf(ws.readKey, hook.id)).count).toBe(1);
    const test = await callJson(`/api/v1/actions/webhooks/${hook.id}/test`, { key: ws.writeKey, method: "POST" });
    expect(test.status).toBe(409);
    expect(test.body.error.code).toBe("invalid_state");
    expect(await receiver.deliveries()).toHaveLength(1);
  });

  it("another 4xx fails at once without retries; a redirect is not followed", async () => {
    for (const [name, status] of [
      ["bad-request", 400],
      ["moved", 301],
    ] as const) {
      const { client, term, ws, receiver, hook } = await setup(name);
      await receiver.configure({ status });
      await forum.addPosts(client, [prioritized(term, name.slice(0, 3)).high]);
      await pass(ws.id, client);
      const page = await settled(ws.readKey, hook.id, 1);
      expect(page.data[0], name).toMatchObject({ status: "failed", attempts: 1, last_status_code: status });
      expect(await receiver.deliveries()).toHaveLength(1);
      if (status === 301) expect(page.data[0]!.last_error).toMatch(/redirects are not followed/);
    }
  });
});

describe("the consumer's decisions", () => {
  it("a receiver slower than the timeout is a retry after the production backoff (about 30 s, then doubling)", async () => {
    const { ws, receiver, hook } = await setup("timeout");
    await receiver.configure({ delayMs: 3_000 });
    const w = workspaceDb(env, ws.id);
    const [deliveryId] = await insertDeliveries(w, [
      {
        webhookId: hook.id,
        eventId: "evt_timeout",
        type: "webhook.test",
        postId: null,
        payload: JSON.stringify({ id: "evt_timeout", type: "webhook.test", created_at: "x", data: { webhook_id: 1 } }),
      },
    ]);
    const production = { ...env, ALERT_RETRY_BASE_SECONDS: undefined, ALERT_TIMEOUT_MS: "300" };
    const retried = expectLogged("warn", "queue message retried");
    const message = { type: "alert.deliver", workspace_id: ws.id, delivery_id: deliveryId };
    const first = await handleQueueBatch(
      createMessageBatch("threadwatch-alerts", [{ id: "t1", timestamp: new Date(), attempts: 1, body: message }]),
      production,
    );
    expect(first[0]).toMatchObject({ outcome: "retry" });
    const delay = (first[0] as { delaySeconds: number }).delaySeconds;
    expect(delay).toBeGreaterThanOrEqual(27);
    expect(delay).toBeLessThanOrEqual(33);
    const second = await handleQueueBatch(
      createMessageBatch("threadwatch-alerts", [{ id: "t2", timestamp: new Date(), attempts: 2, body: message }]),
      production,
    );
    const delay2 = (second[0] as { delaySeconds: number }).delaySeconds;
    expect(delay2).toBeGreaterThanOrEqual(54);
    expect(delay2).toBeLessThanOrEqual(66);
    const attempts = await listAttempts(w, deliveryId!);
    expect(attempts.map((a) => [a.outcome, a.statusCode])).toEqual([
      ["retry", null],
      ["retry", null],
    ]);
    expect(attempts[0]!.error).toBe("no answer within 300 ms");
    expect(retried.map((line) => [line.id, line.note])).toEqual([
      ["t1", "attempt 1: no answer within 300 ms"],
      ["t2", "attempt 2: no answer within 300 ms"],
    ]);
    // The dead-letter queue ends it.
    const dead = await handleQueueBatch(
      createMessageBatch("threadwatch-alerts-dlq", [{ id: "t3", timestamp: new Date(), attempts: 1, body: message }]),
      production,
    );
    expect(dead[0]).toMatchObject({ outcome: "ack" });
    expect((await deliveriesOf(ws.readKey, hook.id)).data[0]).toMatchObject({
      status: "failed",
      attempts: 2,
      last_error: "no answer within 300 ms",
    });
  });

  it("a 410 fails the webhook's other pending deliveries at once, unsent, not when their retries come up", async () => {
    const { ws, receiver, hook } = await setup("gone-pending");
    await receiver.configure({ status: 410 });
    const w = workspaceDb(env, ws.id);
    const payload = (id: string) =>
      JSON.stringify({ id, type: "webhook.test", created_at: "x", data: { webhook_id: hook.id } });
    const [gone, waiting] = await insertDeliveries(w, [
      { webhookId: hook.id, eventId: "evt_gone", type: "webhook.test", postId: null, payload: payload("evt_gone") },
      { webhookId: hook.id, eventId: "evt_wait", type: "webhook.test", postId: null, payload: payload("evt_wait") },
    ]);
    const message = (id: number) => ({ type: "alert.deliver", workspace_id: ws.id, delivery_id: id });
    const batch = (id: number, n: number) =>
      createMessageBatch("threadwatch-alerts", [
        { id: `g${n}`, timestamp: new Date(), attempts: 1, body: message(id) },
      ]);
    expect((await handleQueueBatch(batch(gone!, 1), env))[0]).toMatchObject({ outcome: "ack" });
    // The other delivery's message has not come yet: the listing already says it will never be sent.
    const page = await deliveriesOf(ws.readKey, hook.id);
    expect(page.data.map((d) => [d.id, d.status, d.attempts])).toEqual([
      [waiting, "failed", 0],
      [gone, "failed", 1],
    ]);
    expect(page.data[0]!.last_error).toMatch(/^not sent: the webhook is disabled \(the receiver answered 410 Gone/);
    expect(page.data[1]!.last_status_code).toBe(410);
    // When its message comes, nothing is sent.
    expect((await handleQueueBatch(batch(waiting!, 2), env))[0]).toMatchObject({ outcome: "ack" });
    expect(await receiver.deliveries()).toHaveLength(1);
  });

  it("a delivery already sent when a 410 disables its webhook records what its receiver said, not 'not sent'", async () => {
    const { ws, receiver, hook } = await setup("gone-in-flight");
    // Both requests are in flight together (one batch), each answered 410 after a moment.
    await receiver.configure({ status: 410, delayMs: 300 });
    const w = workspaceDb(env, ws.id);
    const payload = (id: string) =>
      JSON.stringify({ id, type: "webhook.test", created_at: "x", data: { webhook_id: hook.id } });
    const ids = await insertDeliveries(w, [
      { webhookId: hook.id, eventId: "evt_one", type: "webhook.test", postId: null, payload: payload("evt_one") },
      { webhookId: hook.id, eventId: "evt_two", type: "webhook.test", postId: null, payload: payload("evt_two") },
    ]);
    const batch = createMessageBatch(
      "threadwatch-alerts",
      ids.map((id, n) => ({
        id: `f${n}`,
        timestamp: new Date(),
        attempts: 1,
        body: { type: "alert.deliver", workspace_id: ws.id, delivery_id: id },
      })),
    );
    await handleQueueBatch(batch, env);
    expect(await receiver.deliveries()).toHaveLength(2);
    // Whichever answer came second found its delivery failed as not sent by the first one's 410.
    const page = await deliveriesOf(ws.readKey, hook.id);
    expect(page.data.map((d) => [d.status, d.attempts, d.last_status_code])).toEqual([
      ["failed", 1, 410],
      ["failed", 1, 410],
    ]);
    for (const d of page.data) expect(d.last_error).not.toMatch(/^not sent/);
  });

  it("a delivery of a deleted webhook is dropped", async () => {
    const { ws, receiver, hook } = await setup("dropped");
    const w = workspaceDb(env, ws.id);
    const [deliveryId] = await insertDeliveries(w, [
      { webhookId: hook.id, eventId: "evt_drop", type: "webhook.test", postId: null, payload: "{}" },
    ]);
    await callJson(`/api/v1/actions/webhooks/${hook.id}`, { key: ws.writeKey, method: "DELETE" });
    const message = { type: "alert.deliver", workspace_id: ws.id, delivery_id: deliveryId };
    const [decision] = await handleQueueBatch(
      createMessageBatch("threadwatch-alerts", [{ id: "d1", timestamp: new Date(), attempts: 1, body: message }]),
      env,
    );
    expect(decision).toMatchObject({ outcome: "ack", note: expect.stringMatching(/no longer exists/) });
    expect(await receiver.deliveries()).toEqual([]);
  });
});

describe("retention", () => {
  it("the daily cron deletes deliveries and attempts older than 30 days, and keeps newer ones", async () => {
    const { ws, hook } = await setup("retention");
    const w = workspaceDb(env, ws.id);
    const test = await callJson(`/api/v1/actions/webhooks/${hook.id}/test`, { key: ws.writeKey, method: "POST" });
    const recent = await callJson(`/api/v1/actions/webhooks/${hook.id}/test`, { key: ws.writeKey, method: "POST" });
    const old = new Date(Date.now() - ALERT_RETENTION_MS - 3_600_000).toISOString();
    await env.DB.batch([
      env.DB.prepare("UPDATE webhook_deliveries SET created_at = ? WHERE id = ?").bind(old, test.body.id),
      env.DB.prepare("UPDATE webhook_attempts SET attempted_at = ? WHERE delivery_id = ?").bind(old, test.body.id),
    ]);
    await runScheduled(CRON_DAILY_SYNC, env, Date.now());
    const page = await deliveriesOf(ws.readKey, hook.id);
    expect(page.data.map((d) => d.id)).toEqual([recent.body.id]);
    expect(await listAttempts(w, test.body.id)).toEqual([]);
    expect(await listAttempts(w, recent.body.id)).toHaveLength(1);
  });
});
