// Resolved API keys may be served from the isolate's memory for at most 5 seconds (docs/api.md). These
// tests use the key first, so it is cached, and then take it away in the ways that must still stop it.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ADMIN_TOKEN, callJson, createTestWorkspace } from "../helpers";

const use = (key: string) => callJson("/api/v1/keywords", { key });

describe("the isolate's key cache", () => {
  it("a key revoked through the admin API is refused by the very next request", async () => {
    const ws = await createTestWorkspace("cache: admin revoke");
    for (let i = 0; i < 3; i++) expect((await use(ws.readKey)).status).toBe(200);
    const keyId = (await env.DB.prepare("SELECT id FROM api_keys WHERE workspace_id = ? AND name = 'read'").bind(ws.id).first<{ id: number }>())!.id;
    const revoked = await callJson(`/admin/v1/workspaces/${ws.id}/keys/${keyId}`, { method: "DELETE", key: ADMIN_TOKEN });
    expect(revoked.status).toBe(200);
    const refused = await use(ws.readKey);
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toMatch(/revoked/);
    // The workspace's other key is untouched.
    expect((await use(ws.writeKey)).status).toBe(200);
  });

  it("a key revoked or deleted behind the service's back stops working within 5 seconds", async () => {
    for (const change of ["UPDATE api_keys SET revoked_at = '2026-01-01T00:00:00.000Z' WHERE workspace_id = ?", "DELETE FROM api_keys WHERE workspace_id = ?"]) {
      const ws = await createTestWorkspace("cache: out of band");
      for (let i = 0; i < 3; i++) expect((await use(ws.readKey)).status).toBe(200);
      await env.DB.prepare(change).bind(ws.id).run();
      const started = Date.now();
      let status = 200;
      while (status === 200 && Date.now() - started < 6_000) {
        status = (await use(ws.readKey)).status;
        if (status === 200) await new Promise((r) => setTimeout(r, 50));
      }
      expect(status).toBe(401);
      expect(Date.now() - started).toBeLessThan(5_000);
    }
  });

  it("temporary keys are checked against D1 on every request", async () => {
    const ws = await createTestWorkspace("cache: temporary");
    await env.DB.prepare("UPDATE api_keys SET expires_at = ? WHERE workspace_id = ?").bind(new Date(Date.now() + 3600_000).toISOString(), ws.id).run();
    for (let i = 0; i < 3; i++) expect((await use(ws.readKey)).status).toBe(200);
    await env.DB.prepare("UPDATE api_keys SET expires_at = ? WHERE workspace_id = ?").bind(new Date(Date.now() - 1000).toISOString(), ws.id).run();
    const refused = await use(ws.readKey);
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toMatch(/expired/);
  });
});
