import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getSyncedPost } from "../../src/db/blog-sync-posts";
import { workspaceDb } from "../../src/db/client";
import { updatePersona } from "../../src/db/personas";
import { ADMIN_TOKEN, callJson } from "../helpers/api";
import { localForum, seedSubmission, setAccount, submissions, uploads } from "../helpers/forum";
import { expectLogged } from "../helpers/logs";
import { addPost, deliver, item, SYNCS, scene, task } from "../helpers/publishing";

const approve = (s: Awaited<ReturnType<typeof scene>>, id: number, key = s.ws.writeKey) =>
  callJson(`${SYNCS}/${s.config.id}/items/${id}/approve`, { key, method: "POST" });

describe("approval and publishing", () => {
  it("approval of a queued post publishes it exactly once, also when the task is delivered twice", async () => {
    const s = await scene();
    const post = await addPost(s);

    // Read key: 403. (Approving drafts, and approving again: approval-next.test.ts.)
    expect((await approve(s, post.id, s.ws.readKey)).status).toBe(403);

    const approved = await approve(s, post.id);
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ id: post.id, state: "queued" });
    const offences = await localForum.offences();
    // The same task twice in one batch, and once more later: one submission.
    const { result, ids } = await deliver([task(s, post.id), task(s, post.id)]);
    expect(result.explicitAcks.sort()).toEqual(ids.sort());
    await deliver([task(s, post.id)]);
    const sent = await submissions(s.persona.account.username);
    expect(sent).toHaveLength(1);
    expect(sent[0].form).toMatchObject({
      sr: s.sr,
      kind: "self",
      title: post.title,
      text: post.bodyMarkdown,
      sendreplies: "true",
      api_type: "json",
      validate_on_submit: "true",
    });
    // Sent with the persona's bearer token only: no cookie, no modhash.
    expect(sent[0].form.uh).toBeUndefined();
    expect(await localForum.offences()).toEqual(offences);
    const published = await item(s, post.id);
    expect(published).toMatchObject({
      state: "published",
      forum_post_id: sent[0].id,
      permalink: sent[0].permalink,
      error: null,
    });
    expect(published.published_at).not.toBeNull();
    // Published: approving again is 409; another workspace's ids 404.
    expect((await approve(s, post.id)).status).toBe(409);
    const other = await scene();
    expect((await approve(other, post.id)).status).toBe(404);
  }, 120_000);

  it("every gate docs/publishing.md lists closed, one at a time: nothing is submitted and the error names it", async () => {
    const s = await scene();
    const w = workspaceDb(env, s.ws.id);
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const save = (body: Record<string, unknown>) =>
      callJson(SYNCS, { key: s.ws.writeKey, method: "POST", body: { id: s.config.id, ...body } });
    const check = async (label: string, pattern: RegExp, fingerprint?: string) => {
      const post = await addPost(s, { approvedAt: new Date().toISOString() });
      const config = (await callJson(`${SYNCS}/${s.config.id}`, { key: s.ws.readKey })).body;
      await deliver([task(s, post.id, fingerprint ?? config.fingerprint)]);
      const row = await getSyncedPost(w, post.id);
      expect(row?.state, label).toBe(fingerprint ? "draft" : "queued");
      if (!fingerprint) expect(row?.error, label).toMatch(pattern);
      expect(await submissions(s.persona.account.username), label).toHaveLength(0);
    };
    // Not approved.
    const unapproved = await addPost(s);
    await deliver([task(s, unapproved.id)]);
    expect((await getSyncedPost(w, unapproved.id))?.error).toMatch(/gate closed: the post is not approved/);
    // Destination changed since the task was queued (its fingerprint): back to draft.
    await check("destination", /./, "f".repeat(64));
    await save({ active: false });
    await check("inactive", /gate closed: the config is not active/);
    await save({ active: true, publish_immediately: false });
    await check("publish_immediately", /gate closed: the config's publish_immediately is off/);
    await save({ publish_immediately: true });
    await callJson(`/admin/v1/workspaces/${s.ws.id}/personas/${s.persona.id}/revoke`, {
      method: "POST",
      headers: admin,
    });
    await check("persona approval", /gate closed: persona u\/\S+ is not approved for the customer/);
    await callJson(`/admin/v1/workspaces/${s.ws.id}/personas/${s.persona.id}/approve`, {
      method: "POST",
      headers: admin,
    });
    // The persona's visitor check is no longer confirmed (as after a failed check).
    await updatePersona(w, s.persona.id, { browserReady: false });
    await save({ persona_id: s.persona.id });
    await check("persona not ready", /gate closed: persona u\/\S+: .*preflight/);
    // Another browser job holds the workspace's browser: the task waits its turn (rescheduled), submits nothing.
    await callJson(`/api/v1/actions/personas/${s.persona.id}/preflight`, { key: s.ws.writeKey, method: "POST" });
    const { coordinatorFor } = await import("../../src/durable/workspace-coordinator");
    const coordinator = coordinatorFor(env, s.ws.id);
    const held = await coordinator.acquireBrowserSlot("another job");
    expect(held.ok).toBe(true);
    try {
      const post = await addPost(s, { approvedAt: new Date().toISOString() });
      const { publishQueuedPost } = await import("../../src/publishing/publish-post");
      // The consumer's own call, with a short wait instead of 30 s.
      const { fingerprint } = (await callJson(`${SYNCS}/${s.config.id}`, { key: s.ws.readKey })).body;
      const outcome = await publishQueuedPost(env, w, post.id, fingerprint, { waitMs: 200 });
      expect(outcome).toMatchObject({ kind: "reschedule", delaySeconds: expect.any(Number) });
      expect((await getSyncedPost(w, post.id))?.state).toBe("queued");
    } finally {
      if (held.ok) await coordinator.releaseBrowserSlot(held.token);
    }
    expect(await submissions(s.persona.account.username)).toHaveLength(0);
  }, 120_000);

  it("a crash after the forum took the submission: the retry finds it in the submitted list and does not post again", async () => {
    const s = await scene({ persona: { account: { crash_after_submit: true } } });
    const post = await addPost(s, { approvedAt: new Date().toISOString() });
    const retried = expectLogged("warn", "queue message retried");
    const first = await deliver([task(s, post.id)]);
    expect(first.result.retryMessages.map((m) => m.msgId)).toEqual(first.ids);
    expect(retried.map((line) => line.note)).toEqual([expect.stringMatching(/the post may or may not exist$/)]);
    const row = await getSyncedPost(workspaceDb(env, s.ws.id), post.id);
    expect(row?.state).toBe("queued");
    expect(row?.submitAttemptedAt).not.toBeNull();
    expect(await submissions(s.persona.account.username)).toHaveLength(1);
    await deliver([task(s, post.id)]);
    const sent = await submissions(s.persona.account.username);
    expect(sent).toHaveLength(1);
    expect(await item(s, post.id)).toMatchObject({ state: "published", forum_post_id: sent[0].id });

    // The Worker died after the submit and before any write of its own: the marker is all that is left.
    const post2 = await addPost(s, { approvedAt: new Date().toISOString(), title: "Written before the crash" });
    await env.DB.prepare("UPDATE synced_posts SET submit_attempted_at = ? WHERE id = ?")
      .bind(new Date().toISOString(), post2.id)
      .run();
    const earlier = await seedSubmission({ account: s.persona.account.username, sr: s.sr, title: post2.title });
    await deliver([task(s, post2.id)]);
    expect(await submissions(s.persona.account.username)).toHaveLength(2);
    expect(await item(s, post2.id)).toMatchObject({ state: "published", forum_post_id: earlier.id });
  }, 120_000);

  it("RATELIMIT reschedules the task: the post stays queued with the time of the next try", async () => {
    const s = await scene({ persona: { account: { ratelimit_seconds: [540] } } });
    const post = await addPost(s, { approvedAt: new Date().toISOString() });
    const before = Date.now();
    const { result, ids } = await deliver([task(s, post.id)]);
    expect(result.explicitAcks).toEqual(ids);
    const row = await getSyncedPost(workspaceDb(env, s.ws.id), post.id);
    expect(row?.state).toBe("queued");
    const at = /^rate limited by the forum; retrying at (\S+)$/.exec(row?.error ?? "")?.[1];
    expect(at).toBeDefined();
    const delay = (Date.parse(at!) - before) / 1000;
    expect(delay).toBeGreaterThanOrEqual(539);
    expect(delay).toBeLessThan(600);
    expect(row?.submitAttemptedAt).toBeNull();
    expect(await submissions(s.persona.account.username)).toHaveLength(0);
    // The limit is over: the next delivery publishes.
    await deliver([task(s, post.id)]);
    expect((await item(s, post.id)).state).toBe("published");
  }, 120_000);

  it("flair: a required flair goes with the submission; rich text carries uploaded media ids, never credentialed URLs", async () => {
    const image = `${env.FIXTURE_ORIGIN}/blog/images/diagram.png`;
    const secret = "https://alice:hunter2@images.example/secret.png";
    const s = await scene({
      subreddit: { requirements: { is_flair_required: true }, flairs: [{ id: "flair-guide", text: "Guide" }] },
      config: { include_media: true, flair_id: "flair-guide" },
    });
    const richtext = {
      document: [
        { e: "par", c: [{ e: "text", t: "Before the image." }] },
        { e: "par", c: [{ e: "link", t: "A diagram", u: image }] },
        { e: "par", c: [{ e: "link", t: "Private", u: secret }] },
      ],
    };
    const post = await addPost(s, {
      approvedAt: new Date().toISOString(),
      bodyRichtext: richtext,
      images: [
        { url: image, alt: "A diagram", caption: "The diagram" },
        { url: secret, alt: "Private", caption: null },
      ],
    });
    await deliver([task(s, post.id)]);
    const sent = await submissions(s.persona.account.username);
    expect(sent).toHaveLength(1);
    expect(sent[0].form.flair_id).toBe("flair-guide");
    expect(sent[0].form.text).toBeUndefined();
    const doc = JSON.parse(sent[0].form.richtext_json);
    const media = await uploads(s.persona.account.username);
    expect(media).toHaveLength(1);
    expect(doc.document[1]).toEqual({ e: "img", id: media[0].key.split("/").pop(), c: "The diagram" });
    expect(sent[0].form.richtext_json).not.toContain("hunter2");
    expect(doc.document[2].c[0].u).toBe("https://images.example/secret.png");
    expect((await item(s, post.id)).state).toBe("published");
  }, 120_000);

  it("a private subreddit or a grant the forum revoked keeps the post queued with the reason", async () => {
    const s = await scene({ subreddit: { type: "private" } });
    const post = await addPost(s, { approvedAt: new Date().toISOString() });
    await deliver([task(s, post.id)]);
    expect((await item(s, post.id)).error).toMatch(/gate closed: destination r\/\S+: r\/\S+ is private/);
    await setAccount(s.persona.account.username, { expired: true });
    await deliver([task(s, post.id)]);
    const after = await item(s, post.id);
    expect(after.state).toBe("queued");
    expect(after.error).toMatch(
      /gate closed: persona u\/\S+: .*the forum revoked this connection; connect the account again/,
    );
    const persona = await callJson(`/api/v1/actions/personas/${s.persona.id}`, { key: s.ws.readKey });
    expect(persona.body).toMatchObject({ auth_completed: false });
    expect(persona.body.last_error).toMatch(/revoked this connection/);
    expect(await submissions(s.persona.account.username)).toHaveLength(0);
  }, 120_000);
});
