import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import puppeteer from "@cloudflare/puppeteer";
import { afterEach, describe, expect, it, vi } from "vitest";
import { workspaceDb } from "../../src/db/client";
import { getPersonaRow, updatePersona } from "../../src/db/personas";
import { coordinatorFor, type WorkspaceCoordinator } from "../../src/durable/workspace-coordinator";
import { openSession, SessionKeyError, sealSession } from "../../src/lib/sealing";
import { mapExportedCookies } from "../../src/personas/cookies";
import { ADMIN_TOKEN, callJson, createTestWorkspace } from "../helpers/api";
import { newAccount, newPersona, PERSONAS, setAccount } from "../helpers/forum";
import { captureLogs } from "../helpers/logs";

afterEach(() => vi.restoreAllMocks());

describe("personas", () => {
  it("creates a persona from a cookie export, stores the session encrypted and never returns a cookie", async () => {
    const ws = await createTestWorkspace();
    const account = await newAccount();
    const { result: created, lines } = await captureLogs(() =>
      callJson(PERSONAS, {
        key: ws.writeKey,
        method: "POST",
        body: { username: `u/${account.username}`, cookies: account.cookies },
      }),
    );
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      username: account.username,
      active: true,
      auth_completed: false,
      browser_ready: false,
      approved: false,
      last_checked_at: null,
      last_error: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(JSON.stringify(created.body)).not.toContain(account.sessionValue);
    expect(lines).not.toContain(account.sessionValue);

    const row = await getPersonaRow(workspaceDb(env, ws.id), created.body.id);
    expect(row!.sessionCiphertext).not.toContain(account.sessionValue);
    expect(row!.sessionCiphertext).toMatch(/^v1\.[0-9a-f]{8}\./);

    // Same username (case-insensitively): 409. Unknown fields and bad usernames: 400.
    const again = await callJson(PERSONAS, {
      key: ws.writeKey,
      method: "POST",
      body: { username: account.username.toUpperCase(), cookies: account.cookies },
    });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("invalid_state");
    const bad = await callJson(PERSONAS, {
      key: ws.writeKey,
      method: "POST",
      body: { username: "a b", cookies: [{ name: "x", value: "secret-value-1", color: "red" }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: any) => d.path).sort()).toEqual(["body.cookies.0.color", "body.username"]);
    expect(JSON.stringify(bad.body)).not.toContain("secret-value-1");
    const none = await callJson(PERSONAS, { key: ws.writeKey, method: "POST", body: { username: "abc", cookies: [] } });
    expect(none.status).toBe(400);

    // Read key: lists, cannot write. Another workspace: 404.
    const list = await callJson(PERSONAS, { key: ws.readKey });
    expect(list.body.count).toBe(1);
    expect(JSON.stringify(list.body)).not.toContain(account.sessionValue);
    const readWrite = await callJson(PERSONAS, {
      key: ws.readKey,
      method: "POST",
      body: { username: "other_name", cookies: account.cookies },
    });
    expect(readWrite.status).toBe(403);
    const other = await createTestWorkspace("other");
    for (const [method, path, body] of [
      ["GET", `${PERSONAS}/${created.body.id}`, undefined],
      ["PATCH", `${PERSONAS}/${created.body.id}`, { active: false }],
      ["PUT", `${PERSONAS}/${created.body.id}/session`, { cookies: account.cookies }],
      ["POST", `${PERSONAS}/${created.body.id}/preflight`, undefined],
    ] as const) {
      const res = await callJson(path, { key: other.writeKey, method, body });
      expect(res.status, `${method} ${path}`).toBe(404);
    }

    const patched = await callJson(`${PERSONAS}/${created.body.id}`, {
      key: ws.writeKey,
      method: "PATCH",
      body: { active: false },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.active).toBe(false);
    // An empty patch changes nothing: refused as every other PATCH's is, and nothing is written.
    const empty = await callJson(`${PERSONAS}/${created.body.id}`, { key: ws.writeKey, method: "PATCH", body: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toMatchObject({ code: "validation_failed", details: [{ path: "body" }] });
    expect((await getPersonaRow(workspaceDb(env, ws.id), created.body.id))?.updatedAt).toBe(patched.body.updated_at);
  });

  it("maps the extra fields of cookie exports and sets nothing but name, value, path, expiry and flags", () => {
    const mapped = mapExportedCookies([
      {
        name: "a",
        value: "1",
        domain: ".reddit.com",
        expirationDate: 1893456000.5,
        hostOnly: false,
        httpOnly: true,
        sameSite: "no_restriction",
        secure: true,
        session: false,
        storeId: "0",
        id: 1,
      },
      { name: "b", value: "2", path: "/x", sameSite: "Lax", session: true, expirationDate: 5 },
      { name: "c", value: "3", sameSite: "unspecified", expires: -1 },
    ]);
    expect(mapped).toEqual([
      { name: "a", value: "1", path: "/", expires: 1893456000, httpOnly: true, secure: true, sameSite: "None" },
      { name: "b", value: "2", path: "/x", httpOnly: false, secure: false, sameSite: "Lax" },
      { name: "c", value: "3", path: "/", httpOnly: false, secure: false },
    ]);
  });

  it("seals with a fresh IV every write and refuses a wrong or rotated key with a clear error", async () => {
    const key = env.SESSION_KEY;
    const a = await sealSession(key, "owner", "cookie-jar");
    const b = await sealSession(key, "owner", "cookie-jar");
    expect(a).not.toBe(b);
    expect(await openSession(key, "owner", a)).toBe("cookie-jar");
    const rotated = btoa("another-session-key-32-bytes-ok!");
    await expect(openSession(rotated, "owner", a)).rejects.toThrow(/another SESSION_KEY/);
    await expect(openSession(key, "someone else", a)).rejects.toThrow(SessionKeyError);
    const [v, id, iv, data] = a.split(".");
    const tampered = [v, id, iv, `${data!.slice(0, -2)}AA`].join(".");
    await expect(openSession(key, "owner", tampered)).rejects.toThrow(/does not decrypt/);
    await expect(sealSession("c2hvcnQ=", "owner", "x")).rejects.toThrow(/32 bytes/);
  });

  it("checks a persona in the browser: its own session passes, an expired or foreign one does not", async () => {
    const ws = await createTestWorkspace();
    const { id, account } = await newPersona(ws);
    const { result: ok, lines } = await captureLogs(() =>
      callJson(`${PERSONAS}/${id}/preflight`, { key: ws.writeKey, method: "POST" }),
    );
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.checks).toEqual([
      { name: "browser", ok: true, reason: null },
      { name: "session", ok: true, reason: null },
    ]);
    expect(ok.body.persona).toMatchObject({ auth_completed: true, browser_ready: true, last_error: null });
    expect(ok.body.persona.last_checked_at).not.toBeNull();
    expect(lines).not.toContain(account.sessionValue);

    // The session of another account: not this persona.
    const stranger = await newAccount();
    const put = await callJson(`${PERSONAS}/${id}/session`, {
      key: ws.writeKey,
      method: "PUT",
      body: { cookies: stranger.cookies },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ auth_completed: false, browser_ready: false });
    const foreign = await callJson(`${PERSONAS}/${id}/preflight`, { key: ws.writeKey, method: "POST" });
    expect(foreign.body.persona).toMatchObject({ auth_completed: false, browser_ready: false });
    expect(foreign.body.persona.last_error).toContain(`belongs to u/${stranger.username}`);

    // Back to its own session, then the forum ends it.
    await callJson(`${PERSONAS}/${id}/session`, {
      key: ws.writeKey,
      method: "PUT",
      body: { cookies: account.cookies },
    });
    await setAccount(account.username, { expired: true });
    const expired = await callJson(`${PERSONAS}/${id}/preflight`, { key: ws.writeKey, method: "POST" });
    expect(expired.body.persona).toMatchObject({ auth_completed: false, browser_ready: false });
    expect(expired.body.persona.last_error).toMatch(/nobody is logged in.*upload fresh cookies/);
    expect(JSON.stringify(expired.body)).not.toContain(account.sessionValue);
  }, 60_000);

  it("a session replaced while the check waits for the browser is the one checked: the old one never marks it ready", async () => {
    const ws = await createTestWorkspace();
    const { id } = await newPersona(ws);
    const coordinator = coordinatorFor(env, ws.id);
    const held = await coordinator.acquireBrowserSlot("another browser job", { leaseMs: 20_000 });
    expect(held.ok).toBe(true);
    if (!held.ok) return;
    let check: Promise<{ status: number; body: any }> | undefined;
    try {
      // The check of the persona's own (valid) session waits in line for the browser...
      check = callJson(`${PERSONAS}/${id}/preflight`, { key: ws.writeKey, method: "POST" });
      const deadline = Date.now() + 20_000;
      while ((await coordinator.browserStatus()).waiting === 0 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      expect((await coordinator.browserStatus()).waiting).toBe(1);
      // ...while a person replaces the session with another account's cookies.
      const stranger = await newAccount();
      const put = await callJson(`${PERSONAS}/${id}/session`, {
        key: ws.writeKey,
        method: "PUT",
        body: { cookies: stranger.cookies },
      });
      expect(put.body).toMatchObject({ auth_completed: false, browser_ready: false });
    } finally {
      await coordinator.releaseBrowserSlot(held.token);
    }
    const checked = await check!;
    expect(checked.status, JSON.stringify(checked.body)).toBe(200);
    expect(checked.body.persona).toMatchObject({ auth_completed: false, browser_ready: false });
    expect(checked.body.persona.last_error).toMatch(/belongs to u\//);
    expect(await getPersonaRow(workspaceDb(env, ws.id), id)).toMatchObject({
      authCompleted: false,
      browserReady: false,
    });
  }, 60_000);

  it("keeps the workspace's browser warm between operations, each in a clean context, and closes it when it idles", async () => {
    const ws = await createTestWorkspace();
    const first = await newPersona(ws);
    // A persona whose export has no forum session at all: whatever it sees comes from its own context.
    const second = await newPersona(ws);
    const put = await callJson(`${PERSONAS}/${second.id}/session`, {
      key: ws.writeKey,
      method: "PUT",
      body: { cookies: [{ domain: ".reddit.com", name: "theme", value: "dark", path: "/" }] },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const coordinator = coordinatorFor(env, ws.id);

    const check = (id: number) => callJson(`${PERSONAS}/${id}/preflight`, { key: ws.writeKey, method: "POST" });
    expect((await check(first.id)).body.persona).toMatchObject({ auth_completed: true, browser_ready: true });
    const warm = (await coordinator.browserStatus()).warm;
    expect(warm).toMatchObject({ sessionId: expect.any(String), lent: false });

    // The next operation connects to the same browser; the first persona's cookies went with its context.
    const other = await check(second.id);
    expect(other.body.persona).toMatchObject({ auth_completed: false, browser_ready: false });
    expect(other.body.persona.last_error).toMatch(/nobody is logged in/);
    expect((await coordinator.browserStatus()).warm).toMatchObject({ sessionId: warm?.sessionId, lent: false });
    expect((await puppeteer.sessions(env.BROWSER)).map((s) => s.sessionId)).toContain(warm?.sessionId);

    // Past its idle deadline the coordinator's alarm closes it.
    await runInDurableObject(coordinator, (instance: WorkspaceCoordinator) => {
      instance.clock = () => Date.now() + 10 * 60_000;
    });
    await runDurableObjectAlarm(coordinator);
    expect((await coordinator.browserStatus()).warm).toBeNull();
    await vi.waitFor(
      async () =>
        expect((await puppeteer.sessions(env.BROWSER)).map((s) => s.sessionId)).not.toContain(warm?.sessionId),
      { timeout: 10_000, interval: 100 },
    );
  }, 60_000);

  it("a session sealed under another key fails the check with a reason, not garbage", async () => {
    const ws = await createTestWorkspace();
    const { id } = await newPersona(ws);
    const w = workspaceDb(env, ws.id);
    const row = (await getPersonaRow(w, id))!;
    const foreign = await sealSession(
      btoa("another-session-key-32-bytes-ok!"),
      `workspace:${ws.id}:user:${row.username.toLowerCase()}`,
      "[]",
    );
    await updatePersona(w, id, { sessionCiphertext: foreign });
    const res = await callJson(`${PERSONAS}/${id}/preflight`, { key: ws.writeKey, method: "POST" });
    expect(res.status).toBe(200);
    expect(res.body.persona.browser_ready).toBe(false);
    expect(res.body.persona.last_error).toMatch(/another SESSION_KEY.*upload the cookies again/);
  });

  it("admin approves and revokes a persona; the key API cannot", async () => {
    const ws = await createTestWorkspace();
    const { id } = await newPersona(ws);
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
    // These actions take no fields: one sent is refused, not ignored, and nothing happens.
    for (const [path, key, headers] of [
      [`/admin/v1/workspaces/${ws.id}/personas/${id}/approve`, undefined, admin],
      [`/admin/v1/workspaces/${ws.id}/personas/${id}/revoke`, undefined, admin],
      [`${PERSONAS}/${id}/preflight`, ws.writeKey, {}],
    ] as const) {
      const refused = await callJson(path, { method: "POST", key, headers, body: { approved: true } });
      expect(refused.status, path).toBe(400);
      expect(refused.body.error, path).toMatchObject({
        code: "validation_failed",
        details: [{ path: "body.approved", message: "unknown field" }],
      });
    }
    const untouched = await callJson(`${PERSONAS}/${id}`, { key: ws.writeKey });
    expect(untouched.body).toMatchObject({ approved: false, browser_ready: false, last_checked_at: null });
    const approved = await callJson(`/admin/v1/workspaces/${ws.id}/personas/${id}/approve`, {
      method: "POST",
      headers: admin,
    });
    expect(approved.status).toBe(200);
    expect(approved.body.approved).toBe(true);
    const listed = await callJson(`/admin/v1/workspaces/${ws.id}/personas`, { headers: admin });
    expect(listed.body.data.map((p: any) => [p.id, p.approved])).toEqual([[id, true]]);
    const revoked = await callJson(`/admin/v1/workspaces/${ws.id}/personas/${id}/revoke`, {
      method: "POST",
      headers: admin,
    });
    expect(revoked.body.approved).toBe(false);
    const other = await createTestWorkspace("other");
    const wrong = await callJson(`/admin/v1/workspaces/${other.id}/personas/${id}/approve`, {
      method: "POST",
      headers: admin,
    });
    expect(wrong.status).toBe(404);
    const noAdmin = await callJson(`/admin/v1/workspaces/${ws.id}/personas/${id}/approve`, {
      method: "POST",
      key: ws.writeKey,
    });
    expect(noAdmin.status).toBe(401);
    const patchApproved = await callJson(`${PERSONAS}/${id}`, {
      key: ws.writeKey,
      method: "PATCH",
      body: { approved: true },
    });
    expect(patchApproved.status).toBe(400);
  });
});
