// Approval that says what happens (docs/publishing.md, "Approval"): who approved and which content, `next`
// in words, a draft of an active config that publishes immediately queued at once, approving again a no-op,
// and every change of the content clearing the approval.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getSyncedPost, updateSyncedContent } from "../../src/db/blog-sync-posts";
import { workspaceDb } from "../../src/db/client";
import { contentHashOf } from "../../src/publishing/approval";
import { ADMIN_TOKEN, callJson } from "../helpers/api";
import { getPage, signedIn } from "../helpers/console-client";
import { submissions } from "../helpers/forum";
import { addPost, item, type Scene, SYNCS, scene } from "../helpers/publishing";
import { until } from "../helpers/until";

const approve = (s: Scene, id: number) =>
  callJson(`${SYNCS}/${s.config.id}/items/${id}/approve`, { key: s.ws.writeKey, method: "POST" });

const writeKeyId = async (s: Scene) =>
  (await env.DB.prepare("SELECT id FROM api_keys WHERE workspace_id = ? AND name = 'write'")
    .bind(s.ws.id)
    .first<{ id: number }>())!.id;

const save = (s: Scene, body: Record<string, unknown>) =>
  callJson(SYNCS, { key: s.ws.writeKey, method: "POST", body: { id: s.config.id, ...body } });

describe("approval says what happens next", () => {
  it("a draft of an active config that publishes immediately is queued at once and published; again is a no-op", async () => {
    const s = await scene();
    const draft = await addPost(s, {}, "draft");
    const res = await approve(s, draft.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      id: draft.id,
      state: "queued",
      next: "queued for publishing",
      approved_at: expect.any(String),
      approved_by: { type: "key", id: await writeKeyId(s), name: "write" },
      approved_content_hash: await contentHashOf(draft),
    });
    expect(res.body.approved_content_hash).toMatch(/^[0-9a-f]{64}$/);

    // The publish task went out with the approval: the post is published without another run.
    const published = await until(
      () => item(s, draft.id),
      (p) => p.state === "published",
      60_000,
      250,
    );
    expect(published).toMatchObject({ state: "published", forum_post_id: expect.any(String) });
    expect(await submissions(s.persona.account.username)).toHaveLength(1);
    // Published: 409 invalid_state.
    const late = await approve(s, draft.id);
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe("invalid_state");

    // An approved queued post approved again: the approval stays as it was.
    const queued = await addPost(s, {}, "queued");
    await callJson(`/admin/v1/workspaces/${s.ws.id}/personas/${s.persona.id}/revoke`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const first = await approve(s, queued.id);
    expect(first.body).toMatchObject({ state: "queued", next: expect.stringMatching(/^queued, but not published/) });
    expect(first.body.next).toContain("is not approved for the customer");
    const again = await approve(s, queued.id);
    expect(again.status).toBe(200);
    for (const field of ["approved_at", "approved_by", "approved_content_hash", "state"])
      expect(again.body[field], field).toEqual(first.body[field]);
  }, 120_000);

  it("a draft of a config that does not publish stays a draft and `next` names the gate; failed is 409", async () => {
    const s = await scene();
    expect((await save(s, { publish_immediately: false })).status).toBe(200);
    const draft = await addPost(s, {}, "draft");
    const res = await approve(s, draft.id);
    expect(res.status).toBe(200);
    expect(res.body.state).toBe("draft");
    expect(res.body.next).toBe(
      "stays a draft: not published while a gate is closed: the sync does not publish: turn on “Queue new drafts for publishing” in its settings",
    );
    expect(res.body.approved_by).toMatchObject({ type: "key", name: "write" });
    // The review page says who approved it and when.
    const path = `/app/syncs/${s.config.id}/items/${draft.id}`;
    const session = await signedIn(s.ws.readKey, path);
    const html = await (await getPage(path, session.cookie)).text();
    expect(html).toContain("Approved by API key “write”");
    expect(html).toContain(`<time datetime="${res.body.approved_at}">`);

    // The config publishes again: approving the approved draft again queues it, the approval unchanged.
    expect((await save(s, { publish_immediately: true, active: false })).status).toBe(200);
    const inactive = await approve(s, draft.id);
    expect(inactive.body).toMatchObject({ state: "draft", approved_at: res.body.approved_at });
    expect(inactive.body.next).toContain("the sync is not active");
    const failed = await addPost(s, {}, "failed");
    const refused = await approve(s, failed.id);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("invalid_state");
    expect((await getSyncedPost(workspaceDb(env, s.ws.id), failed.id))?.approvedAt).toBeNull();
  }, 60_000);

  it("an edit or a new rendering by a run clears the approval: who, what and when", async () => {
    const s = await scene();
    expect((await save(s, { publish_immediately: false })).status).toBe(200);
    const w = workspaceDb(env, s.ws.id);
    const draft = await addPost(s, {}, "draft");
    expect((await approve(s, draft.id)).body.approved_by).not.toBeNull();
    const edited = await callJson(`${SYNCS}/${s.config.id}/items/${draft.id}`, {
      key: s.ws.writeKey,
      method: "PATCH",
      body: { title: "A better title" },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body).toMatchObject({ approved_at: null, approved_by: null, approved_content_hash: null });
    // Approved again, the hash is of the new content.
    const reapproved = await approve(s, draft.id);
    const row = (await getSyncedPost(w, draft.id))!;
    expect(reapproved.body.approved_content_hash).toBe(await contentHashOf(row));
    expect(reapproved.body.approved_content_hash).not.toBe(await contentHashOf(draft));

    const other = await addPost(s, {}, "draft");
    await approve(s, other.id);
    const rerendered = await updateSyncedContent(
      w,
      other.id,
      {
        sourceUrl: other.sourceUrl,
        title: "The source changed",
        bodyMarkdown: "New text.",
        bodyRichtext: null,
        images: [],
        contentHash: "1".repeat(64),
      },
      "draft",
      "draft",
    );
    expect(rerendered).toMatchObject({ approvedAt: null, approvedBy: null, approvedContentHash: null });
  }, 60_000);
});
