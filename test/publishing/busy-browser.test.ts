// The workspace's browser slot seen from publishing's two doors: a publish task delivered through the real
// publish queue while another browser operation holds the slot waits its turn, is sent again when the wait
// runs out (the post stays queued, nothing fails) and publishes once after the slot frees; the console's
// approval (approveReviewedPost) refuses while a gate (docs/publishing.md, "Gates") is closed.

import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getSyncedPost } from "../../src/db/blog-sync-posts";
import { workspaceDb } from "../../src/db/client";
import { coordinatorFor, type WorkspaceCoordinator } from "../../src/durable/workspace-coordinator";
import { approveReviewedPost } from "../../src/publishing/approval";
import { approvalGates } from "../../src/publishing/gates";
import { ADMIN_TOKEN, callJson } from "../helpers/api";
import { newSubreddit, submissions } from "../helpers/forum";
import { addPost, deliver, item, SYNCS, scene, task } from "../helpers/publishing";
import { sleep, until } from "../helpers/until";

/** How long a task waits in line for the browser here (production: 30 s, BROWSER_WAIT_MS). */
const WAIT_MS = 2_000;

const isTrue = (value: boolean) => value;

describe("a publish task through the real queue while the workspace's browser is busy", () => {
  it("waits its turn, is sent again when the wait runs out (post stays queued, not failed), then publishes once", async () => {
    const s = await scene();
    const w = workspaceDb(env, s.ws.id);
    const post = await addPost(s, { approvedAt: new Date().toISOString() });
    const coordinator = coordinatorFor(env, s.ws.id);
    await runInDurableObject(coordinator, (instance: WorkspaceCoordinator) => {
      instance.maxBrowserWaitMs = WAIT_MS;
    });
    // Another browser operation holds the slot a little longer than a task waits.
    const held = await coordinator.acquireBrowserSlot("another browser job", { leaseMs: 5 * WAIT_MS });
    expect(held.ok).toBe(true);
    if (!held.ok) return;
    let released = false;
    try {
      await env.PUBLISH_QUEUE.send(task(s, post.id));
      // The queue delivers it; the consumer waits in line for the browser.
      expect(await until(async () => (await coordinator.browserStatus()).waiting === 1, isTrue, 20_000)).toBe(true);
      // Its wait runs out while the slot is still held: the task leaves the line, nothing was submitted,
      // and the post is still queued without a failure.
      expect(await until(async () => (await coordinator.browserStatus()).waiting === 0, isTrue, 4 * WAIT_MS)).toBe(
        true,
      );
      expect((await coordinator.browserStatus()).holder?.operation).toBe("another browser job");
      const waiting = await getSyncedPost(w, post.id);
      expect(waiting).toMatchObject({ state: "queued", submitAttemptedAt: null, forumPostId: null });
      expect(await submissions(s.persona.account.username)).toHaveLength(0);
      expect(await coordinator.releaseBrowserSlot(held.token)).toBe(true);
      released = true;
    } finally {
      if (!released) await coordinator.releaseBrowserSlot(held.token);
    }
    // The task sent again (with the holder's remaining time as its delay) publishes once the slot is free.
    expect(await until(async () => (await getSyncedPost(w, post.id))?.state === "published", isTrue, 30_000)).toBe(
      true,
    );
    const sent = await submissions(s.persona.account.username);
    expect(sent).toHaveLength(1);
    expect(await item(s, post.id)).toMatchObject({ state: "published", forum_post_id: sent[0].id, error: null });
    // No second submission arrives later (no other copy of the task was left in the queue).
    await sleep(3_000);
    expect(await submissions(s.persona.account.username)).toHaveLength(1);
  }, 120_000);
});

describe("a publish task whose destination changes while it waits for the browser", () => {
  it("is not submitted to the new subreddit: the post goes back to draft when its turn comes (docs/blog-sync.md, States)", async () => {
    const s = await scene();
    const w = workspaceDb(env, s.ws.id);
    const post = await addPost(s, { approvedAt: new Date().toISOString() });
    const coordinator = coordinatorFor(env, s.ws.id);
    const held = await coordinator.acquireBrowserSlot("another browser job", { leaseMs: 20_000 });
    expect(held.ok).toBe(true);
    if (!held.ok) return;
    let delivery: Promise<unknown> | undefined;
    try {
      // The task carries the fingerprint of the config it was queued under, and waits in line for the browser.
      delivery = deliver([task(s, post.id)]);
      expect(await until(async () => (await coordinator.browserStatus()).waiting === 1, isTrue, 20_000)).toBe(true);
      // Meanwhile a person points the config at another subreddit.
      const other = await newSubreddit();
      const moved = await callJson(SYNCS, {
        key: s.ws.writeKey,
        method: "POST",
        body: { id: s.config.id, subreddit: other },
      });
      expect(moved.status).toBe(200);
      expect(moved.body.fingerprint).not.toBe(s.config.fingerprint);
    } finally {
      await coordinator.releaseBrowserSlot(held.token);
    }
    await delivery;
    expect(await submissions(s.persona.account.username)).toHaveLength(0);
    expect(await getSyncedPost(w, post.id)).toMatchObject({ state: "draft", forumPostId: null });
  }, 60_000);
});

describe("the console's approval refuses while a gate is closed", () => {
  it("persona not approved, then another browser job running: refused and nothing approved; all open: approved", async () => {
    const s = await scene({ persona: { approve: false } });
    const w = workspaceDb(env, s.ws.id);
    const draft = await addPost(s, {}, "draft");
    const approver = { type: "key" as const, id: 1, name: "console key" };
    const refusal = (p: Promise<unknown>) =>
      p.then(
        () => null,
        (err: { kind?: string; message: string; retryAfterSeconds?: number }) => err,
      );

    const gates = await approvalGates(env, w, s.config.id, draft.id);
    expect(gates.gates.filter((g) => !g.open)).toEqual([
      {
        name: "persona",
        open: false,
        reason: expect.stringContaining(`persona u/${s.persona.account.username} is not approved for the customer`),
      },
    ]);
    const notApproved = await refusal(approveReviewedPost(env, w, s.config.id, draft.id, approver));
    expect(notApproved).toMatchObject({
      kind: "invalid_state",
      message: expect.stringMatching(/^not approved: a gate is closed: persona u\/\S+ is not approved/),
    });
    expect((await getSyncedPost(w, draft.id))?.approvedAt).toBeNull();

    await callJson(`/admin/v1/workspaces/${s.ws.id}/personas/${s.persona.id}/approve`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const coordinator = coordinatorFor(env, s.ws.id);
    const held = await coordinator.acquireBrowserSlot("persona check 1", { leaseMs: 20_000 });
    expect(held.ok).toBe(true);
    if (!held.ok) return;
    try {
      const busy = await approvalGates(env, w, s.config.id, draft.id);
      expect(busy.gates.filter((g) => !g.open)).toEqual([
        {
          name: "browser",
          open: false,
          reason: expect.stringMatching(/another browser job of the workspace is running \(persona check 1\)/),
          retryAfterSeconds: expect.any(Number),
        },
      ]);
      const refused = await refusal(approveReviewedPost(env, w, s.config.id, draft.id, approver));
      expect(refused).toMatchObject({ kind: "browser_busy", retryAfterSeconds: expect.any(Number) });
      expect(refused?.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(refused?.retryAfterSeconds).toBeLessThanOrEqual(20);
      expect((await getSyncedPost(w, draft.id))?.approvedAt).toBeNull();
    } finally {
      await coordinator.releaseBrowserSlot(held.token);
    }

    // Every gate open: the same approval as the API's route (a draft of an active config that publishes
    // immediately: queued at once).
    const approved = await approveReviewedPost(env, w, s.config.id, draft.id, approver);
    expect(approved).toMatchObject({
      id: draft.id,
      state: "queued",
      approved_at: expect.any(String),
      approved_by: approver,
      next: "queued for publishing",
    });
    // The API's approve route keeps docs/publishing.md's rule: it approves and the publish consumer checks the gates.
    const other = await addPost(s, {}, "draft");
    await callJson(SYNCS, { key: s.ws.writeKey, method: "POST", body: { id: s.config.id, active: false } });
    const viaApi = await callJson(`${SYNCS}/${s.config.id}/items/${other.id}/approve`, {
      key: s.ws.writeKey,
      method: "POST",
    });
    expect(viaApi.status).toBe(200);
    const inactive = await refusal(approveReviewedPost(env, w, s.config.id, other.id, approver));
    expect(inactive).toMatchObject({
      kind: "invalid_state",
      message: expect.stringContaining("the sync is not active"),
    });
  }, 60_000);
});
