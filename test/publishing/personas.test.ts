import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import puppeteer from "@cloudflare/puppeteer";
import { afterEach, describe, expect, it, vi } from "vitest";
import { workspaceDb } from "../../src/db/client";
import { getPersonaRow, updatePersona } from "../../src/db/personas";
import { coordinatorFor, type WorkspaceCoordinator } from "../../src/durable/workspace-coordinator";
import { openSession, SessionKeyError, sealSession } from "../../src/lib/sealing";
import { openRefreshToken, personaAccessToken } from "../../src/personas/grants";
import { ADMIN_TOKEN, call, callJson, createTestWorkspace } from "../helpers/api";
import { connectAccount, localForum, newAccount, newPersona, PERSONAS, setAccount } from "../helpers/forum";
import { captureLogs } from "../helpers/logs";

afterEach(() => vi.restoreAllMocks());

const CLIENT = "tw-test-client";
const w = (id: number) => workspaceDb(env, id);

/** Asks the local forum's token endpoint to renew with `refreshToken`, as the Worker would. */
async function tokenEndpoint(refreshToken: string) {
  const res = await fetch(env.REDDIT_AUTH_URL!, {
    method: "POST",
    headers: {
      authorization: `Basic ${btoa(`${env.REDDIT_CLIENT_ID}:${env.REDDIT_CLIENT_SECRET}`)}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken }).toString(),
  });
  return { status: res.status, body: await res.json<any>() };
}

describe("connecting a persona by OAuth", () => {
  it("connects an account through the consent page, stores the grant sealed and never returns a token", async () => {
    const ws = await createTestWorkspace();
    const account = await newAccount();
    const started = await callJson(`${PERSONAS}/connect`, { key: ws.writeKey, method: "POST", body: {} });
    expect(started.status).toBe(201);
    expect(started.body).toEqual({
      authorize_url: expect.any(String),
      state: expect.any(String),
      expires_at: expect.any(String),
    });
    const url = new URL(started.body.authorize_url);
    expect(`${url.origin}${url.pathname}`).toBe(env.REDDIT_AUTHORIZE_URL);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: CLIENT,
      response_type: "code",
      state: started.body.state,
      redirect_uri: "http://threadwatch.test/oauth/forum/callback",
      duration: "permanent",
      scope: "identity read submit flair history",
    });
    const ttl = Date.parse(started.body.expires_at) - Date.now();
    expect(ttl).toBeGreaterThan(9 * 60_000);
    expect(ttl).toBeLessThanOrEqual(10 * 60_000);

    const callback = await localForum.consent(started.body.authorize_url, account.username);
    const target = new URL(callback);
    const { result: page, lines } = await captureLogs(() => call(`${target.pathname}${target.search}`));
    const html = await page.text();
    expect(page.status, html).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    expect(html).toContain(`u/${account.username}`);
    expect(html).toContain('href="/app/personas"');

    const list = await callJson(PERSONAS, { key: ws.readKey });
    expect(list.body.count).toBe(1);
    const persona = list.body.data[0];
    expect(persona).toEqual({
      id: expect.any(Number),
      username: account.username,
      active: true,
      auth_completed: true,
      browser_ready: false,
      approved: false,
      scopes: ["flair", "history", "identity", "read", "submit"],
      last_checked_at: null,
      last_error: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const row = (await getPersonaRow(w(ws.id), persona.id))!;
    const refresh = (await openRefreshToken(env, row))!;
    const access = await personaAccessToken(env, w(ws.id), persona.id);
    expect(refresh.length).toBeGreaterThan(10);
    for (const sealed of [row.refreshTokenSealed!, row.accessTokenSealed!]) {
      expect(sealed).toMatch(/^v1\.[0-9a-f]{8}\./);
      expect(sealed).not.toContain(refresh);
      expect(sealed).not.toContain(access);
    }
    for (const text of [html, lines, JSON.stringify(list.body), JSON.stringify(started.body)]) {
      expect(text).not.toContain(refresh);
      expect(text).not.toContain(access);
    }
    const code = target.searchParams.get("code")!;
    expect(lines).not.toContain(code);

    // The state was used: the same answer again stores nothing and says why.
    const again = await call(`${target.pathname}${target.search}`);
    expect(again.status).toBe(400);
    expect(await again.text()).toMatch(/unknown or was already used/);
  });

  it("refuses a declined consent, an unknown or expired state and a used code with a 400 page; nothing is stored", async () => {
    const ws = await createTestWorkspace();
    const account = await newAccount();
    const declined = await connectAccount(ws, account.username, "decline");
    expect(declined.status).toBe(400);
    expect(declined.html).toMatch(/did not allow the access/);
    const unknown = await call("/oauth/forum/callback?state=not-a-state&code=x");
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toMatch(/unknown or was already used/);
    const none = await call("/oauth/forum/callback");
    expect(none.status).toBe(400);

    // An expired state: the ten minutes passed before the person came back.
    const started = await callJson(`${PERSONAS}/connect`, { key: ws.writeKey, method: "POST", body: {} });
    const callback = new URL(await localForum.consent(started.body.authorize_url, account.username));
    await env.DB.prepare("UPDATE oauth_states SET expires_at = ?")
      .bind(new Date(Date.now() - 1000).toISOString())
      .run();
    const expired = await call(`${callback.pathname}${callback.search}`);
    expect(expired.status).toBe(400);
    expect(await expired.text()).toMatch(/expired/);

    // A code the forum refuses (forged): invalid_grant, nothing stored.
    const fresh = await callJson(`${PERSONAS}/connect`, { key: ws.writeKey, method: "POST", body: {} });
    const forged = await call(`/oauth/forum/callback?state=${fresh.body.state}&code=forged-code`);
    expect(forged.status).toBe(400);
    expect(await forged.text()).toMatch(/refused the code/);
    expect((await callJson(PERSONAS, { key: ws.readKey })).body.count).toBe(0);
  });

  it("connecting the same account again replaces its grant, keeps the persona, and the old refresh token dies", async () => {
    const ws = await createTestWorkspace();
    const { id, account } = await newPersona(ws);
    const before = (await openRefreshToken(env, (await getPersonaRow(w(ws.id), id))!))!;
    await callJson(`/admin/v1/workspaces/${ws.id}/personas/${id}/approve`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const again = await connectAccount(ws, account.username);
    expect(again.status, again.html).toBe(200);
    expect(again.html).toMatch(/connection was replaced/);
    const list = await callJson(PERSONAS, { key: ws.readKey });
    expect(list.body.data.map((p: any) => [p.id, p.approved])).toEqual([[id, true]]);
    const after = (await openRefreshToken(env, (await getPersonaRow(w(ws.id), id))!))!;
    expect(after).not.toBe(before);
  });

  it("only a read_write key connects; another workspace's persona is not found", async () => {
    const ws = await createTestWorkspace();
    const { id } = await newPersona(ws);
    const read = await callJson(`${PERSONAS}/connect`, { key: ws.readKey, method: "POST", body: {} });
    expect(read.status).toBe(403);
    const extra = await callJson(`${PERSONAS}/connect`, { key: ws.writeKey, method: "POST", body: { username: "x" } });
    expect(extra.status).toBe(400);
    const other = await createTestWorkspace("other");
    for (const [method, path, body] of [
      ["GET", `${PERSONAS}/${id}`, undefined],
      ["PATCH", `${PERSONAS}/${id}`, { active: false }],
      ["DELETE", `${PERSONAS}/${id}`, undefined],
      ["POST", `${PERSONAS}/${id}/preflight`, undefined],
    ] as const) {
      const res = await callJson(path, { key: other.writeKey, method, body });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const patched = await callJson(`${PERSONAS}/${id}`, { key: ws.writeKey, method: "PATCH", body: { active: false } });
    expect(patched.status).toBe(200);
    expect(patched.body.active).toBe(false);
    const empty = await callJson(`${PERSONAS}/${id}`, { key: ws.writeKey, method: "PATCH", body: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toMatchObject({ code: "validation_failed", details: [{ path: "body" }] });
    expect((await getPersonaRow(w(ws.id), id))?.updatedAt).toBe(patched.body.updated_at);
    // The cookie upload is gone.
    const cookies = await callJson(`${PERSONAS}/${id}/session`, {
      key: ws.writeKey,
      method: "PUT",
      body: { cookies: [] },
    });
    expect(cookies.status).toBe(404);
  });
});

describe("the persona's grant", () => {
  it("seals with a fresh IV every write and refuses a wrong or rotated key with a clear error", async () => {
    const key = env.SESSION_KEY;
    const a = await sealSession(key, "owner", "refresh-token");
    const b = await sealSession(key, "owner", "refresh-token");
    expect(a).not.toBe(b);
    expect(await openSession(key, "owner", a)).toBe("refresh-token");
    const rotated = btoa("another-session-key-32-bytes-ok!");
    await expect(openSession(rotated, "owner", a)).rejects.toThrow(/another SESSION_KEY/);
    await expect(openSession(key, "someone else", a)).rejects.toThrow(SessionKeyError);
    const [v, id, iv, data] = a.split(".");
    const tampered = [v, id, iv, `${data!.slice(0, -2)}AA`].join(".");
    await expect(openSession(key, "owner", tampered)).rejects.toThrow(/does not decrypt/);
    await expect(sealSession("c2hvcnQ=", "owner", "x")).rejects.toThrow(/32 bytes/);
  });

  it("renews an expiring access token once for concurrent callers and stores the rotated refresh token first", async () => {
    const ws = await createTestWorkspace();
    const { id } = await newPersona(ws);
    const db = w(ws.id);
    const before = (await getPersonaRow(db, id))!;
    const oldRefresh = (await openRefreshToken(env, before))!;
    const oldAccess = await personaAccessToken(env, db, id);
    // Its renewal time has come (stored a few minutes before the forum's expiry).
    await updatePersona(db, id, { accessTokenExpiresAt: new Date(Date.now() - 1000).toISOString() });
    const tokensBefore = (await localForum.clientStats(CLIENT)).tokenRequests;
    const tokens = await Promise.all([1, 2, 3, 4].map(() => personaAccessToken(env, db, id)));
    expect(new Set(tokens).size).toBe(1);
    expect(tokens[0]).not.toBe(oldAccess);
    expect((await localForum.clientStats(CLIENT)).tokenRequests - tokensBefore).toBe(1);
    const after = (await getPersonaRow(db, id))!;
    const newRefresh = (await openRefreshToken(env, after))!;
    expect(newRefresh).not.toBe(oldRefresh);
    expect(after.grantVersion).toBe(before.grantVersion + 1);
    expect(after.refreshClaimedUntil).toBeNull();
    // The forum rotated: the consumed refresh token is dead, the stored one works.
    expect((await tokenEndpoint(oldRefresh)).body).toEqual({ error: "invalid_grant" });
  });

  it("a grant the forum revoked: invalid_grant sets auth_completed false with the reconnect message", async () => {
    const ws = await createTestWorkspace();
    const { id, account } = await newPersona(ws, { check: true });
    await setAccount(account.username, { expired: true });
    await updatePersona(w(ws.id), id, { accessTokenExpiresAt: new Date(Date.now() - 1000).toISOString() });
    const res = await callJson(`${PERSONAS}/${id}/preflight`, { key: ws.writeKey, method: "POST" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.checks[0]).toEqual({
      name: "grant",
      ok: false,
      reason: `u/${account.username}: the forum revoked this connection; connect the account again`,
    });
    expect(res.body.persona).toMatchObject({
      auth_completed: false,
      last_error: `u/${account.username}: the forum revoked this connection; connect the account again`,
    });
    const row = (await getPersonaRow(w(ws.id), id))!;
    expect(row.refreshTokenSealed).toBeNull();
  });

  it("DELETE revokes the refresh token at the forum, then deletes; refused while a post of it is queued", async () => {
    const ws = await createTestWorkspace();
    const { id } = await newPersona(ws);
    const refresh = (await openRefreshToken(env, (await getPersonaRow(w(ws.id), id))!))!;
    const config = await callJson("/api/v1/actions/blog-subreddit-syncs", {
      key: ws.writeKey,
      method: "POST",
      body: { blog_url: "https://blog.example/feed.xml", subreddit: "anything", persona_id: id },
    });
    expect(config.status, JSON.stringify(config.body)).toBe(201);
    await env.DB.prepare(
      "INSERT INTO synced_posts (workspace_id, config_id, source_url, title, body_markdown, images, content_hash, state) VALUES (?, ?, 'https://blog.example/a', 't', 'b', '[]', ?, 'queued')",
    )
      .bind(ws.id, config.body.id, "0".repeat(64))
      .run();
    const refused = await callJson(`${PERSONAS}/${id}`, { key: ws.writeKey, method: "DELETE" });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/1 post is queued/);
    expect((await tokenEndpoint(refresh)).status).toBe(200);

    await env.DB.prepare("UPDATE synced_posts SET state = 'draft' WHERE config_id = ?").bind(config.body.id).run();
    const stored = (await openRefreshToken(env, (await getPersonaRow(w(ws.id), id))!))!;
    const deleted = await call(`${PERSONAS}/${id}`, { key: ws.writeKey, method: "DELETE" });
    expect(deleted.status).toBe(204);
    expect((await callJson(`${PERSONAS}/${id}`, { key: ws.readKey })).status).toBe(404);
    expect((await tokenEndpoint(stored)).body).toEqual({ error: "invalid_grant" });
  });
});

describe("the persona check", () => {
  it("checks the grant, who am I and the scopes from the Worker, and the profile as a visitor in the browser", async () => {
    const ws = await createTestWorkspace();
    const { id } = await newPersona(ws);
    const offences = await localForum.offences();
    const ok = await callJson(`${PERSONAS}/${id}/preflight`, { key: ws.writeKey, method: "POST" });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.checks).toEqual([
      { name: "grant", ok: true, reason: null },
      { name: "identity", ok: true, reason: null },
      { name: "scopes", ok: true, reason: null },
      { name: "visible", ok: true, reason: null },
    ]);
    expect(ok.body.persona).toMatchObject({ auth_completed: true, browser_ready: true, last_error: null });
    expect(ok.body.persona.last_checked_at).not.toBeNull();
    expect(await localForum.offences()).toEqual(offences);
  }, 60_000);

  it("names a shadow-banned account and a suspended one; neither is ready", async () => {
    const ws = await createTestWorkspace();
    const banned = await newPersona(ws, { account: { shadow_banned: true } });
    const res = await callJson(`${PERSONAS}/${banned.id}/preflight`, { key: ws.writeKey, method: "POST" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.checks.at(-1)).toMatchObject({
      name: "visible",
      ok: false,
      reason: expect.stringMatching(/shadow-banned/),
    });
    expect(res.body.persona).toMatchObject({ auth_completed: true, browser_ready: false });
    expect(res.body.persona.last_error).toMatch(/shadow-banned/);

    const suspended = await newPersona(ws, { account: { suspended: true } });
    const s = await callJson(`${PERSONAS}/${suspended.id}/preflight`, { key: ws.writeKey, method: "POST" });
    expect(s.body.checks[1]).toMatchObject({ name: "identity", ok: false, reason: expect.stringMatching(/suspended/) });
    expect(s.body.persona).toMatchObject({ auth_completed: false, browser_ready: false });
  }, 60_000);

  it("a block page or an unreachable forum is 502 forum_unreachable naming the address, and changes no flag", async () => {
    const ws = await createTestWorkspace();
    const { id, account } = await newPersona(ws, { check: true });
    const before = await callJson(`${PERSONAS}/${id}`, { key: ws.readKey });
    // Two: the warm browser's attempt and the fresh browser's one.
    await localForum.siteFault("block", { account: account.username, count: 2 });
    const blocked = await callJson(`${PERSONAS}/${id}/preflight`, { key: ws.writeKey, method: "POST" });
    await localForum.siteFault(null, { account: account.username });
    expect(blocked.status, JSON.stringify(blocked.body)).toBe(502);
    expect(blocked.body.error.code).toBe("forum_unreachable");
    expect(blocked.body.error.message).toContain(`${env.FORUM_BASE_URL}/user/`);
    expect((await callJson(`${PERSONAS}/${id}`, { key: ws.readKey })).body).toEqual(before.body);

    const nowhere = "http://127.0.0.1:9";
    const { callJsonWith } = await import("../helpers/api");
    const down = await callJsonWith(
      `${PERSONAS}/${id}/preflight`,
      { REDDIT_API_BASE_URL: nowhere },
      { key: ws.writeKey, method: "POST" },
    );
    expect(down.status, JSON.stringify(down.body)).toBe(502);
    expect(down.body.error.message).toContain(`${nowhere}/api/v1/me`);
    expect((await callJson(`${PERSONAS}/${id}`, { key: ws.readKey })).body).toEqual(before.body);
  }, 60_000);

  it("a grant revoked while the check waits for the browser is what the check finds", async () => {
    const ws = await createTestWorkspace();
    const { id, account } = await newPersona(ws);
    const coordinator = coordinatorFor(env, ws.id);
    const held = await coordinator.acquireBrowserSlot("another browser job", { leaseMs: 20_000 });
    expect(held.ok).toBe(true);
    if (!held.ok) return;
    let check: Promise<{ status: number; body: any }> | undefined;
    try {
      check = callJson(`${PERSONAS}/${id}/preflight`, { key: ws.writeKey, method: "POST" });
      const deadline = Date.now() + 20_000;
      while ((await coordinator.browserStatus()).waiting === 0 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      expect((await coordinator.browserStatus()).waiting).toBe(1);
      // ...while the forum revokes the account's grants (and its access token with them).
      await setAccount(account.username, { expired: true });
      await updatePersona(w(ws.id), id, { accessTokenExpiresAt: new Date(Date.now() - 1000).toISOString() });
    } finally {
      await coordinator.releaseBrowserSlot(held.token);
    }
    const checked = await check!;
    expect(checked.status, JSON.stringify(checked.body)).toBe(200);
    expect(checked.body.persona).toMatchObject({ auth_completed: false, browser_ready: false });
    expect(checked.body.persona.last_error).toMatch(/revoked this connection/);
  }, 60_000);

  it("keeps the workspace's browser warm between checks, each in a clean context, and closes it when it idles", async () => {
    const ws = await createTestWorkspace();
    const first = await newPersona(ws);
    const second = await newPersona(ws);
    const coordinator = coordinatorFor(env, ws.id);
    const check = (id: number) => callJson(`${PERSONAS}/${id}/preflight`, { key: ws.writeKey, method: "POST" });
    expect((await check(first.id)).body.persona).toMatchObject({ auth_completed: true, browser_ready: true });
    const warm = (await coordinator.browserStatus()).warm;
    expect(warm).toMatchObject({ sessionId: expect.any(String), lent: false });

    expect((await check(second.id)).body.persona).toMatchObject({ auth_completed: true, browser_ready: true });
    expect((await coordinator.browserStatus()).warm).toMatchObject({ sessionId: warm?.sessionId, lent: false });
    expect((await puppeteer.sessions(env.BROWSER)).map((s) => s.sessionId)).toContain(warm?.sessionId);

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

  it("a grant sealed under another key fails the check with a reason, not garbage", async () => {
    const ws = await createTestWorkspace();
    const { id } = await newPersona(ws);
    const db = w(ws.id);
    const row = (await getPersonaRow(db, id))!;
    const foreign = await sealSession(
      btoa("another-session-key-32-bytes-ok!"),
      `workspace:${ws.id}:user:${row.username.toLowerCase()}:access`,
      "x",
    );
    await updatePersona(db, id, { accessTokenSealed: foreign });
    const res = await callJson(`${PERSONAS}/${id}/preflight`, { key: ws.writeKey, method: "POST" });
    expect(res.status).toBe(200);
    expect(res.body.persona).toMatchObject({ auth_completed: false, browser_ready: false });
    expect(res.body.persona.last_error).toMatch(/another SESSION_KEY.*connect the forum account again/);
  });
});

describe("admin approval", () => {
  it("admin approves and revokes a persona; the key API cannot", async () => {
    const ws = await createTestWorkspace();
    const { id } = await newPersona(ws);
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
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
