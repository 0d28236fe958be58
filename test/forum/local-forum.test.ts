// The local forum (test/fixtures/forum/) over real HTTP from workerd, as the Worker meets it: the consent
// page and token endpoint on one origin, the OAuth host on another, each answer in the shape
// test/fixtures/SOURCES.md "Local forum" credits.
import { describe, expect, it } from "vitest";
import { localForum, unique } from "../helpers/forum";
import { api, authorizeUrl, postForm as form, grant, newClient, REDIRECT, SCOPES, tokenRequest } from "./forum-helpers";

describe("the consent page and the token endpoint", () => {
  it("validates the authorize request as the forum does: unknown client, other redirect URI, bad scope", async () => {
    const { id } = await newClient();
    const page = await fetch(authorizeUrl(id));
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('value="Allow"');
    expect(html).toContain('value="Decline"');
    for (const bad of [
      authorizeUrl("no-such-client"),
      authorizeUrl(id, { redirect_uri: "https://evil.example/cb" }),
      authorizeUrl(id, { scope: "identity telepathy" }),
      authorizeUrl(id, { response_type: "token2" }),
      authorizeUrl(id, { duration: "forever" }),
    ]) {
      const res = await fetch(bad, { redirect: "manual" });
      expect(res.status, bad).toBe(400);
      expect(res.headers.get("location")).toBeNull();
    }
  });

  it("the page's Allow and Decline redirect with a code or access_denied and the state", async () => {
    const { id } = await newClient();
    const username = await localForum.account();
    const allow = await fetch(`${localForum.origins().www}/api/v1/authorize`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        ...Object.fromEntries(new URL(authorizeUrl(id)).searchParams),
        username,
        authorize: "Allow",
      }),
    });
    expect(allow.status).toBe(302);
    const to = new URL(allow.headers.get("location")!);
    expect(`${to.origin}${to.pathname}`).toBe(REDIRECT);
    expect(to.searchParams.get("state")).toBe("st-1");
    expect(to.searchParams.get("code")).toMatch(/^[a-z0-9]{20,}$/);
    const declined = new URL(await localForum.consent(authorizeUrl(id), username, "decline"));
    expect(Object.fromEntries(declined.searchParams)).toEqual({ state: "st-1", error: "access_denied" });
  });

  it("a code works once, with its redirect URI; a bad code is HTTP 200 invalid_grant", async () => {
    const { client, token, code } = await grant();
    expect(token).toMatchObject({ token_type: "bearer", expires_in: 86_400 });
    expect(typeof token.access_token).toBe("string");
    expect(typeof token.refresh_token).toBe("string");
    expect(new Set(token.scope.split(" "))).toEqual(new Set(SCOPES.split(" ")));
    const again = await tokenRequest(client.basic, { grant_type: "authorization_code", code, redirect_uri: REDIRECT });
    expect(again).toEqual({ status: 200, body: { error: "invalid_grant" } });
    const username = await localForum.account();
    const fresh = new URL(await localForum.consent(authorizeUrl(client.id), username)).searchParams.get("code")!;
    const otherUri = await tokenRequest(client.basic, {
      grant_type: "authorization_code",
      code: fresh,
      redirect_uri: "https://app.example/other",
    });
    expect(otherUri).toEqual({ status: 200, body: { error: "invalid_grant" } });
  });

  it("a temporary grant has no refresh token; wrong client credentials are 401", async () => {
    const client = await newClient();
    const username = await localForum.account();
    const loc = await localForum.consent(authorizeUrl(client.id, { duration: "temporary" }), username);
    const code = new URL(loc).searchParams.get("code")!;
    const t = await tokenRequest(client.basic, { grant_type: "authorization_code", code, redirect_uri: REDIRECT });
    expect(t.body.refresh_token).toBeUndefined();
    const wrong = await tokenRequest(`Basic ${btoa(`${client.id}:nope`)}`, { grant_type: "client_credentials" });
    expect(wrong.status).toBe(401);
  });

  it("refresh rotates the refresh token: the new one works, the used one is 400 invalid_grant", async () => {
    const { client, token } = await grant();
    const first = await tokenRequest(client.basic, { grant_type: "refresh_token", refresh_token: token.refresh_token });
    expect(first.status).toBe(200);
    expect(first.body.refresh_token).not.toBe(token.refresh_token);
    expect(first.body.access_token).not.toBe(token.access_token);
    const reused = await tokenRequest(client.basic, {
      grant_type: "refresh_token",
      refresh_token: token.refresh_token,
    });
    expect(reused).toEqual({ status: 400, body: { error: "invalid_grant" } });
    const second = await tokenRequest(client.basic, {
      grant_type: "refresh_token",
      refresh_token: first.body.refresh_token,
    });
    expect(second.status).toBe(200);
    expect((await api(second.body.access_token, "/api/v1/me")).status).toBe(200);
  });

  it("revoke answers 200 with an empty body; a revoked refresh token and its access tokens stop working", async () => {
    const { client, token } = await grant();
    const revoke = (value: string, hint?: string) =>
      fetch(`${localForum.origins().www}/api/v1/revoke_token`, {
        method: "POST",
        headers: { authorization: client.basic, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token: value, ...(hint ? { token_type_hint: hint } : {}) }),
      });
    const unknown = await revoke("not-a-token");
    expect(unknown.status).toBe(200);
    expect(await unknown.text()).toBe("");
    expect((await api(token.access_token, "/api/v1/me")).status).toBe(200);
    expect((await revoke(token.refresh_token, "refresh_token")).status).toBe(200);
    const after = await tokenRequest(client.basic, { grant_type: "refresh_token", refresh_token: token.refresh_token });
    expect(after).toEqual({ status: 400, body: { error: "invalid_grant" } });
    expect((await api(token.access_token, "/api/v1/me")).status).toBe(401);
  });

  it("client_credentials gives an app-only token of every read scope", async () => {
    const client = await newClient();
    const t = await tokenRequest(client.basic, { grant_type: "client_credentials" });
    expect(t.body).toMatchObject({ token_type: "bearer", scope: "*", expires_in: 86_400 });
    expect(t.body.refresh_token).toBeUndefined();
    expect((await api(t.body.access_token, "/api/info?id=t3_zz")).status).toBe(200);
    expect((await tokenRequest(client.basic, { grant_type: "password" })).body).toEqual({
      error: "unsupported_grant_type",
    });
    expect((await localForum.clientStats(client.id)).tokenRequests).toBe(2);
  });
});

describe("the OAuth host", () => {
  it("answers 401 without a token and with an expired one, 403 insufficient_scope without the scope", async () => {
    const none = await fetch(`${localForum.origins().api}/api/v1/me`, { headers: { "user-agent": "t" } });
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ message: "Unauthorized", error: 401 });
    const { token } = await grant({ scope: "read", client: { token_ttl_s: 1 } });
    const denied = await api(token.access_token, "/api/v1/me");
    expect(denied.status).toBe(403);
    expect(denied.headers.get("www-authenticate")).toContain("insufficient_scope");
    await new Promise((r) => setTimeout(r, 1_100));
    expect((await api(token.access_token, "/r/all/new")).status).toBe(401);
  });

  it("refuses a Cookie header or a modhash and counts each, so a test can assert none was sent", async () => {
    const { client, token } = await grant();
    const cookie = await api(token.access_token, "/api/v1/me", { headers: { cookie: "reddit_session=abc" } });
    expect(cookie.status).toBe(400);
    expect((await cookie.json<any>()).explanation).toMatch(/Cookie/);
    const modhash = await api(token.access_token, "/api/v1/me", { headers: { "x-modhash": "abc" } });
    expect(modhash.status).toBe(400);
    const uh = await form(token.access_token, "/api/submit", { api_type: "json", uh: "abc" });
    expect(uh.status).toBe(400);
    const stats = await localForum.clientStats(client.id);
    expect(stats).toMatchObject({ cookieOffences: 1, modhashOffences: 2 });
  });

  it("every answer carries the window's headers (remaining a float), and 429 beyond the limit", async () => {
    const { token } = await grant({ client: { limit: 3, window_s: 600 } });
    const seen: [string | null, string | null, string | null][] = [];
    for (let i = 0; i < 3; i++) {
      const res = await api(token.access_token, "/api/v1/me");
      expect(res.status).toBe(200);
      seen.push(["used", "remaining", "reset"].map((h) => res.headers.get(`x-ratelimit-${h}`)) as any);
    }
    expect(seen.map((s) => s.slice(0, 2))).toEqual([
      ["1", "2.0"],
      ["2", "1.0"],
      ["3", "0.0"],
    ]);
    for (const [, , reset] of seen) expect(Number(reset)).toBeGreaterThan(0);
    for (const [, , reset] of seen) expect(Number.isInteger(Number(reset))).toBe(true);
    const over = await api(token.access_token, "/api/v1/me");
    expect(over.status).toBe(429);
    expect(await over.json()).toEqual({ message: "Too Many Requests", error: 429 });
  });

  it("who am I is a flat account object, is_suspended for a suspended account", async () => {
    const { username, token } = await grant();
    const me = await (await api(token.access_token, "/api/v1/me")).json<any>();
    expect(me.kind).toBeUndefined();
    expect(me).toMatchObject({ name: username, is_suspended: false });
    expect(me.modhash).toBeUndefined();
    const suspended = await grant({ account: { suspended: true } });
    expect(await (await api(suspended.token.access_token, "/api/v1/me")).json()).toMatchObject({
      name: suspended.username,
      is_suspended: true,
    });
  });

  it("subreddit about is wrapped t5; missing and banned 404, private 403", async () => {
    const { token } = await grant();
    const sr = await localForum.subreddit({ submission_type: "self" });
    const about = await (await api(token.access_token, `/r/${sr}/about`)).json<any>();
    expect(about).toMatchObject({
      kind: "t5",
      data: { display_name: sr, submission_type: "self", subreddit_type: "public" },
    });
    expect((await api(token.access_token, `/r/${unique("none")}/about`)).status).toBe(404);
    expect((await api(token.access_token, `/r/${await localForum.subreddit({ banned: true })}/about`)).status).toBe(
      404,
    );
    const priv = await api(token.access_token, `/r/${await localForum.subreddit({ type: "private" })}/about`);
    expect(priv.status).toBe(403);
    expect(await priv.json()).toMatchObject({ reason: "private", error: 403 });
  });

  it("post requirements are flat; link flair is a bare array, or 403", async () => {
    const { token } = await grant();
    const sr = await localForum.subreddit({
      requirements: { is_flair_required: true, title_blacklisted_strings: ["free"] },
      flairs: [{ id: "f-1", text: "Question" }],
    });
    const req = await (await api(token.access_token, `/api/v1/${sr}/post_requirements`)).json<any>();
    expect(req).toMatchObject({ is_flair_required: true, title_blacklisted_strings: ["free"], body_regexes: [] });
    const flairs = await (await api(token.access_token, `/r/${sr}/api/link_flair_v2`)).json<any>();
    expect(Array.isArray(flairs)).toBe(true);
    expect(flairs[0]).toMatchObject({ id: "f-1", text: "Question", type: "text" });
    const forbidden = await localForum.subreddit({ flairs_forbidden: true });
    expect((await api(token.access_token, `/r/${forbidden}/api/link_flair_v2`)).status).toBe(403);
  });
});
