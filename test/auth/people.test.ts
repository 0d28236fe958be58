// People as an attacker would try them: enumeration by message and timing, the failure limits, session
// fixation, CSRF on the new forms, invitation reuse and expiry, role escalation through forged fields, the
// last owner, removal and password change ending sessions, and the audit trail's reads and append-only rows.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { directoryDb } from "../../src/db/client";
import { checkPassword, hashPassword } from "../../src/people/passwords";
import { call, callJson, createTestWorkspace } from "../helpers/api";
import { getPage, postForm, signInForm } from "../helpers/console-client";
import { addMember, keyWith, PASSWORD, sessionCookieOf, signInAs } from "../helpers/people";

const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)![1]!;

async function tryPassword(email: string, password: string, address = "198.51.100.7") {
  const res = await postForm("/app/sign-in/password", await signInForm(), { email, password }, address);
  return { status: res.status, text: await res.text(), res };
}

describe("password sign-in", () => {
  it("stores PBKDF2-SHA256 with 100,000 iterations and a 16-byte salt, and refuses a wrong password", async () => {
    const a = await hashPassword(PASSWORD);
    const b = await hashPassword(PASSWORD);
    expect(a.passwordIterations).toBe(100_000);
    expect(a.passwordSalt).toMatch(/^[0-9a-f]{32}$/);
    expect(a.passwordSalt).not.toBe(b.passwordSalt);
    expect(a.passwordHash).not.toBe(b.passwordHash);
    expect(await checkPassword(PASSWORD, a)).toBe(true);
    expect(await checkPassword(`${PASSWORD}x`, a)).toBe(false);
    expect(await checkPassword(PASSWORD, undefined)).toBe(false);
  });

  it("answers an unknown email exactly as a wrong password", async () => {
    const w = await createTestWorkspace("enumeration");
    await addMember(w.id, "member", "known@people.test");
    const wrong = await tryPassword("known@people.test", "not the password at all", "198.51.100.1");
    const unknown = await tryPassword("nobody@people.test", "not the password at all", "198.51.100.2");
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const message = (t: string) => /id="password-error"[^>]*>([^<]+)</.exec(t)![1];
    expect(message(unknown.text)).toBe(message(wrong.text));
    // That both run the same PBKDF2 derivation (so neither answers sooner) is attacks.test.ts's "enumeration" case.
  });

  it("refuses the sixth attempt on one email within 15 minutes with 429 and retry-after, known or not", async () => {
    const w = await createTestWorkspace("limit email");
    await addMember(w.id, "member", "limited@people.test");
    for (const email of ["limited@people.test", "ghost@people.test"]) {
      for (let i = 0; i < 5; i++)
        expect((await tryPassword(email, "wrong wrong wrong", `203.0.113.${i}`)).status).toBe(401);
      const sixth = await tryPassword(email, email.startsWith("limited") ? PASSWORD : "x", "203.0.113.99");
      expect(sixth.status).toBe(429);
      expect(Number(sixth.res.headers.get("retry-after"))).toBeGreaterThan(800);
    }
    const events = await callJson(`/api/v1/actions/audit-events?action=sign_in.limited`, { key: w.writeKey });
    expect(events.body.data).toHaveLength(1);
    expect(events.body.data[0]).toMatchObject({ actor: { type: "system" }, details: { limited_by: "email" } });
  });

  it("refuses the 21st failure from one address, whatever the emails", async () => {
    for (let i = 0; i < 20; i++)
      expect((await tryPassword(`x${i}@people.test`, "wrong wrong wrong", "192.0.2.50")).status).toBe(401);
    expect((await tryPassword("x99@people.test", "wrong wrong wrong", "192.0.2.50")).status).toBe(429);
    expect((await tryPassword("x99@people.test", "wrong wrong wrong", "192.0.2.51")).status).toBe(401);
  });

  it("gives a new session at sign-in (no fixation), with the cookie flags, and refuses it once signed out", async () => {
    const w = await createTestWorkspace("fixation");
    await addMember(w.id, "member", "fix@people.test");
    const planted =
      "tw_console=p.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.9999999999.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    const form = await signInForm();
    const res = await postForm(
      "/app/sign-in/password",
      { ...form, cookie: `${form.cookie}; ${planted}` },
      {
        email: "fix@people.test",
        password: PASSWORD,
      },
    );
    expect(res.status).toBe(303);
    const setCookie = res.headers.get("set-cookie")!;
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Strict/i);
    expect(setCookie).toMatch(/Max-Age=43200/);
    const cookie = sessionCookieOf(res)!;
    expect(cookie).not.toBe(planted);
    // A second sign-in is a second session, not the first one again.
    const again = await signInAs("fix@people.test");
    expect(again.cookie).not.toBe(cookie);
    expect((await getPage("/app/posts", planted)).status).toBe(303);
    const page = await getPage("/app/posts", cookie);
    expect(page.status).toBe(200);
    const csrf = csrfOf(await page.text());
    expect((await postForm("/app/sign-out", { cookie, csrf }, {})).status).toBe(303);
    expect((await getPage("/app/posts", cookie)).status).toBe(303);
  });
});

describe("invitations", () => {
  it("invites by a single-use link: accepting sets name and password and signs in; a second use is refused", async () => {
    const w = await createTestWorkspace("invitations");
    const res = await callJson("/api/v1/actions/members/invitations", {
      key: w.writeKey,
      method: "POST",
      body: { email: "New@People.test", role: "member" },
    });
    expect(res.status).toBe(201);
    expect(res.body.invitation).toMatchObject({ email: "new@people.test", role: "member" });
    const days = (Date.parse(res.body.invitation.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThan(7.01);
    const path = new URL(res.body.url).pathname;
    const page = await getPage(path);
    expect(page.status).toBe(200);
    const nonce = /tw_console_signin=([^;]+)/.exec(page.headers.get("set-cookie") ?? "")![1]!;
    const form = { cookie: `tw_console_signin=${nonce}`, csrf: csrfOf(await page.text()) };
    // Without the form's token: refused, nothing used up.
    expect((await postForm(path, { ...form, csrf: "forged" }, { name: "New", password: PASSWORD })).status).toBe(403);
    // Too short a password: refused beside its field, the invitation still open.
    expect((await postForm(path, form, { name: "New", password: "short" })).status).toBe(400);
    const accepted = await postForm(path, form, { name: "New Person", password: PASSWORD });
    expect(accepted.status).toBe(303);
    expect(sessionCookieOf(accepted)).toBeDefined();
    expect((await postForm(path, form, { name: "Thief", password: `${PASSWORD}!` })).status).toBe(410);
    const members = await callJson("/api/v1/actions/members", { key: w.readKey });
    expect(members.body.data).toEqual([
      expect.objectContaining({ email: "new@people.test", name: "New Person", role: "member" }),
    ]);
    const actions = (await callJson("/api/v1/actions/audit-events", { key: w.writeKey })).body.data.map(
      (e: { action: string }) => e.action,
    );
    expect(actions).toEqual(["member.joined", "member.invited"]);
  });

  it("refuses an expired invitation", async () => {
    const w = await createTestWorkspace("expired");
    const res = await callJson("/api/v1/actions/members/invitations", {
      key: w.writeKey,
      method: "POST",
      body: { email: "late@people.test", role: "viewer" },
    });
    await env.DB.prepare("UPDATE invitations SET expires_at = '2020-01-01T00:00:00.000Z' WHERE id = ?")
      .bind(res.body.invitation.id)
      .run();
    expect((await getPage(new URL(res.body.url).pathname)).status).toBe(410);
  });

  it("does not let an invitation set an existing person's password", async () => {
    const a = await createTestWorkspace("first");
    const b = await createTestWorkspace("second");
    await addMember(a.id, "member", "both@people.test");
    const res = await callJson("/api/v1/actions/members/invitations", {
      key: b.writeKey,
      method: "POST",
      body: { email: "both@people.test", role: "viewer" },
    });
    const path = new URL(res.body.url).pathname;
    const page = await getPage(path);
    const nonce = /tw_console_signin=([^;]+)/.exec(page.headers.get("set-cookie") ?? "")![1]!;
    const form = { cookie: `tw_console_signin=${nonce}`, csrf: csrfOf(await page.text()) };
    expect((await postForm(path, form, { name: "Hijack", password: "attacker chosen password" })).status).toBe(400);
    expect((await postForm(path, form, { password: PASSWORD })).status).toBe(303);
    // One person in two workspaces switches between them.
    const s = await signInAs("both@people.test");
    const switched = await postForm("/app/workspace", s, { workspace_id: String(b.id) });
    expect(switched.status).toBe(303);
    expect(await (await getPage("/app/posts", s.cookie)).text()).toContain("second · viewer");
    expect((await postForm("/app/keywords", s, { keyword: "nope" })).status).toBe(403);
  });
});

describe("roles", () => {
  it("refuses escalation through forged fields and keeps the last owner", async () => {
    const w = await createTestWorkspace("escalation");
    const owner = await addMember(w.id, "owner", "owner@esc.test");
    const admin = await addMember(w.id, "admin", "admin@esc.test");
    await addMember(w.id, "viewer", "viewer@esc.test");
    const adminKey = await keyWith(w.id, "read_write", "admin");
    const ownerKey = await keyWith(w.id, "read_write", "owner");
    // An admin may not invite an owner nor make one, through the API or a forged console form.
    const invite = await callJson("/api/v1/actions/members/invitations", {
      key: adminKey,
      method: "POST",
      body: { email: "boss@esc.test", role: "owner" },
    });
    expect(invite.status).toBe(403);
    const adminSession = await signInAs("admin@esc.test", PASSWORD, "/app/settings/members");
    expect(
      (await postForm("/app/settings/members/invitations", adminSession, { email: "b@esc.test", role: "owner" }))
        .status,
    ).toBe(403);
    expect((await postForm(`/app/settings/members/${admin.id}`, adminSession, { role: "owner" })).status).toBe(403);
    expect(
      (await postForm("/app/settings/members/invitations", adminSession, { email: "b@esc.test", role: "superuser" }))
        .status,
    ).toBe(400);
    // A viewer makes read keys only, whatever the form says.
    const viewer = await signInAs("viewer@esc.test", PASSWORD, "/app/settings/api");
    expect((await postForm("/app/settings/api/keys", viewer, { name: "mine", scope: "read_write" })).status).toBe(400);
    const made = await postForm("/app/settings/api/keys", viewer, { name: "mine", scope: "read" });
    const key = /id="new-key">([^<]+)</.exec(await made.text())![1]!;
    expect((await call("/api/v1/keywords", { key, method: "POST", body: { keyword: "x" } })).status).toBe(403);
    // The last owner can be neither demoted nor removed.
    const demote = await callJson(`/api/v1/actions/members/${owner.id}`, {
      key: ownerKey,
      method: "PATCH",
      body: { role: "admin" },
    });
    expect(demote.status).toBe(409);
    expect(demote.body.error.code).toBe("invalid_state");
    expect((await call(`/api/v1/actions/members/${owner.id}`, { key: ownerKey, method: "DELETE" })).status).toBe(409);
  });

  it("removing a member ends their sessions and revokes their keys; a password change ends the other sessions", async () => {
    const w = await createTestWorkspace("removal");
    const person = await addMember(w.id, "member", "leaving@people.test");
    const one = await signInAs("leaving@people.test", PASSWORD, "/app/settings/api");
    const two = await signInAs("leaving@people.test", PASSWORD, "/app/settings/account");
    // A password change keeps this session and ends the other.
    expect(
      (
        await postForm("/app/settings/account/password", two, {
          current: PASSWORD,
          password: "a brand new long password",
        })
      ).status,
    ).toBe(303);
    expect((await getPage("/app/posts", one.cookie)).status).toBe(303);
    expect((await getPage("/app/posts", two.cookie)).status).toBe(200);
    const made = await postForm(
      "/app/settings/api/keys",
      { cookie: two.cookie, csrf: two.csrf },
      { name: "k", scope: "read_write" },
    );
    expect(made.status).toBe(200);
    const key = /id="new-key">([^<]+)</.exec(await made.text())![1]!;
    expect((await call("/api/v1/posts", { key })).status).toBe(200);
    expect((await call(`/api/v1/actions/members/${person.id}`, { key: w.writeKey, method: "DELETE" })).status).toBe(
      204,
    );
    expect((await getPage("/app/posts", two.cookie)).status).toBe(303);
    // Its key is revoked (the key cache lets go within seconds).
    await new Promise((r) => setTimeout(r, 5_100));
    expect((await call("/api/v1/posts", { key })).status).toBe(401);
    const removed = await callJson(`/api/v1/actions/audit-events?action=member.removed`, { key: w.writeKey });
    expect(removed.body.data[0]).toMatchObject({
      actor: { type: "key" },
      target: { type: "person", id: String(person.id) },
    });
  });
});

describe("the audit trail", () => {
  it("is read by admin/owner read_write keys only, newest first, filtered and paged; rows cannot be changed", async () => {
    const w = await createTestWorkspace("audit");
    for (let i = 0; i < 3; i++)
      await callJson("/api/v1/actions/members/invitations", {
        key: w.writeKey,
        method: "POST",
        body: { email: `a${i}@audit.test`, role: "viewer" },
      });
    expect((await call("/api/v1/actions/audit-events", { key: w.readKey })).status).toBe(403);
    const memberKey = await keyWith(w.id, "read_write", "member");
    expect((await call("/api/v1/actions/audit-events", { key: memberKey })).status).toBe(403);
    const page = await callJson("/api/v1/actions/audit-events?limit=2&action=member.invited", { key: w.writeKey });
    expect(page.body.count).toBe(3);
    expect(page.body.next_offset).toBe(2);
    expect(page.body.data.map((e: { details: { email: string } }) => e.details.email)).toEqual([
      "a2@audit.test",
      "a1@audit.test",
    ]);
    expect(
      (await callJson("/api/v1/actions/audit-events?since=2999-01-01T00:00:00Z", { key: w.writeKey })).body.count,
    ).toBe(0);
    expect((await call("/api/v1/actions/audit-events?actor_type=robot", { key: w.writeKey })).status).toBe(400);
    await expect(env.DB.prepare("UPDATE audit_events SET action = 'x'").run()).rejects.toThrow(/append-only/);
    await expect(env.DB.prepare("DELETE FROM audit_events").run()).rejects.toThrow(/append-only/);
    // No API route removes or changes events: DELETE/PATCH/PUT on the audit path do not exist.
    for (const method of ["DELETE", "PATCH", "PUT", "POST"])
      expect((await call("/api/v1/actions/audit-events", { key: w.writeKey, method })).status).toBe(404);
    expect((await callJson("/api/v1/actions/audit-events", { key: w.writeKey })).body.count).toBe(3);
    void directoryDb;
  });
});
