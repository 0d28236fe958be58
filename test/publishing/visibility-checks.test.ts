// Visibility checks against the local forum (docs/publishing.md, "Visibility"), with VISIBILITY_CHECKS_S=1,2:
// a post published through the publish task is checked at 1 s and 2 s after publishing, as its author through
// /api/info and as a logged-out visitor at its permalink in the workspace's browser; removed by moderators,
// held by the spam filter or deleted, it says so, the webhook hears about it once and the review page shows it.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { PublishQueueMessage, VisibilityCheckMessage } from "../../src/contracts/queue-messages";
import { getSyncedPost } from "../../src/db/blog-sync-posts";
import { workspaceDb } from "../../src/db/client";
import { consumeVisibilityCheck } from "../../src/jobs/visibility-consumers";
import { publishQueuedPost } from "../../src/publishing/publish-post";
import { createWebhook, eventually, newReceiver } from "../helpers/alerts";
import { getPage, signedIn } from "../helpers/console-client";
import { localForum } from "../helpers/forum";
import { addPost, type Scene, scene } from "../helpers/publishing";
import { sleep } from "../helpers/until";

/** The Worker's env with the short schedule and a publish queue that keeps what is sent to it. */
function checksEnv() {
  const sent: PublishQueueMessage[] = [];
  const queue = {
    send: async (body: PublishQueueMessage) => void sent.push(body),
  } as unknown as typeof env.PUBLISH_QUEUE;
  return { env: { ...env, VISIBILITY_CHECKS_S: "1,2", PUBLISH_QUEUE: queue }, sent };
}

const visibilityChecks = (sent: PublishQueueMessage[]) =>
  sent.filter((m): m is VisibilityCheckMessage => m.type === "publish.visibility");

/** Publishes a new approved post through the publish task; its forum id. */
async function published(s: Scene, e: ReturnType<typeof checksEnv>, title: string) {
  const post = await addPost(s, { approvedAt: new Date().toISOString(), title });
  const outcome = await publishQueuedPost(e.env, workspaceDb(env, s.ws.id), post.id, s.config.fingerprint);
  expect(outcome, JSON.stringify(outcome)).toMatchObject({ kind: "done", note: expect.stringMatching(/^published/) });
  const row = (await getSyncedPost(workspaceDb(env, s.ws.id), post.id))!;
  expect(row).toMatchObject({ state: "published", visibility: null, publishedPersonaId: s.persona.id });
  return row;
}

/** Waits for the check's moment, then runs it as the publish queue's consumer would. */
async function runCheck(e: ReturnType<typeof checksEnv>, message: VisibilityCheckMessage) {
  await sleep(Math.max(0, Date.parse(message.due_at) - Date.now()));
  return consumeVisibilityCheck(message, e.env);
}

describe("visibility checks of published posts", () => {
  it("live at the first check; removed by the moderators at the second: stored, alerted once, shown", async () => {
    const s = await scene();
    const receiver = newReceiver("visibility");
    await createWebhook(s.ws.writeKey, { url: receiver.url, events: ["synced_post.removed"] });
    const e = checksEnv();
    const row = await published(s, e, "Visibility guide");
    const [first] = visibilityChecks(e.sent);
    expect(first).toMatchObject({ synced_post_id: row.id, check: 0 });
    expect(Date.parse(first!.due_at) - Date.parse(row.publishedAt!)).toBe(1000);

    const live = await runCheck(e, first!);
    expect(live).toMatchObject({ outcome: "ack", note: "visibility live; next check scheduled" });
    const w = workspaceDb(env, s.ws.id);
    expect(await getSyncedPost(w, row.id)).toMatchObject({
      visibility: "live",
      visibilityCheckedAt: expect.any(String),
    });
    // A duplicate delivery of the same check does nothing.
    expect(await consumeVisibilityCheck(first!, e.env)).toMatchObject({
      note: expect.stringContaining("already done"),
    });

    await localForum.remove(`t3_${row.forumPostId}`, "moderator");
    const second = visibilityChecks(e.sent)[1]!;
    expect(second).toMatchObject({ synced_post_id: row.id, check: 1 });
    const removed = await runCheck(e, second);
    expect(removed).toMatchObject({ outcome: "ack", note: "visibility removed; 1 alert deliveries queued" });
    const after = (await getSyncedPost(w, row.id))!;
    expect(after).toMatchObject({ visibility: "removed" });
    expect(after.visibilityReason).toContain(`the moderators of r/${s.sr} removed the post`);
    expect(visibilityChecks(e.sent)).toHaveLength(2);

    const [delivery] = await eventually(async () => {
      const got = await receiver.deliveries();
      expect(got).toHaveLength(1);
      return got;
    });
    const event = JSON.parse(delivery!.body);
    expect(event).toMatchObject({
      type: "synced_post.removed",
      data: { subreddit: s.sr, synced_post: { id: row.id, visibility: "removed" } },
    });

    const path = `/app/syncs/${s.config.id}/items/${row.id}`;
    const session = await signedIn(s.ws.readKey, path);
    const html = await (await getPage(path, session.cookie)).text();
    expect(html).toContain('id="visibility"');
    expect(html).toContain("the moderators of r/");
    expect(html).toMatch(/<span class="badge removed">removed<\/span>/);
  }, 120_000);

  it("held by the spam filter, or deleted by its author: named so at the first check", async () => {
    const s = await scene();
    const e = checksEnv();
    const w = workspaceDb(env, s.ws.id);
    const spam = await published(s, e, "Held by the filter");
    const deleted = await published(s, e, "Deleted by its author");
    await localForum.remove(`t3_${spam.forumPostId}`, "spam");
    await localForum.remove(`t3_${deleted.forumPostId}`, "deleted");
    const [spamCheck, deletedCheck] = visibilityChecks(e.sent);
    await runCheck(e, spamCheck!);
    await runCheck(e, deletedCheck!);
    expect(await getSyncedPost(w, spam.id)).toMatchObject({ visibility: "spam_filtered" });
    expect((await getSyncedPost(w, spam.id))!.visibilityReason).toContain("removed_by_category: reddit");
    expect(await getSyncedPost(w, deleted.id)).toMatchObject({ visibility: "deleted" });
  }, 120_000);
});
