// The webhooks API (docs/alerts.md): creating (secret shown once, sealed at rest, the URL rules of docs/security.md),
// listing, deleting, the test delivery (signed, verifiable with the documented recipe) and the deliveries listing.
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { deliverTestEvent } from "../../src/alerts/deliver";
import { retryDelaySeconds } from "../../src/alerts/events";
import { signatureHeader, verifySignature } from "../../src/alerts/signing";
import { createApp } from "../../src/app";
import { workspaceDb } from "../../src/db/client";
import { deleteWebhook, disableWebhook, getWebhookRow, listAttempts, listWebhookRows } from "../../src/db/webhooks";
import { isDomainError } from "../../src/lib/domain-errors";
import { createWebhook, deliveriesOf, eventually, newReceiver, verifyAsDocumented } from "../helpers/alerts";
import { callJson, createTestWorkspace, type TestWorkspace } from "../helpers/api";

const HOOKS = "/api/v1/actions/webhooks";
let ws: TestWorkspace;
let other: TestWorkspace;
beforeAll(async () => {
  ws = await createTestWorkspace("webhooks");
  other = await createTestWorkspace("webhooks other");
});

/** The app as production runs it: ALLOW_PRIVATE_FETCH off. */
async function callProduction(path: string, key: string, body: unknown) {
  const { app } = createApp();
  const res = await app.fetch(
    new Request(`http://threadwatch.test${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    { ...env, ALLOW_PRIVATE_FETCH: "false" },
    createExecutionContext(),
  );
  return { status: res.status, body: (await res.json()) as any };
}

describe("creating a webhook", () => {
  it("answers 201 with the webhook and its secret, shown only then; defaults json and high", async () => {
    const receiver = newReceiver("create");
    const res = await callJson(HOOKS, { key: ws.writeKey, method: "POST", body: { url: receiver.url } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      url: receiver.url,
      format: "json",
      min_priority: "high",
      active: true,
      disabled_reason: null,
      events: ["post.created", "comment.created", "synced_post.removed"],
    });
    expect(Object.keys(res.body).sort()).toEqual(
      ["active", "created_at", "disabled_reason", "events", "format", "id", "min_priority", "secret", "url"].sort(),
    );
    expect(res.body.secret).toMatch(/^whsec_[0-9a-f]{64}$/);

    const list = await callJson(HOOKS, { key: ws.readKey });
    expect(list.status).toBe(200);
    const listed = list.body.data.find((h: any) => h.id === res.body.id);
    expect(listed).toEqual(withoutSecret(res.body));
    expect(JSON.stringify(list.body)).not.toContain(res.body.secret);

    // At rest the secret is sealed under SESSION_KEY: the row does not contain it.
    const rows = await listWebhookRows(workspaceDb(env, ws.id));
    const row = rows.find((r) => r.id === res.body.id)!;
    expect(row.secretSealed).toMatch(/^v1\./);
    expect(row.secretSealed).not.toContain(res.body.secret.slice(6));
  });

  it("takes slack and other priorities, and refuses unknown fields and values", async () => {
    const receiver = newReceiver("slack");
    const ok = await callJson(HOOKS, {
      key: ws.writeKey,
      method: "POST",
      body: { url: receiver.url, format: "slack", min_priority: "low" },
    });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ format: "slack", min_priority: "low" });
    for (const body of [
      { url: receiver.url, format: "xml" },
      { url: receiver.url, min_priority: "urgent" },
      { url: receiver.url, secret: "mine" },
      { url: "not a url" },
      { url: "ftp://example.com/hook" },
      {},
    ]) {
      const res = await callJson(HOOKS, { key: ws.writeKey, method: "POST", body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe("validation_failed");
    }
  });

  it("refuses private, loopback, link-local, metadata and local addresses, and plain http, in production", async () => {
    for (const url of [
      "https://127.0.0.1/hook",
      "https://10.0.0.8/hook",
      "https://192.168.1.20/hook",
      "https://172.16.0.1/hook",
      "https://169.254.169.254/latest/meta-data/",
      "https://[::1]/hook",
      "https://[fd00::1]/hook",
      "https://localhost/hook",
      "https://printer.local/hook",
      "https://user:pass@203.0.114.1/hook",
      "http://198.18.0.1/hook",
    ]) {
      const res = await callProduction(HOOKS, ws.writeKey, { url });
      expect(res.status, url).toBe(400);
      expect(res.body.error.code, url).toBe("validation_failed");
      expect(res.body.error.details[0].path, url).toBe("body.url");
    }
    const http = await callProduction(HOOKS, ws.writeKey, { url: "http://8.8.8.8/hook" });
    expect(http.status).toBe(400);
    expect(http.body.error.details[0].message).toMatch(/https/);
    // Nothing was written by the refusals.
    const list = await callJson(HOOKS, { key: ws.readKey });
    expect(list.body.data.some((h: any) => !String(h.url).startsWith(env.FIXTURE_ORIGIN))).toBe(false);
  });

  it("a read key may list but not create, test or delete (403)", async () => {
    const receiver = newReceiver("read-key");
    const hook = await createWebhook(ws.writeKey, { url: receiver.url });
    for (const [method, path] of [
      ["POST", HOOKS],
      ["POST", `${HOOKS}/${hook.id}/test`],
      ["DELETE", `${HOOKS}/${hook.id}`],
    ] as const) {
      const res = await callJson(path, {
        key: ws.readKey,
        method,
        body: method === "POST" && path === HOOKS ? { url: receiver.url } : undefined,
      });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error.code).toBe("forbidden");
    }
    expect((await callJson(`${HOOKS}/${hook.id}/deliveries`, { key: ws.readKey })).status).toBe(200);
    expect(await receiver.deliveries()).toEqual([]);
  });
});

function withoutSecret(body: Record<string, unknown>) {
  const { secret: _, ...rest } = body;
  return rest;
}

describe("the test delivery and signing", () => {
  it("sends one signed webhook.test that verifies with the documented recipe, and fails with a wrong secret or an old timestamp", async () => {
    const receiver = newReceiver("test-delivery");
    const hook = await createWebhook(ws.writeKey, { url: receiver.url });
    const res = await callJson(`${HOOKS}/${hook.id}/test`, { key: ws.writeKey, method: "POST" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      type: "webhook.test",
      status: "delivered",
      attempts: 1,
      last_status_code: 200,
      last_error: null,
    });
    expect(res.body.event_id).toMatch(/^evt_[0-9a-f]{24}$/);
    expect(res.body.delivered_at).not.toBeNull();

    const [got] = await receiver.deliveries();
    expect(got!.method).toBe("POST");
    expect(got!.headers["content-type"]).toBe("application/json");
    const event = JSON.parse(got!.body);
    expect(event).toMatchObject({ id: res.body.event_id, type: "webhook.test", data: { webhook_id: hook.id } });
    const header = got!.headers["threadwatch-signature"]!;
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const t = Number(/t=(\d+)/.exec(header)![1]);
    expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(60);

    // The documented recipe (docs/alerts.md), run over the exact bytes received.
    expect(verifyAsDocumented(got!.body, header, hook.secret)).toBe(true);
    const wrong = `${hook.secret.slice(0, -1)}${hook.secret.endsWith("0") ? "1" : "0"}`;
    expect(verifyAsDocumented(got!.body, header, wrong)).toBe(false);
    expect(verifyAsDocumented(`${got!.body} `, header, hook.secret)).toBe(false);
    // Six minutes later the same header is too old.
    expect(verifyAsDocumented(got!.body, header, hook.secret, t * 1000 + 6 * 60_000)).toBe(false);
    // The service's own verifier agrees.
    expect((await verifySignature(hook.secret, got!.body, header)).ok).toBe(true);
    expect(await verifySignature("whsec_wrong", got!.body, header)).toMatchObject({ ok: false });
    expect(await verifySignature(hook.secret, got!.body, header, t + 301)).toMatchObject({ ok: false });
    // An old signature re-signed with a fresh timestamp by someone without the secret does not pass.
    const forged = header.replace(/^t=\d+/, `t=${t + 1}`);
    expect(verifyAsDocumented(got!.body, forged, hook.secret, t * 1000)).toBe(false);

    // The delivery and its one attempt are logged.
    const listed = await deliveriesOf(ws.readKey, hook.id);
    expect(listed.count).toBe(1);
    expect(listed.data[0]).toEqual(res.body);
    const attempts = await listAttempts(workspaceDb(env, ws.id), res.body.id);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ attempt: 1, outcome: "delivered", statusCode: 200, error: null });
    expect(attempts[0]!.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("signs afresh: the same body at another second has another signature", async () => {
    const a = await signatureHeader("whsec_x", "{}", 1_700_000_000);
    const b = await signatureHeader("whsec_x", "{}", 1_700_000_001);
    expect(a).not.toBe(b);
    expect(verifyAsDocumented("{}", a, "whsec_x", 1_700_000_000_000)).toBe(true);
  });

  it("a failing test delivery is logged once, not retried, with the answer's first KB escaped", async () => {
    const receiver = newReceiver("test-fail");
    const hook = await createWebhook(ws.writeKey, { url: receiver.url });
    await receiver.configure({ status: 503, errorBody: `<script>alert(1)</script>${"x".repeat(3000)}` });
    const res = await callJson(`${HOOKS}/${hook.id}/test`, { key: ws.writeKey, method: "POST" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "failed", attempts: 1, last_status_code: 503, delivered_at: null });
    expect(res.body.last_error.startsWith("&lt;script&gt;alert(1)&lt;/script&gt;xxx")).toBe(true);
    expect(res.body.last_error).not.toContain("<script>");
    // 1 KB of the answer (escaping makes the 25-character tag a little longer), never the whole 3 KB.
    expect(res.body.last_error.length).toBeLessThan(1100);
    expect(res.body.last_error.endsWith("…")).toBe(true);
    expect(await receiver.deliveries()).toHaveLength(1);
  });

  it("the test action takes no fields: an unknown field or a body that is not JSON is refused and sends nothing", async () => {
    const receiver = newReceiver("test-body");
    const hook = await createWebhook(ws.writeKey, { url: receiver.url });
    const path = `${HOOKS}/${hook.id}/test`;
    const unknown = await callJson(path, { key: ws.writeKey, method: "POST", body: { format: "slack" } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({
      code: "validation_failed",
      details: [{ path: "body.format", message: "unknown field" }],
    });
    const notJson = await callJson(path, {
      key: ws.writeKey,
      method: "POST",
      rawBody: "{format: slack",
      headers: { "content-type": "application/json" },
    });
    expect(notJson.status).toBe(400);
    expect(notJson.body.error.code).toBe("invalid_json");
    expect(await receiver.deliveries()).toEqual([]);
    expect((await deliveriesOf(ws.readKey, hook.id)).count).toBe(0);
    // An empty object is no field at all: the delivery is sent.
    const empty = await callJson(path, { key: ws.writeKey, method: "POST", body: {} });
    expect(empty.status).toBe(200);
    expect(await receiver.deliveries()).toHaveLength(1);
  });

  it("a webhook deleted while its test delivery waits for the receiver: the test answers 404, not a 500", async () => {
    const receiver = newReceiver("test-deleted");
    const hook = await createWebhook(ws.writeKey, { url: receiver.url });
    await receiver.configure({ hold: true });
    const testing = callJson(`${HOOKS}/${hook.id}/test`, { key: ws.writeKey, method: "POST" });
    await eventually(async () => expect(await receiver.deliveries()).toHaveLength(1));
    expect((await callJson(`${HOOKS}/${hook.id}`, { key: ws.writeKey, method: "DELETE" })).status).toBe(204);
    await receiver.release();
    const res = await testing;
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("not_found");
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM webhook_deliveries WHERE webhook_id = ?")
      .bind(hook.id)
      .first<{ n: number }>();
    expect(rows!.n).toBe(0);
  });

  it("a webhook disabled or deleted between the test action's read and its write: 409 or 404, nothing sent", async () => {
    const w = workspaceDb(env, ws.id);
    for (const [change, code] of [
      [(id: number) => disableWebhook(w, id, "the receiver answered 410 Gone"), "invalid_state"],
      [(id: number) => deleteWebhook(w, id), "not_found"],
    ] as const) {
      const receiver = newReceiver(`test-${code}`);
      const hook = await createWebhook(ws.writeKey, { url: receiver.url });
      // The row as the action read it, then the change a 410 to another delivery (or a DELETE) makes.
      const read = (await getWebhookRow(w, hook.id))!;
      await change(hook.id);
      await expect(deliverTestEvent(env, w, read)).rejects.toSatisfy((e) => isDomainError(e, code));
      expect(await receiver.deliveries()).toEqual([]);
    }
  });

  it("another workspace's webhook is 404 for every operation", async () => {
    const receiver = newReceiver("isolation");
    const hook = await createWebhook(ws.writeKey, { url: receiver.url });
    for (const [method, path] of [
      ["POST", `${HOOKS}/${hook.id}/test`],
      ["GET", `${HOOKS}/${hook.id}/deliveries`],
      ["DELETE", `${HOOKS}/${hook.id}`],
    ] as const) {
      const res = await callJson(path, { key: other.writeKey, method });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error.code).toBe("not_found");
    }
    expect((await callJson(HOOKS, { key: other.readKey })).body.data.map((h: any) => h.id)).not.toContain(hook.id);
    expect(await receiver.deliveries()).toEqual([]);
  });
});

describe("deleting and paging", () => {
  it("deletes a webhook (204, then 404) with its deliveries", async () => {
    const receiver = newReceiver("delete");
    const hook = await createWebhook(ws.writeKey, { url: receiver.url });
    for (let i = 0; i < 3; i++) await callJson(`${HOOKS}/${hook.id}/test`, { key: ws.writeKey, method: "POST" });
    const page = await deliveriesOf(ws.readKey, hook.id, "?limit=2");
    expect(page.count).toBe(3);
    expect(page.data).toHaveLength(2);
    expect(page.next_offset).toBe(2);
    expect(page.data[0]!.id).toBeGreaterThan(page.data[1]!.id);
    const last = await deliveriesOf(ws.readKey, hook.id, "?limit=2&offset=2");
    expect(last.data).toHaveLength(1);
    expect(last.next_offset).toBeNull();
    expect((await callJson(`${HOOKS}/${hook.id}/deliveries?limit=0`, { key: ws.readKey })).status).toBe(400);
    expect((await callJson(`${HOOKS}/${hook.id}/deliveries?status=x`, { key: ws.readKey })).status).toBe(400);

    const deleted = await callJson(`${HOOKS}/${hook.id}`, { key: ws.writeKey, method: "DELETE" });
    expect(deleted.status).toBe(204);
    expect((await callJson(`${HOOKS}/${hook.id}`, { key: ws.writeKey, method: "DELETE" })).status).toBe(404);
    expect((await callJson(`${HOOKS}/${hook.id}/deliveries`, { key: ws.readKey })).status).toBe(404);
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM webhook_deliveries WHERE webhook_id = ?")
      .bind(hook.id)
      .first<{ n: number }>();
    expect(rows!.n).toBe(0);
  });
});

describe("the retry schedule", () => {
  it("grows from about 30 s, doubling, capped at 4 h, about 24 h over the queue's 14 retries", () => {
    const mid = () => 0.5; // no jitter
    const delays = Array.from({ length: 14 }, (_, i) => retryDelaySeconds(i + 1, undefined, mid));
    expect(delays.slice(0, 5)).toEqual([30, 60, 120, 240, 480]);
    expect(Math.max(...delays)).toBe(4 * 3600);
    for (let i = 1; i < delays.length; i++) expect(delays[i]!).toBeGreaterThanOrEqual(delays[i - 1]!);
    const total = delays.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(23 * 3600);
    expect(total).toBeLessThan(25 * 3600);
    // Jitter stays within ±10 %.
    expect(retryDelaySeconds(1, undefined, () => 0)).toBe(27);
    expect(retryDelaySeconds(1, undefined, () => 0.999_999)).toBe(33);
  });
});
