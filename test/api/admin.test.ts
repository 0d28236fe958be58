// Auth (docs/api.md, "Authentication and scopes"): the admin API that manages workspaces and keys, the key
// format and storage, temporary and revoked keys, last_used_at, and the hourly cron that deletes expired
// temporary keys.
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src";
import { forgetAllKeys } from "../../src/auth/key-cache";
import { generateApiKey } from "../../src/auth/keys";
import { ADMIN_TOKEN, callJson } from "../helpers/api";

const admin = (path: string, options: { method?: string; body?: unknown; token?: string | null } = {}) =>
  callJson(`/admin/v1${path}`, {
    key: options.token === undefined ? ADMIN_TOKEN : options.token,
    method: options.method,
    body: options.body,
  });

const sha256Hex = async (value: string) =>
  [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value)))]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("");

const keyRow = (id: number) =>
  env.DB.prepare("SELECT * FROM api_keys WHERE id = ?").bind(id).first<Record<string, unknown>>();

async function newWorkspace(name = "admin test") {
  const res = await admin("/workspaces", { method: "POST", body: { name } });
  expect(res.status).toBe(201);
  return res.body as { id: number; name: string; created_at: string };
}

async function newKey(workspaceId: number, body: Record<string, unknown>) {
  const res = await admin(`/workspaces/${workspaceId}/keys`, { method: "POST", body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as {
    id: number;
    key: string;
    prefix: string;
    scope: string;
    expires_at: string | null;
    revoked_at: string | null;
    last_used_at: string | null;
  };
}

const lastUsedAt = async (id: number) => (await keyRow(id))?.last_used_at as string | null;

/**
 * Calls the Worker's fetch handler with an execution context of the test's own and waits for the work it
 * left running after the response (`last_used_at` is written off the hot path, through waitUntil).
 */
async function callSettled(path: string, key: string): Promise<number> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(`http://threadwatch.test${path}`, { headers: { authorization: `Bearer ${key}` } }),
    env,
    ctx,
  );
  await res.arrayBuffer();
  await waitOnExecutionContext(ctx);
  return res.status;
}

describe("admin bearer token", () => {
  const routes: [string, string, unknown?][] = [
    ["POST", "/workspaces", { name: "x" }],
    ["GET", "/workspaces"],
    ["POST", "/workspaces/1/keys", { name: "x", scope: "read" }],
    ["GET", "/workspaces/1/keys"],
    ["DELETE", "/workspaces/1/keys/1"],
  ];
  const wrongTokens: [string, string | null][] = [
    ["missing", null],
    ["wrong", "not-the-admin-token"],
    ["a prefix of the real one", ADMIN_TOKEN.slice(0, -1)],
    ["the real one plus a character", `${ADMIN_TOKEN}x`],
    ["the real one in upper case", ADMIN_TOKEN.toUpperCase()],
    ["an API key", `tw_live_${"a".repeat(40)}`],
  ];
  it.each(routes)("%s %s is 401 without the admin token", async (method, path, body) => {
    const before = await env.DB.prepare(
      "SELECT (SELECT count(*) FROM workspaces) + (SELECT count(*) FROM api_keys) AS n",
    ).first<{ n: number }>();
    for (const [what, token] of wrongTokens) {
      const res = await admin(path, { method, body, token });
      expect(res.status, what).toBe(401);
      expect(res.body.error.code).toBe("unauthorized");
      expect(res.res.headers.get("www-authenticate")).toBe("Bearer");
      expect(res.body.error.request_id).toBe(res.res.headers.get("x-request-id"));
    }
    const after = await env.DB.prepare(
      "SELECT (SELECT count(*) FROM workspaces) + (SELECT count(*) FROM api_keys) AS n",
    ).first<{ n: number }>();
    expect(after).toEqual(before);
  });

  it.each(routes)("%s %s refuses unknown query parameters", async (method, path, body) => {
    const res = await admin(`${path}?dry=1`, { method, body });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toContainEqual({ path: "query.dry", message: "unknown field" });
  });

  it("an API key does not open the admin API, and the admin token does not open /api/v1", async () => {
    const ws = await newWorkspace();
    const { key } = await newKey(ws.id, { name: "rw", scope: "read_write" });
    expect((await admin("/workspaces", { token: key })).status).toBe(401);
    expect((await callJson("/api/v1/keywords", { key: ADMIN_TOKEN })).status).toBe(401);
  });
});

describe("workspaces and keys", () => {
  it("creates and lists workspaces", async () => {
    const ws = await newWorkspace("Acme Inc");
    expect(ws).toEqual({
      id: expect.any(Number),
      name: "Acme Inc",
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
    });
    const list = await admin("/workspaces");
    expect(list.status).toBe(200);
    expect(list.body.data).toContainEqual(ws);
    expect(list.body.count).toBe(list.body.data.length);
  });

  it("validates workspace and key bodies", async () => {
    for (const body of [{}, { name: "" }, { name: "x", plan: "pro" }]) {
      const res = await admin("/workspaces", { method: "POST", body });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("validation_failed");
    }
    const ws = await newWorkspace();
    for (const body of [
      { name: "k" },
      { name: "k", scope: "admin" },
      { name: "k", scope: "read", expires_in_seconds: 59 },
      { name: "k", scope: "read", expires_in_seconds: 90 * 24 * 3600 + 1 },
      { name: "k", scope: "read", expires_in_seconds: 1.5 },
      { name: "k", scope: "read", secret: "mine" },
    ]) {
      const res = await admin(`/workspaces/${ws.id}/keys`, { method: "POST", body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe("validation_failed");
    }
    expect((await admin(`/workspaces/${ws.id}/keys`)).body.count).toBe(0);
  });

  it("refuses ids not written in plain decimal digits (1e0 is not workspace 1)", async () => {
    const ws = await newWorkspace();
    const key = await newKey(ws.id, { name: "kept", scope: "read" });
    for (const [path, method, name] of [
      [`/workspaces/${ws.id}e0/keys`, "GET", "workspace_id"],
      [`/workspaces/0x${ws.id.toString(16)}/keys`, "GET", "workspace_id"],
      [`/workspaces/${ws.id}/keys/${key.id}.0`, "DELETE", "key_id"],
      [`/workspaces/${ws.id}/keys/0${key.id}`, "DELETE", "key_id"],
    ] as const) {
      const res = await admin(path, { method });
      expect([path, res.status, res.body.error?.code, res.body.error?.details?.[0]?.path]).toEqual([
        path,
        400,
        "validation_failed",
        `path.${name}`,
      ]);
    }
    expect((await admin(`/workspaces/${ws.id}/keys`)).body.data).toEqual([
      expect.objectContaining({ id: key.id, revoked_at: null }),
    ]);
  });

  it("is 404 for a workspace that does not exist", async () => {
    expect(
      (await admin("/workspaces/999999/keys", { method: "POST", body: { name: "k", scope: "read" } })).status,
    ).toBe(404);
    expect((await admin("/workspaces/999999/keys")).status).toBe(404);
  });

  it("creates a key shown once, stores only its SHA-256 digest, and lists it without secrets", async () => {
    const ws = await newWorkspace();
    const created = await newKey(ws.id, { name: "ci", scope: "read" });
    expect(created.key).toMatch(/^tw_live_[0-9A-Za-z]{32,}$/);
    expect(created).toMatchObject({
      name: "ci",
      scope: "read",
      workspace_id: ws.id,
      prefix: created.key.slice(0, 12),
      expires_at: null,
      revoked_at: null,
      last_used_at: null,
    });

    const row = (await keyRow(created.id))!;
    expect(row.key_hash).toBe(await sha256Hex(created.key));
    const body = created.key.slice("tw_live_".length);
    for (const [column, value] of Object.entries(row)) {
      expect(String(value), column).not.toContain(body.slice(4));
    }

    const list = await admin(`/workspaces/${ws.id}/keys`);
    expect(list.body.count).toBe(1);
    const listed = list.body.data[0];
    expect(listed).toEqual({ ...created, key: undefined, last_used_at: null, created_at: expect.any(String) });
    expect(Object.keys(listed)).not.toContain("key");
    expect(Object.keys(listed)).not.toContain("key_hash");
    expect(JSON.stringify(list.body)).not.toContain(body);
  });

  it("a created key works on /api/v1 with its scope", async () => {
    const ws = await newWorkspace();
    const read = await newKey(ws.id, { name: "r", scope: "read" });
    const write = await newKey(ws.id, { name: "w", scope: "read_write" });
    expect((await callJson("/api/v1/keywords", { key: read.key })).status).toBe(200);
    expect((await callJson("/api/v1/keywords", { key: read.key, method: "POST", body: { keyword: "a" } })).status).toBe(
      403,
    );
    expect(
      (await callJson("/api/v1/keywords", { key: write.key, method: "POST", body: { keyword: "a" } })).status,
    ).toBe(201);
    // The bearer scheme name is case-insensitive (RFC 7235).
    expect((await callJson("/api/v1/keywords", { headers: { authorization: `bearer ${read.key}` } })).status).toBe(200);
  });

  it("temporary keys carry their expiry and stop working once it passes", async () => {
    const ws = await newWorkspace();
    const before = Date.now();
    const temp = await newKey(ws.id, { name: "verify", scope: "read_write", expires_in_seconds: 3600 });
    const expires = Date.parse(temp.expires_at!);
    expect(expires).toBeGreaterThanOrEqual(before + 3600_000 - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 3600_000 + 1000);
    expect((await callJson("/api/v1/keywords", { key: temp.key })).status).toBe(200);
    await env.DB.prepare("UPDATE api_keys SET expires_at = ? WHERE id = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), temp.id)
      .run();
    // Changed behind the service's back: seen once this isolate's key cache lets go (a few seconds).
    forgetAllKeys();
    const refused = await callJson("/api/v1/keywords", { key: temp.key });
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe("unauthorized");
  });

  it("revokes a key: 401 from then on, revoking again changes nothing, unknown or foreign keys are 404", async () => {
    const ws = await newWorkspace();
    const other = await newWorkspace("other");
    const key = await newKey(ws.id, { name: "old", scope: "read" });
    const revoked = await admin(`/workspaces/${ws.id}/keys/${key.id}`, { method: "DELETE" });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).toMatch(/Z$/);
    expect((await callJson("/api/v1/keywords", { key: key.key })).status).toBe(401);
    const again = await admin(`/workspaces/${ws.id}/keys/${key.id}`, { method: "DELETE" });
    expect(again.body.revoked_at).toBe(revoked.body.revoked_at);
    expect((await admin(`/workspaces/${ws.id}/keys/999999`, { method: "DELETE" })).status).toBe(404);
    const foreign = await newKey(other.id, { name: "theirs", scope: "read" });
    expect((await admin(`/workspaces/${ws.id}/keys/${foreign.id}`, { method: "DELETE" })).status).toBe(404);
    expect((await callJson("/api/v1/keywords", { key: foreign.key })).status).toBe(200);
  });
});

describe("key format", () => {
  it("is tw_live_ and 40 base62 characters, all of them used, no two keys alike", () => {
    const keys = Array.from({ length: 500 }, generateApiKey);
    for (const key of keys) expect(key).toMatch(/^tw_live_[0-9A-Za-z]{40}$/);
    expect(new Set(keys).size).toBe(keys.length);
    const chars = new Set(keys.flatMap((k) => [...k.slice(8)]));
    expect(chars.size).toBe(62);
  });
});

describe("last_used_at", () => {
  it("is set by the first use and not rewritten on every request", async () => {
    const ws = await newWorkspace();
    const key = await newKey(ws.id, { name: "usage", scope: "read" });
    expect((await keyRow(key.id))!.last_used_at).toBeNull();
    expect(await callSettled("/api/v1/keywords", key.key)).toBe(200);
    const first = await lastUsedAt(key.id);
    expect(first).toMatch(/Z$/);

    for (let i = 0; i < 3; i++) expect(await callSettled("/api/v1/keywords", key.key)).toBe(200);
    expect(await lastUsedAt(key.id)).toBe(first);

    const stale = new Date(Date.now() - 5 * 60_000).toISOString();
    await env.DB.prepare("UPDATE api_keys SET last_used_at = ? WHERE id = ?").bind(stale, key.id).run();
    forgetAllKeys(); // written behind the service's back: seen once this isolate's key cache lets go
    expect(await callSettled("/api/v1/keywords", key.key)).toBe(200);
    const refreshed = await lastUsedAt(key.id);
    expect(Date.parse(refreshed!)).toBeGreaterThan(Date.parse(stale));
    const listed = await admin(`/workspaces/${ws.id}/keys`);
    expect(listed.body.data[0].last_used_at).toBe(refreshed);
  });

  it("is not touched by refused requests", async () => {
    const ws = await newWorkspace();
    const key = await newKey(ws.id, { name: "revoked", scope: "read" });
    await admin(`/workspaces/${ws.id}/keys/${key.id}`, { method: "DELETE" });
    expect(await callSettled("/api/v1/keywords", key.key)).toBe(401);
    expect(await lastUsedAt(key.id)).toBeNull();
  });
});

describe("hourly cron", () => {
  it("deletes expired and revoked temporary keys and nothing else", async () => {
    const ws = await newWorkspace();
    const expired = await newKey(ws.id, { name: "expired", scope: "read_write", expires_in_seconds: 60 });
    const live = await newKey(ws.id, { name: "live", scope: "read", expires_in_seconds: 3600 });
    const permanent = await newKey(ws.id, { name: "permanent", scope: "read" });
    const revoked = await newKey(ws.id, { name: "revoked", scope: "read" });
    const revokedTemporary = await newKey(ws.id, {
      name: "revoked temporary",
      scope: "read_write",
      expires_in_seconds: 3600,
    });
    for (const key of [revoked, revokedTemporary])
      await admin(`/workspaces/${ws.id}/keys/${key.id}`, { method: "DELETE" });
    await env.DB.prepare("UPDATE api_keys SET expires_at = ? WHERE id = ?")
      .bind(new Date(Date.now() - 60_000).toISOString(), expired.id)
      .run();

    const controller = createScheduledController({ scheduledTime: Date.now(), cron: "0 * * * *" });
    const ctx = createExecutionContext();
    await worker.scheduled(controller, env, ctx);
    await waitOnExecutionContext(ctx);

    expect(await keyRow(expired.id)).toBeNull();
    expect(await keyRow(revokedTemporary.id)).toBeNull();
    const remaining = (await admin(`/workspaces/${ws.id}/keys`)).body.data.map((k: { id: number }) => k.id).sort();
    expect(remaining).toEqual([live.id, permanent.id, revoked.id].sort());
    expect((await callJson("/api/v1/keywords", { key: live.key })).status).toBe(200);
  });
});
