// Who did it, as the audit trail names it (docs/security.md, "The audit trail"): a persona's connection by
// the key or the console person who started it, its approval, revocation and deletion; a post's approval by
// a key or a person (and the same approver in `approved_by`), its submission and its removal by the service;
// each event in the one shape; events that outlive what they name; the REST filters and paging.
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { createKey } from "../../src/auth/issue-key";
import type { PublishQueueMessage } from "../../src/contracts/queue-messages";
import { getSyncedPost } from "../../src/db/blog-sync-posts";
import { directoryDb, workspaceDb } from "../../src/db/client";
import { consumeVisibilityCheck } from "../../src/jobs/visibility-consumers";
import { publishQueuedPost } from "../../src/publishing/publish-post";
import { createWebhook } from "../helpers/alerts";
import { ADMIN_TOKEN, call, callJson, callJsonWith, createTestWorkspace, type TestWorkspace } from "../helpers/api";
import { newBlog } from "../helpers/blogs";
import { getPage, postForm } from "../helpers/console-client";
import { connectAccount, localForum, newAccount, PERSONAS } from "../helpers/forum";
import { addMember, PASSWORD, signInAs } from "../helpers/people";
import { addPost, item, type Scene, SYNCS, scene } from "../helpers/publishing";
import { until } from "../helpers/until";

interface AuditEvent {
  id: number;
  at: string;
  actor: { type: string; id: string | null; name: string };
  action: string;
  target: { type: string; id: string | null };
  details: Record<string, unknown>;
}

/** Every event of the workspace (newest first), each checked against the one shape of the trail. */
async function eventsOf(ws: TestWorkspace, query = ""): Promise<AuditEvent[]> {
  const res = await callJson(`/api/v1/actions/audit-events?limit=100${query}`, { key: ws.writeKey });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  for (const event of res.body.data as AuditEvent[]) {
    expect(Object.keys(event).sort()).toEqual(["action", "actor", "at", "details", "id", "target"]);
    expect(Object.keys(event.actor).sort()).toEqual(["id", "name", "type"]);
    expect(Object.keys(event.target).sort()).toEqual(["id", "type"]);
    expect(["person", "key", "admin", "system"]).toContain(event.actor.type);
    // A person or key is named by id; the admin API and the service have none.
    expect(event.actor.id === null, JSON.stringify(event)).toBe(["admin", "system"].includes(event.actor.type));
    expect(event.actor.name.length).toBeGreaterThan(0);
    expect(new Date(event.at).toISOString()).toBe(event.at);
    expect(typeof event.details).toBe("object");
  }
  return res.body.data;
}

const only = async (ws: TestWorkspace, action: string) => {
  const events = await eventsOf(ws, `&action=${action}`);
  expect(events, action).toHaveLength(1);
  return events[0]!;
};

const keyIdOf = async (ws: TestWorkspace, name = "write") =>
  String(
    (await env.DB.prepare("SELECT id FROM api_keys WHERE workspace_id = ? AND name = ?")
      .bind(ws.id, name)
      .first<{ id: number }>())!.id,
  );

const admin = (path: string) =>
  callJson(`/admin/v1${path}`, { method: "POST", headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });

/** A publish queue that keeps what is sent to it: the test runs each task itself. */
function keptQueue() {
  const sent: PublishQueueMessage[] = [];
  const queue = {
    send: async (body: PublishQueueMessage) => void sent.push(body),
  } as unknown as typeof env.PUBLISH_QUEUE;
  return { env: { ...env, PUBLISH_QUEUE: queue, VISIBILITY_CHECKS_S: "1,2" }, sent };
}

it("names who started a persona's connection, who approved, revoked and deleted it; the events outlive it", async () => {
  const ws = await createTestWorkspace("audit personas");
  const byKey = await newAccount({ group: String(ws.id) });
  expect((await connectAccount(ws, byKey.username)).status).toBe(200);
  const keyed = await only(ws, "persona.connected");
  expect(keyed).toMatchObject({
    actor: { type: "key", id: await keyIdOf(ws), name: "write" },
    target: { type: "persona", id: expect.any(String) },
    details: { username: byKey.username, created: true },
  });

  // A person of the console: the connect form sends them to the forum; the callback names them.
  const person = await addMember(ws.id, "member", "connector@audit.test", "Connie");
  const session = await signInAs("connector@audit.test", PASSWORD, "/app/personas");
  const started = await postForm("/app/personas/connect", session, {});
  expect(started.status).toBe(303);
  const byPerson = await newAccount({ group: String(ws.id) });
  const callback = new URL(await localForum.consent(started.headers.get("location")!, byPerson.username));
  expect((await call(`${callback.pathname}${callback.search}`)).status).toBe(200);
  const connected = await eventsOf(ws, "&action=persona.connected");
  expect(connected).toHaveLength(2);
  expect(connected[0]).toMatchObject({
    actor: { type: "person", id: String(person.id), name: "Connie" },
    details: { username: byPerson.username, created: true },
  });
  const personaId = Number(keyed.target.id);
  const otherId = Number(connected[0]!.target.id);

  expect((await admin(`/workspaces/${ws.id}/personas/${personaId}/approve`)).status).toBe(200);
  expect((await admin(`/workspaces/${ws.id}/personas/${personaId}/revoke`)).status).toBe(200);
  for (const action of ["persona.approved", "persona.revoked"])
    expect(await only(ws, action)).toMatchObject({
      actor: { type: "admin", id: null, name: "admin API" },
      target: { type: "persona", id: String(personaId) },
      details: { username: byKey.username },
    });

  // Deleted by the key through the API and by the person through the console: each names who.
  expect((await call(`${PERSONAS}/${personaId}`, { key: ws.writeKey, method: "DELETE" })).status).toBe(204);
  expect((await postForm(`/app/personas/${otherId}/delete`, session, {})).status).toBe(303);
  expect((await call(`${PERSONAS}/${personaId}`, { key: ws.readKey })).status).toBe(404);
  const deleted = await eventsOf(ws, "&action=persona.deleted");
  expect(deleted.map((e) => [e.actor.type, e.target.id, e.details.username])).toEqual([
    ["person", String(otherId), byPerson.username],
    ["key", String(personaId), byKey.username],
  ]);
  // Every event of both personas is still there after they are gone.
  const all = await eventsOf(ws);
  expect(all.filter((e) => e.target.type === "persona").map((e) => e.action)).toEqual([
    "persona.deleted",
    "persona.deleted",
    "persona.revoked",
    "persona.approved",
    "persona.connected",
    "persona.connected",
  ]);
}, 120_000);

/** Approves through the API with `key`, its publish task kept; the synced post as answered. */
async function approveByKey(s: Scene, postId: number, key: string) {
  const kept = keptQueue();
  const res = await callJsonWith(
    `${SYNCS}/${s.config.id}/items/${postId}/approve`,
    { PUBLISH_QUEUE: kept.env.PUBLISH_QUEUE },
    {
      key,
      method: "POST",
    },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

it("names the approver of a post, key or person, in approved_by and in the approval and submission events", async () => {
  const s = await scene();
  const w = workspaceDb(env, s.ws.id);
  const byKey = await addPost(s, { title: "Approved by a key" }, "draft");
  const approved = await approveByKey(s, byKey.id, s.ws.writeKey);
  const key = { type: "key", id: Number(await keyIdOf(s.ws)), name: "write" };
  expect(approved.approved_by).toEqual(key);
  expect(await only(s.ws, "synced_post.approved")).toMatchObject({
    actor: { ...key, id: String(key.id) },
    target: { type: "synced_post", id: String(byKey.id) },
    details: { sync_config_id: s.config.id, title: "Approved by a key", content_hash: approved.approved_content_hash },
  });
  // Approving again changes nothing and records nothing.
  await approveByKey(s, byKey.id, s.ws.writeKey);
  expect(await eventsOf(s.ws, "&action=synced_post.approved")).toHaveLength(1);

  // The publish task: the service submits it and says whose approval it carried out, as which persona.
  const kept = keptQueue();
  const outcome = await publishQueuedPost(kept.env, w, byKey.id, s.config.fingerprint);
  expect(outcome.kind).toBe("done");
  const row = (await getSyncedPost(w, byKey.id))!;
  expect(row.state).toBe("published");
  expect(await only(s.ws, "synced_post.submitted")).toMatchObject({
    actor: { type: "system", id: null, name: "threadwatch" },
    target: { type: "synced_post", id: String(byKey.id) },
    details: {
      sync_config_id: s.config.id,
      subreddit: s.sr,
      approved_by: key,
      persona: { id: s.persona.id, username: s.persona.account.username },
      forum_post_id: row.forumPostId,
      permalink: row.permalink,
    },
  });
  // A second delivery of the task finds it published: no second event.
  await publishQueuedPost(kept.env, w, byKey.id, s.config.fingerprint);
  expect(await eventsOf(s.ws, "&action=synced_post.submitted")).toHaveLength(1);

  // A key a person made approves as the key, not as its maker.
  const maker = await addMember(s.ws.id, "member", "maker@audit.test", "Maker");
  const made = await createKey(directoryDb(env), s.ws.id, {
    name: "maker's key",
    scope: "read_write",
    role: "member",
    personId: maker.id,
  });
  const byMadeKey = await addPost(s, { title: "Approved by a person's key" }, "draft");
  const madeApproval = await approveByKey(s, byMadeKey.id, made.key);
  expect(madeApproval.approved_by).toEqual({ type: "key", id: made.record.id, name: "maker's key" });
  expect((await eventsOf(s.ws, "&action=synced_post.approved"))[0]).toMatchObject({
    actor: { type: "key", id: String(made.record.id), name: "maker's key" },
  });

  // A person approves on the review page; the real publish queue then submits it.
  const reviewer = await addMember(s.ws.id, "member", "reviewer@audit.test", "Rita Reviewer");
  const byPerson = await addPost(s, { title: "Approved by a person" }, "draft");
  const path = `/app/syncs/${s.config.id}/items/${byPerson.id}`;
  const session = await signInAs("reviewer@audit.test", PASSWORD, path);
  expect((await postForm(`${path}/approve`, session, {})).status).toBe(303);
  const person = { type: "person", id: reviewer.id, name: "Rita Reviewer" };
  expect((await item(s, byPerson.id)).approved_by).toEqual(person);
  expect((await eventsOf(s.ws, "&action=synced_post.approved"))[0]).toMatchObject({
    actor: { ...person, id: String(reviewer.id) },
    target: { type: "synced_post", id: String(byPerson.id) },
  });
  expect(await (await getPage(path, session.cookie)).text()).toContain("person “Rita Reviewer”");
  const submitted = await until(
    () => eventsOf(s.ws, "&action=synced_post.submitted"),
    (events) => events.length === 2,
    60_000,
    250,
  );
  expect(submitted[0]).toMatchObject({
    actor: { type: "system" },
    target: { type: "synced_post", id: String(byPerson.id) },
    details: { approved_by: person },
  });
}, 180_000);

it("records a post the visibility check finds gone once, by the service, with the reason", async () => {
  const s = await scene();
  const w = workspaceDb(env, s.ws.id);
  const kept = keptQueue();
  const post = await addPost(s, { approvedAt: new Date().toISOString(), title: "Soon removed" });
  expect((await publishQueuedPost(kept.env, w, post.id, s.config.fingerprint)).kind).toBe("done");
  const row = (await getSyncedPost(w, post.id))!;
  const check = (n: number) =>
    consumeVisibilityCheck(
      {
        type: "publish.visibility",
        workspace_id: s.ws.id,
        synced_post_id: post.id,
        check: n,
        due_at: row.publishedAt!,
      },
      kept.env,
    );

  expect(await check(0)).toMatchObject({ note: expect.stringMatching(/^visibility live/) });
  expect(await eventsOf(s.ws, "&action=synced_post.removed")).toEqual([]);
  await localForum.remove(`t3_${row.forumPostId}`, "moderator");
  expect(await check(1)).toMatchObject({ note: expect.stringMatching(/^visibility removed/) });
  const reason = (await getSyncedPost(w, post.id))!.visibilityReason;
  expect(await only(s.ws, "synced_post.removed")).toMatchObject({
    actor: { type: "system", id: null, name: "threadwatch" },
    target: { type: "synced_post", id: String(post.id) },
    details: { visibility: "removed", reason, check: 1 },
  });
  // The same check again, and a later one that finds it still gone: no second event.
  expect(await check(1)).toMatchObject({ note: expect.stringContaining("already done") });
  expect(await check(2)).toMatchObject({ note: expect.stringMatching(/^visibility removed/) });
  expect(await eventsOf(s.ws, "&action=synced_post.removed")).toHaveLength(1);
}, 120_000);

it("keeps the events of a webhook, a sync config and a member after they are deleted", async () => {
  const ws = await createTestWorkspace("audit outlives");
  const hook = await createWebhook(ws.writeKey, { url: "https://hooks.example/audit", events: ["post.created"] });
  const config = await callJson(SYNCS, {
    key: ws.writeKey,
    method: "POST",
    body: { blog_url: newBlog().feedUrl, subreddit: "r/audit" },
  });
  expect(config.status).toBe(201);
  const member = await addMember(ws.id, "viewer", "leaving@audit.test");
  const writeKey = await keyIdOf(ws);

  expect((await call(`/api/v1/actions/webhooks/${hook.id}`, { key: ws.writeKey, method: "DELETE" })).status).toBe(204);
  expect((await call(`${SYNCS}/${config.body.id}`, { key: ws.writeKey, method: "DELETE" })).status).toBe(204);
  expect((await call(`/api/v1/actions/members/${member.id}`, { key: ws.writeKey, method: "DELETE" })).status).toBe(204);

  expect((await call(`${SYNCS}/${config.body.id}`, { key: ws.readKey })).status).toBe(404);
  const events = (await eventsOf(ws)).map((e) => [e.action, e.target.type, e.target.id, e.actor.type, e.actor.id]);
  expect(events).toEqual([
    ["member.removed", "person", String(member.id), "key", writeKey],
    ["sync_config.deleted", "sync_config", String(config.body.id), "key", writeKey],
    ["webhook.deleted", "webhook", String(hook.id), "key", writeKey],
    ["sync_config.created", "sync_config", String(config.body.id), "key", writeKey],
    ["webhook.created", "webhook", String(hook.id), "key", writeKey],
  ]);
});

it("filters by action, actor type, actor id and time, and pages newest first", async () => {
  const ws = await createTestWorkspace("audit filters");
  const other = await createKey(directoryDb(env), ws.id, { name: "second", scope: "read_write", role: "owner" });
  const invite = (key: string, email: string) =>
    callJson("/api/v1/actions/members/invitations", { key, method: "POST", body: { email, role: "viewer" } });
  for (const email of ["one@audit.test", "two@audit.test"]) expect((await invite(ws.writeKey, email)).status).toBe(201);
  const between = new Date().toISOString();
  expect((await invite(other.key, "three@audit.test")).status).toBe(201);

  const emails = (events: AuditEvent[]) => events.map((e) => e.details.email);
  const invited = "&action=member.invited";
  expect(emails(await eventsOf(ws, invited))).toEqual(["three@audit.test", "two@audit.test", "one@audit.test"]);
  expect(emails(await eventsOf(ws, `${invited}&actor_id=${other.record.id}`))).toEqual(["three@audit.test"]);
  expect(emails(await eventsOf(ws, `${invited}&actor_id=${await keyIdOf(ws)}`))).toEqual([
    "two@audit.test",
    "one@audit.test",
  ]);
  expect(emails(await eventsOf(ws, `${invited}&since=${between}`))).toEqual(["three@audit.test"]);
  expect((await eventsOf(ws, "&actor_type=person")).length).toBe(0);
  expect((await eventsOf(ws, "&actor_type=key")).every((e) => e.actor.type === "key")).toBe(true);

  // Paging as /posts: limit, offset, count and next_offset (null on the last page).
  const first = await callJson(`/api/v1/actions/audit-events?action=member.invited&limit=2`, { key: ws.writeKey });
  expect(first.body).toMatchObject({ count: 3, next_offset: 2 });
  const second = await callJson(`/api/v1/actions/audit-events?action=member.invited&limit=2&offset=2`, {
    key: ws.writeKey,
  });
  expect(second.body).toMatchObject({ count: 3, next_offset: null });
  expect(emails([...first.body.data, ...second.body.data])).toEqual([
    "three@audit.test",
    "two@audit.test",
    "one@audit.test",
  ]);

  // Bad filters are 400 validation_failed; a read key is 403 whatever its ceiling.
  for (const query of [
    "limit=0",
    "limit=101",
    "offset=-1",
    "since=yesterday",
    "action=member.fired",
    "actor_id=",
    "sort=at",
  ]) {
    const res = await callJson(`/api/v1/actions/audit-events?${query}`, { key: ws.writeKey });
    expect(res.status, query).toBe(400);
    expect(res.body.error.code, query).toBe("validation_failed");
  }
  const ownerReadKey = await createKey(directoryDb(env), ws.id, { name: "owner read", scope: "read", role: "owner" });
  const refused = await callJson("/api/v1/actions/audit-events", { key: ownerReadKey.key });
  expect(refused.status).toBe(403);
  expect(refused.body.error.code).toBe("forbidden");
});
