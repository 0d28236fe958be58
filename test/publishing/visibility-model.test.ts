// Visibility of published posts, all but the forum (docs/publishing.md, "Visibility"; docs/alerts.md): the
// reading of the forum's answers, the VISIBILITY_CHECKS_S schedule as a chain of queue messages (a delay past
// the queue's 12 hours travels in legs), and the one `synced_post.removed` event per post and webhook, JSON
// and Slack, only to webhooks that list it. The checks against the local forum: visibility-checks.test.ts.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { PublishQueueMessage } from "../../src/contracts/queue-messages";
import { insertSyncedPost } from "../../src/db/blog-sync-posts";
import { workspaceDb } from "../../src/db/client";
import { consumeVisibilityCheck } from "../../src/jobs/visibility-consumers";
import {
  checkMessage,
  MAX_QUEUE_DELAY_S,
  scheduleNextCheck,
  scheduleVisibilityChecks,
  storeFinding,
  visibilityDelays,
} from "../../src/publishing/visibility";
import { visibilityOf } from "../../src/publishing/visibility-state";
import { createWebhook, deliveriesOf, eventually, newReceiver } from "../helpers/alerts";
import { callJson, createTestWorkspace, type TestWorkspace } from "../helpers/api";
import { newBlog } from "../helpers/blogs";
import { captureLogs } from "../helpers/logs";
import { SYNCS } from "../helpers/publishing";

/** A publish queue binding that keeps what is sent to it, with the delays asked for. */
function recordingQueue() {
  const sent: { body: PublishQueueMessage; delaySeconds?: number }[] = [];
  const queue = {
    send: async (body: PublishQueueMessage, options?: { delaySeconds?: number }) =>
      void sent.push({ body, delaySeconds: options?.delaySeconds }),
  } as unknown as typeof env.PUBLISH_QUEUE;
  return { queue, sent };
}

describe("reading the forum's answers", () => {
  const live = { found: true as const, link: { author: "poster", selftext: "Hello", removed_by_category: null } };
  it("names each state from the author's view and the visitor's", () => {
    expect(visibilityOf({ author: "poster", selftext: "Hello", removed_by_category: null }, live, "sr")).toMatchObject({
      visibility: "live",
    });
    const mod = visibilityOf({ author: "poster", removed_by_category: "moderator" }, live, "sr");
    expect(mod).toEqual({ visibility: "removed", reason: expect.stringContaining("the moderators of r/sr removed") });
    expect(visibilityOf({ author: "poster", removed_by_category: "reddit" }, live, "sr").visibility).toBe(
      "spam_filtered",
    );
    expect(visibilityOf({ author: "[deleted]", removed_by_category: "deleted" }, live, "sr").visibility).toBe(
      "deleted",
    );
    expect(visibilityOf(null, { found: false }, "sr").visibility).toBe("deleted");
    // A moderator's fields without a category; an unknown category is a removal naming it.
    expect(visibilityOf({ banned_by: "a_mod" }, live, "sr")).toMatchObject({ visibility: "removed" });
    expect(visibilityOf({ removed: true }, live, "sr")).toMatchObject({ visibility: "removed" });
    expect(visibilityOf({ banned_by: true }, live, "sr")).toMatchObject({ visibility: "spam_filtered" });
    expect(visibilityOf({ removed_by_category: "anti_evil_ops" }, live, "sr").reason).toContain("anti_evil_ops");
    // The author sees it whole, a visitor does not: visible to its author only.
    expect(visibilityOf({ author: "poster" }, { found: false }, "sr").visibility).toBe("spam_filtered");
    const hidden = { found: true as const, link: { author: "poster", selftext: "[removed]" } };
    expect(visibilityOf({ author: "poster" }, hidden, "sr").visibility).toBe("spam_filtered");
    const gone = { found: true as const, link: { author: "[deleted]", selftext: "[deleted]" } };
    expect(visibilityOf({ author: "poster" }, gone, "sr").visibility).toBe("deleted");
  });
});

describe("the schedule", () => {
  it("reads VISIBILITY_CHECKS_S, falling back to 600,86400 for anything but positive whole seconds", async () => {
    expect(visibilityDelays({ VISIBILITY_CHECKS_S: "600,86400" })).toEqual([600, 86_400]);
    expect(visibilityDelays({ VISIBILITY_CHECKS_S: " 2, 1 ,2" })).toEqual([1, 2]);
    expect(visibilityDelays({ VISIBILITY_CHECKS_S: "" })).toEqual([600, 86_400]);
    for (const bad of ["0,5", "ten", "1.5", "-3", "5,"]) {
      const { result, logs } = await captureLogs(async () => visibilityDelays({ VISIBILITY_CHECKS_S: bad }));
      expect(result, bad).toEqual([600, 86_400]);
      expect(logs, bad).toEqual([expect.objectContaining({ level: "warn", value: bad })]);
    }
  });

  it("a check past the queue's 12 hours travels in legs: early messages are sent on with the time left", async () => {
    const ws = await createTestWorkspace("visibility schedule");
    const w = workspaceDb(env, ws.id);
    const { queue, sent } = recordingQueue();
    const schedule = { ...env, PUBLISH_QUEUE: queue, VISIBILITY_CHECKS_S: "600,86400" };
    const publishedAt = new Date().toISOString();
    await scheduleVisibilityChecks(schedule, w, 7, publishedAt);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).toMatchObject({ type: "publish.visibility", synced_post_id: 7, check: 0 });
    expect(sent[0]!.delaySeconds).toBeGreaterThan(595);
    expect(sent[0]!.delaySeconds).toBeLessThanOrEqual(600);

    // After the first check, the 24-hour one: sent for the queue's longest delay, then on when it arrives early.
    expect(await scheduleNextCheck(schedule, sent[0]!.body as any, publishedAt)).toBe(true);
    const second = sent[1]!;
    expect(second.body).toMatchObject({
      check: 1,
      due_at: new Date(Date.parse(publishedAt) + 86_400_000).toISOString(),
    });
    expect(second.delaySeconds).toBe(MAX_QUEUE_DELAY_S);
    const verdict = await consumeVisibilityCheck(second.body as any, schedule);
    expect(verdict).toMatchObject({ outcome: "ack", note: expect.stringContaining("sent on") });
    expect(sent[2]).toEqual(second);
    // No third check.
    expect(await scheduleNextCheck(schedule, second.body as any, publishedAt)).toBe(false);
    expect(checkMessage(schedule, ws.id, 7, publishedAt, 2)).toBeNull();
  });
});

describe("synced_post.removed", () => {
  let ws: TestWorkspace;
  let configId: number;
  beforeAll(async () => {
    ws = await createTestWorkspace("removed alerts");
    const res = await callJson(SYNCS, {
      key: ws.writeKey,
      method: "POST",
      body: { blog_url: newBlog().feedUrl, subreddit: "visibility_sr" },
    });
    expect(res.status).toBe(201);
    configId = res.body.id;
  });

  let n = 0;
  const publishedPost = async () => {
    const w = workspaceDb(env, ws.id);
    const row = await insertSyncedPost(
      w,
      configId,
      {
        sourceUrl: `https://blog.example/removed/${++n}`,
        title: `Our <b>release</b> notes ${n}`,
        bodyMarkdown: "Text",
        bodyRichtext: null,
        images: [],
        contentHash: "0".repeat(64),
      },
      "published",
    );
    await env.DB.prepare("UPDATE synced_posts SET forum_post_id = ?, permalink = ?, published_at = ? WHERE id = ?")
      .bind(`p${n}`, `/r/visibility_sr/comments/p${n}/our_release_notes/`, new Date().toISOString(), row.id)
      .run();
    return row;
  };

  it("webhooks list the events they want: all three by default, also for webhooks made before", async () => {
    const receiver = newReceiver("events-default");
    const all = await createWebhook(ws.writeKey, { url: receiver.url });
    expect(all).toMatchObject({ events: ["post.created", "comment.created", "synced_post.removed"] });
    const some = await createWebhook(ws.writeKey, {
      url: receiver.url,
      events: ["synced_post.removed", "post.created", "synced_post.removed"],
    });
    expect(some).toMatchObject({ events: ["post.created", "synced_post.removed"] });
    for (const events of [[], ["post.deleted"], "post.created"]) {
      const res = await callJson("/api/v1/actions/webhooks", {
        key: ws.writeKey,
        method: "POST",
        body: { url: receiver.url, events },
      });
      expect(res.status, JSON.stringify(events)).toBe(400);
    }
    // A row written without the column (as before migration 0071) reads all three.
    await env.DB.prepare("INSERT INTO webhooks (workspace_id, url, secret_sealed) VALUES (?, ?, 'v1.x')")
      .bind(ws.id, receiver.url)
      .run();
    const listed = (await callJson("/api/v1/actions/webhooks", { key: ws.readKey })).body.data;
    expect(listed.at(-1).events).toEqual(["post.created", "comment.created", "synced_post.removed"]);
    await env.DB.prepare("DELETE FROM webhooks WHERE workspace_id = ?").bind(ws.id).run();
  });

  it("a post no longer live is announced once per webhook that lists the event, in JSON and Slack", async () => {
    const jsonReceiver = newReceiver("removed-json");
    const slackReceiver = newReceiver("removed-slack");
    const otherReceiver = newReceiver("removed-other");
    const json = await createWebhook(ws.writeKey, { url: jsonReceiver.url, events: ["synced_post.removed"] });
    const slack = await createWebhook(ws.writeKey, { url: slackReceiver.url, format: "slack" });
    const postsOnly = await createWebhook(ws.writeKey, { url: otherReceiver.url, events: ["post.created"] });
    const w = workspaceDb(env, ws.id);

    const live = await publishedPost();
    expect(await storeFinding(env, w, live.id, { visibility: "live", reason: "seen" }, 0)).toBe(0);
    const post = await publishedPost();
    const reason = "the moderators of r/visibility_sr removed the post (removed_by_category: moderator)";
    expect(await storeFinding(env, w, post.id, { visibility: "removed", reason }, 0)).toBe(2);
    // The same check delivered again stores nothing; the next check finds it removed, or spam-filtered: nothing
    // more is sent.
    expect(await storeFinding(env, w, post.id, { visibility: "removed", reason }, 0)).toBeNull();
    expect(await storeFinding(env, w, post.id, { visibility: "removed", reason }, 1)).toBe(0);
    expect(await storeFinding(env, w, post.id, { visibility: "spam_filtered", reason: "held" }, 2)).toBe(0);

    const [got] = await eventually(async () => {
      const received = await jsonReceiver.deliveries();
      expect(received).toHaveLength(1);
      return received;
    });
    const event = JSON.parse(got!.body);
    expect(event).toMatchObject({
      type: "synced_post.removed",
      id: expect.stringMatching(/^evt_/),
      data: {
        subreddit: "visibility_sr",
        url: `${env.FORUM_BASE_URL}/r/visibility_sr/comments/p${n}/our_release_notes/`,
        synced_post: { id: post.id, state: "published", visibility: "removed", visibility_reason: reason },
      },
    });
    expect(event.data.synced_post.visibility_checked_at).toEqual(expect.any(String));
    const [slackGot] = await eventually(async () => {
      const received = await slackReceiver.deliveries();
      expect(received).toHaveLength(1);
      return received;
    });
    const body = JSON.parse(slackGot!.body);
    expect(body.text).toContain("r/visibility_sr");
    expect(body.text).toContain("&lt;b&gt;release&lt;/b&gt;");
    expect(JSON.stringify(body.blocks)).toContain(reason);
    expect((await deliveriesOf(ws.readKey, slack.id)).data[0]).toMatchObject({ type: "synced_post.removed" });
    expect((await deliveriesOf(ws.readKey, json.id)).count).toBe(1);
    expect((await deliveriesOf(ws.readKey, postsOnly.id)).count).toBe(0);
    expect(await otherReceiver.deliveries()).toEqual([]);
  });
});
