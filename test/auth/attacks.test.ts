// People's doors as an attacker tries them (docs/security.md, "Attacks tested"): session fixation by password,
// passkey and invitation; CSRF on every POST form of the console, in one loop over the router's routes;
// invitations guessed, reused, expired or forged; role escalation through forged fields and swapped ids;
// enumeration by message and headers; the failure limits; sessions revoked, and ended by a password change
// or a removal; the security headers of the new pages; and no password reset. Each case fails if its
// defence is taken away. test/auth/people.test.ts holds the happy paths these build on.
import { env, exports } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { createConsoleRouter } from "../../src/console/router";
import { directoryDb } from "../../src/db/client";
import { signInWithPassword } from "../../src/people/sign-in";
import { call, callJson, callJsonKeepingMonitorQueue, createTestWorkspace, type TestWorkspace } from "../helpers/api";
import { type FormSession, getPage, postForm, signInForm } from "../helpers/console-client";
import { addMember, keyWith, PASSWORD, sessionCookieOf, signInAs } from "../helpers/people";
import { SoftwareAuthenticator } from "../helpers/software-authenticator";

const ORIGIN = "http://threadwatch.test";
const worker = exports as unknown as { default: Fetcher };
const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)![1]!;
const nonceOf = (res: Response) => /tw_console_signin=([^;]+)/.exec(res.headers.get("set-cookie") ?? "")?.[1];

/** A form post with exactly these fields and cookie (no CSRF token added unless given). */
const post = (path: string, cookie: string, fields: Record<string, string>, address?: string) =>
  worker.default.fetch(
    new Request(`${ORIGIN}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: {
        cookie,
        "content-type": "application/x-www-form-urlencoded",
        ...(address ? { "cf-connecting-ip": address } : {}),
      },
      body: new URLSearchParams(fields).toString(),
    }),
  );

/** Every table's rows but the columns a mere look refreshes (`last_seen_at`, `last_used_at`): "nothing changed". */
async function snapshot(): Promise<string> {
  const tables = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY name",
  ).all<{ name: string }>();
  const dumps = await env.DB.batch(tables.results.map(({ name }) => env.DB.prepare(`SELECT * FROM "${name}"`)));
  const volatile = new Set(["last_seen_at", "last_used_at"]);
  return JSON.stringify(
    dumps.map((d, i) => [
      tables.results[i]!.name,
      (d.results as Record<string, unknown>[]).map((row) =>
        Object.entries(row).filter(([column]) => !volatile.has(column)),
      ),
    ]),
  );
}

const roleIn = async (workspaceId: number, personId: number) =>
  (
    await env.DB.prepare("SELECT role FROM memberships WHERE workspace_id = ? AND person_id = ?")
      .bind(workspaceId, personId)
      .first<{ role: string }>()
  )?.role;

async function invite(w: TestWorkspace, email: string, role = "member") {
  const res = await callJson("/api/v1/actions/members/invitations", {
    key: w.writeKey,
    method: "POST",
    body: { email, role },
  });
  expect(res.status).toBe(201);
  return { id: res.body.invitation.id as number, path: new URL(res.body.url).pathname };
}

/** A keyword of the workspace, made through the API (the re-match it queues is kept, not delivered). */
const addKeyword = (w: TestWorkspace, keyword: string) =>
  callJsonKeepingMonitorQueue("/api/v1/keywords", { key: w.writeKey, method: "POST", body: { keyword } });

const firstKeyOf = (w: TestWorkspace) =>
  env.DB.prepare("SELECT id FROM api_keys WHERE workspace_id = ? ORDER BY id LIMIT 1")
    .bind(w.id)
    .first<{ id: number }>();

/** The invitation page's own nonce cookie and CSRF token. */
async function invitationForm(path: string): Promise<FormSession> {
  const page = await getPage(path);
  expect(page.status).toBe(200);
  return { cookie: `tw_console_signin=${nonceOf(page)}`, csrf: csrfOf(await page.text()) };
}

/** Registers a software passkey for a signed-in person through Settings › Account. */
async function registerPasskey(session: FormSession): Promise<SoftwareAuthenticator> {
  const device = await SoftwareAuthenticator.create(ORIGIN);
  const options = await postForm("/app/settings/account/passkeys/options", session, {});
  expect(options.status).toBe(200);
  const credential = await device.register(await options.json());
  const added = await postForm("/app/settings/account/passkeys", session, {
    credential: JSON.stringify(credential),
    name: "test device",
  });
  expect([added.status, await added.json()]).toEqual([200, { next: "/app/settings/account?done=passkey" }]);
  return device;
}

/** The sign-in page's passkey options (its challenge), as the console's script asks for them. */
const passkeyOptions = async (form: FormSession) =>
  (await (await post("/app/sign-in/passkey/options", form.cookie, { _csrf: form.csrf })).json()) as {
    challenge: string;
    rpId: string;
  };

/** Signs in with the passkey from a browser that carries `planted`; the answer of the final post. */
async function passkeySignIn(device: SoftwareAuthenticator, planted: string) {
  const form = await signInForm();
  const cookie = `${form.cookie}; ${planted}`;
  const options = await post("/app/sign-in/passkey/options", cookie, { _csrf: form.csrf });
  expect(options.status).toBe(200);
  const assertion = await device.assert(await options.json());
  return post("/app/sign-in/passkey", cookie, { _csrf: form.csrf, credential: JSON.stringify(assertion) });
}

const FORGED =
  "tw_console=p.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.9999999999.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

describe("session fixation", () => {
  it("gives a new session at every sign-in (password, passkey, invitation): a cookie planted before is never it", async () => {
    const w = await createTestWorkspace("fixation");
    await addMember(w.id, "member", "victim@fix.test");
    await addMember(w.id, "viewer", "attacker@fix.test");
    const attacker = await signInAs("attacker@fix.test");
    const nonce = nonceOf(await getPage("/app/sign-in"))!;
    // Planted: any value, the pre-sign-in nonce as a session, and the attacker's own real session.
    const planted = [FORGED, `tw_console=${nonce}`, attacker.cookie];
    const device = await registerPasskey(await signInAs("victim@fix.test", PASSWORD, "/app/settings/account"));
    const whoIs = async (cookie: string) => {
      const page = await getPage("/app/posts", cookie);
      return page.status === 200 ? (/id="who">([^<]+)</.exec(await page.text())?.[1] ?? "?") : page.status;
    };
    const attackerIs = await whoIs(attacker.cookie);
    for (const [i, plant] of planted.entries()) {
      const form = await signInForm();
      const byPassword = await postForm(
        "/app/sign-in/password",
        { cookie: `${form.cookie}; ${plant}`, csrf: form.csrf },
        { email: "victim@fix.test", password: PASSWORD },
      );
      const byPasskey = await passkeySignIn(device, plant);
      const { path } = await invite(w, `joiner${i}@fix.test`);
      const joining = await invitationForm(path);
      const byInvitation = await postForm(
        path,
        { cookie: `${joining.cookie}; ${plant}`, csrf: joining.csrf },
        { name: "Joiner", password: PASSWORD },
      );
      for (const [how, res, status] of [
        ["password", byPassword, 303],
        ["passkey", byPasskey, 200],
        ["invitation", byInvitation, 303],
      ] as const) {
        expect(res.status, how).toBe(status);
        const cookie = sessionCookieOf(res);
        expect(cookie, how).toBeDefined();
        expect(cookie, how).not.toBe(plant);
        expect(await whoIs(cookie!), how).not.toBe(attackerIs);
      }
      // The planted value is no session of the victim's: refused, or still only the attacker's own.
      expect(await whoIs(plant)).toBe(plant === attacker.cookie ? attackerIs : 303);
    }
  }, 60_000);
});

describe("passkeys and the way back after sign-in", () => {
  it("refuses a replayed passkey assertion and one made for another origin", async () => {
    const w = await createTestWorkspace("passkey replay");
    await addMember(w.id, "member", "keyholder@pk.test");
    const device = await registerPasskey(await signInAs("keyholder@pk.test", PASSWORD, "/app/settings/account"));
    const form = await signInForm();
    const options = await passkeyOptions(form);
    const body = { _csrf: form.csrf, credential: JSON.stringify(await device.assert(options)) };
    expect((await post("/app/sign-in/passkey", form.cookie, body)).status).toBe(200);
    const replayed = await post("/app/sign-in/passkey", form.cookie, body);
    expect([replayed.status, sessionCookieOf(replayed)]).toEqual([400, undefined]);
    // The same passkey asked by a look-alike site: the origin it signed for is not the console's.
    const fresh = await passkeyOptions(form);
    const wrongOrigin = await post("/app/sign-in/passkey", form.cookie, {
      _csrf: form.csrf,
      credential: JSON.stringify(await device.assert(fresh, "http://threadwatch.test.evil.example")),
    });
    expect([wrongOrigin.status, sessionCookieOf(wrongOrigin)]).toEqual([400, undefined]);
  });

  it("sends a person back only to a console path of this site", async () => {
    const w = await createTestWorkspace("next");
    await addMember(w.id, "member", "next@pk.test");
    for (const next of [
      "https://evil.example/app/posts",
      "//evil.example/app",
      "/\\evil.example",
      "/app//evil.example",
      "/app/\\evil.example",
      "/app/sign-in?next=x",
      "javascript:alert(1)",
    ]) {
      const res = await postForm("/app/sign-in/password", await signInForm(), {
        email: "next@pk.test",
        password: PASSWORD,
        next,
      });
      expect([res.status, res.headers.get("location")], next).toEqual([303, "/app/posts"]);
    }
    const kept = await postForm("/app/sign-in/password", await signInForm(), {
      email: "next@pk.test",
      password: PASSWORD,
      next: "/app/keywords",
    });
    expect(kept.headers.get("location")).toBe("/app/keywords");
  });
});

/** Route paths' parameters filled with rows that exist (where a form acts on one), else an id that does not. */
function fill(path: string, ids: Record<string, string>): string {
  return path.replace(/:([a-z_]+)/g, (_, name: string) => {
    const noun = path.split("/")[1]!;
    return ids[`${noun}:${name}`] ?? ids[name] ?? "999999999";
  });
}

describe("CSRF on every POST form of the console", () => {
  const routes = [
    ...new Set(
      createConsoleRouter()
        .routes.filter((r) => r.method === "POST")
        .map((r) => r.path),
    ),
  ];
  /** The forms before sign-in: their token is bound to the `tw_console_signin` nonce. */
  const PRE_SESSION = new Set([
    "/sign-in",
    "/sign-in/password",
    "/sign-in/passkey/options",
    "/sign-in/passkey",
    "/invitations/:token",
  ]);

  it("finds the console's forms (sign-in, account, members, passkeys among them)", () => {
    for (const path of [
      "/sign-in/password",
      "/invitations/:token",
      "/settings/account/password",
      "/settings/members/invitations",
      "/settings/account/passkeys",
    ])
      expect(routes).toContain(path);
    expect(routes.length).toBeGreaterThanOrEqual(34);
  });

  it("refuses each without its token, with another session's, and with a pre-sign-in token once signed in: 403, nothing changed", async () => {
    const w = await createTestWorkspace("csrf");
    const other = await createTestWorkspace("csrf other");
    const owner = await addMember(w.id, "owner", "owner@csrf.test");
    await addMember(other.id, "owner", "owner@csrf.test");
    const target = await addMember(w.id, "member", "target@csrf.test");
    await addMember(other.id, "admin", "attacker@csrf.test");
    const victim = await signInAs("owner@csrf.test", PASSWORD, "/app/settings/account");
    await registerPasskey(victim);
    const second = await signInAs("owner@csrf.test");
    const attacker = await signInAs("attacker@csrf.test");
    const keyword = await addKeyword(w, "kept");
    const competitor = await callJsonKeepingMonitorQueue("/api/v1/competitors", {
      key: w.writeKey,
      method: "POST",
      body: { name: "Rival" },
    });
    const key = await firstKeyOf(w);
    const sessionRow = await env.DB.prepare(
      "SELECT id FROM person_sessions WHERE person_id = ? ORDER BY id DESC LIMIT 1",
    )
      .bind(owner.id)
      .first<{ id: number }>();
    const passkey = await env.DB.prepare("SELECT id FROM passkeys WHERE person_id = ?")
      .bind(owner.id)
      .first<{ id: number }>();
    const { path: invitation } = await invite(w, "newcomer@csrf.test");
    const ids: Record<string, string> = {
      "keywords:id": String(keyword.body.id),
      "competitors:id": String(competitor.body.id),
      person_id: String(target.id),
      session_id: String(sessionRow!.id),
      key_id: String(key!.id),
      passkey_id: String(passkey!.id),
      token: invitation.split("/").pop()!,
    };
    expect(Object.values(ids).every((id) => id && id !== "undefined")).toBe(true);
    // Fields that would make each form do its work (the owner's own password and a live key among them).
    const fields = {
      email: "owner@csrf.test",
      password: PASSWORD,
      current: PASSWORD,
      api_key: w.writeKey,
      name: "Forged",
      keyword: "forged",
      role: "admin",
      scope: "read_write",
      workspace_id: String(other.id),
      is_answered: "true",
      archived: "true",
      credential: "{}",
    };
    const preForm = await signInForm();
    const attackerPre = await signInForm();
    const failures: string[] = [];
    for (const route of routes) {
      const path = `/app${fill(route, ids)}`;
      const variants = PRE_SESSION.has(route)
        ? {
            "no token": { cookie: preForm.cookie },
            "another browser's token": { cookie: preForm.cookie, _csrf: attackerPre.csrf },
            "a session's token": { cookie: `${preForm.cookie}; ${victim.cookie}`, _csrf: victim.csrf },
          }
        : {
            "no token": { cookie: victim.cookie },
            "another session's token": { cookie: victim.cookie, _csrf: attacker.csrf },
            "the same person's other session's token": { cookie: victim.cookie, _csrf: second.csrf },
            "the pre-sign-in token": { cookie: `${victim.cookie}; ${preForm.cookie}`, _csrf: preForm.csrf },
          };
      const before = await snapshot();
      for (const [name, { cookie, _csrf }] of Object.entries(variants) as [
        string,
        { cookie: string; _csrf?: string },
      ][]) {
        const res = await post(path, cookie, _csrf === undefined ? fields : { ...fields, _csrf });
        const text = await res.text();
        if (res.status !== 403 || !/security token|stale form/.test(text))
          failures.push(`POST ${route} with ${name}: ${res.status} ${text.slice(0, 80)}`);
      }
      if ((await snapshot()) !== before) failures.push(`POST ${route}: something changed`);
    }
    expect(failures).toEqual([]);
    // The victim's session is still signed in and still theirs.
    expect((await getPage("/app/posts", victim.cookie)).status).toBe(200);
  }, 120_000);
});

describe("invitations", () => {
  it("answers a guessed, truncated or altered token exactly as an unknown one, by GET and by POST", async () => {
    const w = await createTestWorkspace("guessing");
    const { path } = await invite(w, "guessed@inv.test");
    const token = path.split("/").pop()!;
    const flip = (t: string, i: number) => t.slice(0, i) + (t[i] === "A" ? "B" : "A") + t.slice(i + 1);
    const unknown = await getPage(`/app/invitations/${"x".repeat(43)}`);
    const expected = await unknown.text();
    expect(unknown.status).toBe(410);
    const form = await signInForm();
    for (const guess of [token.slice(0, 42), `${token}A`, flip(token, 0), flip(token, 42), "1", "..%2F..", ""]) {
      const page = await getPage(`/app/invitations/${guess}`);
      if (guess === "") {
        expect(page.status).not.toBe(200); // no token at all: no invitation page
        continue;
      }
      expect([page.status, await page.text()], guess).toEqual([410, expected]);
      const accepted = await postForm(`/app/invitations/${guess}`, form, { name: "Guesser", password: PASSWORD });
      expect([accepted.status, await accepted.text()], guess).toEqual([410, expected]);
    }
    expect((await getPage(path)).status).toBe(200); // the real one is untouched
  });

  it("joins only the invitation's workspace with the invitation's role, whatever the form adds", async () => {
    const a = await createTestWorkspace("inviting");
    const b = await createTestWorkspace("elsewhere");
    const { path } = await invite(a, "joiner@inv.test", "viewer");
    const form = await invitationForm(path);
    const res = await postForm(path, form, {
      name: "Joiner",
      password: PASSWORD,
      role: "owner",
      workspace_id: String(b.id),
      email: "someone.else@inv.test",
    });
    expect(res.status).toBe(303);
    const people = await env.DB.prepare("SELECT id, email FROM people WHERE email LIKE '%@inv.test'").all<{
      id: number;
      email: string;
    }>();
    expect(people.results.map((p) => p.email)).toEqual(["joiner@inv.test"]);
    const memberships = await env.DB.prepare("SELECT workspace_id, role FROM memberships WHERE person_id = ?")
      .bind(people.results[0]!.id)
      .all();
    expect(memberships.results).toEqual([{ workspace_id: a.id, role: "viewer" }]);
    // Used: refused by GET and POST, and nothing more is made.
    expect((await getPage(path)).status).toBe(410);
    expect((await postForm(path, form, { name: "Again", password: PASSWORD })).status).toBe(410);
  });

  it("refuses an invitation past its 7 days, by POST too, and makes no person", async () => {
    const w = await createTestWorkspace("late");
    const { id, path } = await invite(w, "late@inv.test");
    const form = await invitationForm(path);
    // Just past its expiry (what 7 days and a second look like from the invitation's side).
    await env.DB.prepare("UPDATE invitations SET expires_at = ? WHERE id = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), id)
      .run();
    const before = await snapshot();
    const res = await postForm(path, form, { name: "Late", password: PASSWORD });
    expect(res.status).toBe(410);
    expect(sessionCookieOf(res)).toBeUndefined();
    expect(await snapshot()).toBe(before);
  });

  it("cannot set an existing person's password, and never names their other workspaces", async () => {
    const mine = await createTestWorkspace("Secret Workspace Alpha");
    const theirs = await createTestWorkspace("Inviting Workspace Beta");
    const person = await addMember(mine.id, "member", "existing@inv.test");
    const { path } = await invite(theirs, "existing@inv.test", "viewer");
    const page = await getPage(path);
    const html = await page.text();
    expect(html).toContain("Inviting Workspace Beta");
    expect(html).not.toContain("Secret Workspace Alpha");
    const form = { cookie: `tw_console_signin=${nonceOf(page)}`, csrf: csrfOf(html) };
    const hash = () =>
      env.DB.prepare("SELECT password_hash, password_salt FROM people WHERE id = ?").bind(person.id).first();
    const stored = await hash();
    const hijack = await postForm(path, form, { name: "Hijacker", password: "attacker chosen password" });
    expect(hijack.status).toBe(400);
    expect(await hijack.text()).not.toContain("Secret Workspace Alpha");
    expect(await hash()).toEqual(stored);
    const signIn = await postForm("/app/sign-in/password", await signInForm(), {
      email: "existing@inv.test",
      password: "attacker chosen password",
    });
    expect(signIn.status).toBe(401);
    expect(await roleIn(theirs.id, person.id)).toBeUndefined();
  });
  it("limits password guesses through an invitation to an existing account like sign-in's", async () => {
    const mine = await createTestWorkspace("guessed account");
    const theirs = await createTestWorkspace("guessing admin");
    await addMember(mine.id, "member", "target@guess.test");
    // An admin may invite any email and holds the link: its password field must not be an unlimited oracle.
    const { path } = await invite(theirs, "target@guess.test", "viewer");
    const form = await invitationForm(path);
    for (let i = 0; i < 5; i++)
      expect((await postForm(path, form, { password: `guess number ${i}!` }, `198.51.100.${120 + i}`)).status).toBe(
        400,
      );
    const limited = await postForm(path, form, { password: PASSWORD }, "198.51.100.130");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(800);
    // The same count as the sign-in form's: the account's own sign-in is limited too, and nothing was joined.
    const signIn = await postForm("/app/sign-in/password", await signInForm(), {
      email: "target@guess.test",
      password: PASSWORD,
    });
    expect(signIn.status).toBe(429);
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM memberships WHERE workspace_id = ?").bind(theirs.id).first("n"),
    ).toBe(0);
  }, 60_000);
});

describe("role escalation through forged fields and swapped ids", () => {
  it("refuses a member, an admin and the last owner what their role does not allow; nothing changes", async () => {
    const w = await createTestWorkspace("escalate");
    const owner = await addMember(w.id, "owner", "owner@esc2.test");
    const admin = await addMember(w.id, "admin", "admin@esc2.test");
    const member = await addMember(w.id, "member", "member@esc2.test");
    const viewer = await addMember(w.id, "viewer", "viewer@esc2.test");
    const asMember = await signInAs("member@esc2.test", PASSWORD, "/app/settings/api");
    const asAdmin = await signInAs("admin@esc2.test", PASSWORD, "/app/settings/members");
    const asOwner = await signInAs("owner@esc2.test", PASSWORD, "/app/settings/members");
    const before = await snapshot();
    const refusals: [FormSession, string, Record<string, string>, number][] = [
      [asMember, `/app/settings/members/${member.id}`, { role: "owner" }, 403],
      [asMember, `/app/settings/members/${viewer.id}`, { role: "owner" }, 403],
      [asMember, "/app/settings/members/invitations", { email: "friend@esc2.test", role: "owner" }, 403],
      [asAdmin, `/app/settings/members/${member.id}`, { role: "owner" }, 403],
      [asAdmin, `/app/settings/members/${owner.id}`, { role: "admin" }, 403],
      [asAdmin, `/app/settings/members/${owner.id}/delete`, {}, 403],
      [asOwner, `/app/settings/members/${owner.id}`, { role: "admin" }, 409],
      [asOwner, `/app/settings/members/${owner.id}/delete`, {}, 409],
    ];
    for (const [session, path, fields, status] of refusals)
      expect((await postForm(path, session, fields)).status, `${path} ${JSON.stringify(fields)}`).toBe(status);
    expect(await snapshot()).toBe(before);
    expect([await roleIn(w.id, owner.id), await roleIn(w.id, admin.id), await roleIn(w.id, member.id)]).toEqual([
      "owner",
      "admin",
      "member",
    ]);
  });

  it("gives a member's new key the member's ceiling whatever the form says, and the API refuses forged fields", async () => {
    const w = await createTestWorkspace("ceiling");
    const other = await createTestWorkspace("ceiling other");
    const member = await addMember(w.id, "member", "member@ceil.test");
    const s = await signInAs("member@ceil.test", PASSWORD, "/app/settings/api");
    const made = await postForm("/app/settings/api/keys", s, {
      name: "forged",
      scope: "read_write",
      role: "owner",
      ceiling: "owner",
      person_id: "1",
      workspace_id: String(other.id),
    });
    expect(made.status).toBe(200);
    const key = /id="new-key">([^<]+)</.exec(await made.text())![1]!;
    const row = await env.DB.prepare(
      "SELECT workspace_id, role, person_id, scope FROM api_keys WHERE name = 'forged'",
    ).first();
    expect(row).toEqual({ workspace_id: w.id, role: "member", person_id: member.id, scope: "read_write" });
    const escalate = await call("/api/v1/actions/members/invitations", {
      key,
      method: "POST",
      body: { email: "x@ceil.test", role: "admin" },
    });
    expect(escalate.status).toBe(403);
    // An admin key's API bodies are strict: a forged field is a 400, not a silent extra.
    const adminKey = await keyWith(w.id, "read_write", "admin");
    const before = await snapshot();
    for (const [path, method, body] of [
      [`/api/v1/actions/members/${member.id}`, "PATCH", { role: "admin", ceiling: "owner" }],
      ["/api/v1/actions/members/invitations", "POST", { email: "y@ceil.test", role: "member", workspace_id: other.id }],
    ] as const) {
      const res = await callJson(path, { key: adminKey, method, body });
      expect([res.status, res.body.error.code], path).toEqual([400, "validation_failed"]);
    }
    expect(await snapshot()).toBe(before);
  });

  it("cannot act on a workspace the person is not a member of: the switch is refused, its ids are not found", async () => {
    const mine = await createTestWorkspace("mine");
    const theirs = await createTestWorkspace("theirs");
    await addMember(mine.id, "owner", "owner@swap.test");
    const stranger = await addMember(theirs.id, "member", "stranger@swap.test");
    const kw = await addKeyword(theirs, "theirs");
    const theirKey = await firstKeyOf(theirs);
    const s = await signInAs("owner@swap.test");
    const before = await snapshot();
    const tries: [string, Record<string, string>, number][] = [
      ["/app/workspace", { workspace_id: String(theirs.id) }, 403],
      [`/app/keywords/${kw.body.id}/delete`, {}, 404],
      [`/app/keywords/${kw.body.id}`, { keyword: "stolen" }, 400], // shown beside the form: no such keyword
      [`/app/settings/members/${stranger.id}`, { role: "viewer" }, 404],
      [`/app/settings/members/${stranger.id}/delete`, {}, 404],
      [`/app/settings/api/keys/${theirKey!.id}/revoke`, {}, 404],
    ];
    for (const [path, fields, status] of tries) expect((await postForm(path, s, fields)).status, path).toBe(status);
    expect(await snapshot()).toBe(before);
    // A workspace id added to a form that makes something: made in the session's own workspace only.
    const added = await postForm("/app/keywords", s, { keyword: "added here", workspace_id: String(theirs.id) });
    expect(added.status).toBe(303);
    const where = await env.DB.prepare("SELECT workspace_id FROM keywords WHERE keyword = 'added here'").all();
    expect(where.results).toEqual([{ workspace_id: mine.id }]);
    expect(await (await getPage("/app/posts", s.cookie)).text()).toContain("mine · owner");
  });
});

/** A sign-in answer with what may differ between any two requests taken out: its date, request id, and the email echoed. */
async function comparable(res: Response, email: string, skip: string[] = []) {
  const drop = new Set(["date", "x-request-id", ...skip]);
  const headers = [...res.headers].filter(([name]) => !drop.has(name));
  return { status: res.status, headers, body: (await res.text()).replaceAll(email, "EMAIL") };
}

describe("enumeration", () => {
  it("answers an unknown email and a wrong password with the same status, headers and bytes", async () => {
    const w = await createTestWorkspace("enumerate");
    await addMember(w.id, "member", "known@enum.test");
    const form = await signInForm();
    const known = await postForm(
      "/app/sign-in/password",
      form,
      { email: "known@enum.test", password: "wrong password!!" },
      "198.51.100.61",
    );
    const unknown = await postForm(
      "/app/sign-in/password",
      form,
      { email: "ghost@enum.test", password: "wrong password!!" },
      "198.51.100.62",
    );
    expect(known.status).toBe(401);
    expect(await comparable(unknown, "ghost@enum.test")).toEqual(await comparable(known, "known@enum.test"));
  });

  it("limits a known and an unknown email alike: the same 429, headers and bytes after 5 failures", async () => {
    const w = await createTestWorkspace("enumerate limit");
    await addMember(w.id, "member", "known@limit.test");
    const form = await signInForm();
    const attempt = (email: string, i: number) =>
      postForm("/app/sign-in/password", form, { email, password: PASSWORD }, `198.51.100.${70 + i}`);
    for (let i = 0; i < 5; i++) {
      await postForm(
        "/app/sign-in/password",
        form,
        { email: "known@limit.test", password: "wrong wrong wrong" },
        `198.51.100.${80 + i}`,
      );
      await postForm(
        "/app/sign-in/password",
        form,
        { email: "ghost@limit.test", password: "wrong wrong wrong" },
        `198.51.100.${90 + i}`,
      );
    }
    // The right password of the known email is refused all the same: nothing tells it apart.
    const known = await attempt("known@limit.test", 0);
    const unknown = await attempt("ghost@limit.test", 1);
    expect(known.status).toBe(429);
    const [k, u] = [Number(known.headers.get("retry-after")), Number(unknown.headers.get("retry-after"))];
    expect(k).toBeGreaterThan(890);
    expect(Math.abs(k - u)).toBeLessThanOrEqual(1); // the oldest failures of each are milliseconds apart
    expect(await comparable(unknown, "ghost@limit.test", ["retry-after"])).toEqual(
      await comparable(known, "known@limit.test", ["retry-after"]),
    );
  });

  it("derives PBKDF2 with the stored iteration count for an unknown email as for a known one", async () => {
    const w = await createTestWorkspace("enumerate work");
    await addMember(w.id, "member", "known@work.test");
    // A pass-through spy on the runtime's WebCrypto (not on our code): it records, then derives for real.
    const derive = vi.spyOn(crypto.subtle, "deriveBits");
    const iterations = async (email: string) => {
      derive.mockClear();
      await signInWithPassword(env, directoryDb(env), {
        email,
        password: "wrong password!!",
        addressBucket: "192.0.2.77",
      });
      return derive.mock.calls.map(([algorithm]) => (algorithm as { iterations?: number }).iterations);
    };
    try {
      expect(await iterations("known@work.test")).toEqual([100_000]);
      expect(await iterations("ghost@work.test")).toEqual([100_000]);
    } finally {
      derive.mockRestore();
    }
  });
});

describe("failure limits", () => {
  const ADDRESS = "203.0.113.150";
  const tryIt = (email: string, password: string, address = ADDRESS) =>
    signInForm().then((form) => postForm("/app/sign-in/password", form, { email, password }, address));

  it("limits one email without blocking another from the same address until the address's 20", async () => {
    const w = await createTestWorkspace("limits");
    await addMember(w.id, "member", "limited@lim.test");
    await addMember(w.id, "member", "other@lim.test");
    for (let i = 0; i < 5; i++) expect((await tryIt("limited@lim.test", "wrong wrong wrong")).status).toBe(401);
    const limited = await tryIt("limited@lim.test", PASSWORD);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // The email is limited from any address; another email from this one still signs in.
    expect((await tryIt("limited@lim.test", PASSWORD, "203.0.113.151")).status).toBe(429);
    expect((await tryIt("other@lim.test", PASSWORD)).status).toBe(303);
    for (let i = 5; i < 20; i++)
      expect((await tryIt(`nobody${i}@lim.test`, "wrong wrong wrong")).status, `failure ${i + 1}`).toBe(401);
    const blocked = await tryIt("other@lim.test", PASSWORD);
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await tryIt("other@lim.test", PASSWORD, "203.0.113.152")).status).toBe(303);
  }, 60_000);

  it("counts failures for 15 minutes only", async () => {
    const w = await createTestWorkspace("window");
    await addMember(w.id, "member", "window@lim.test");
    for (let i = 0; i < 5; i++) await tryIt("window@lim.test", "wrong wrong wrong", `203.0.113.${160 + i}`);
    const age = (minutes: number) =>
      env.DB.prepare("UPDATE sign_in_failures SET at = ? WHERE bucket LIKE 'email:%'")
        .bind(new Date(Date.now() - minutes * 60_000).toISOString())
        .run();
    await age(14);
    const still = await tryIt("window@lim.test", PASSWORD, "203.0.113.170");
    expect(still.status).toBe(429);
    expect(Number(still.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    await age(15.1);
    expect((await tryIt("window@lim.test", PASSWORD, "203.0.113.171")).status).toBe(303);
  });
});

const sessionRows = (personId: number) =>
  env.DB.prepare("SELECT id, workspace_id, revoked_at FROM person_sessions WHERE person_id = ? ORDER BY id")
    .bind(personId)
    .all<{ id: number; workspace_id: number; revoked_at: string | null }>()
    .then((r) => r.results);

describe("sessions", () => {
  it("ends a revoked session at its next request; another person cannot revoke it", async () => {
    const w = await createTestWorkspace("revoke");
    const person = await addMember(w.id, "member", "revoker@sess.test");
    await addMember(w.id, "admin", "meddler@sess.test");
    const one = await signInAs("revoker@sess.test");
    const two = await signInAs("revoker@sess.test", PASSWORD, "/app/settings/account");
    const [first, second] = await sessionRows(person.id);
    const meddler = await signInAs("meddler@sess.test");
    expect((await postForm(`/app/settings/account/sessions/${second!.id}/revoke`, meddler, {})).status).toBe(404);
    expect((await getPage("/app/posts", two.cookie)).status).toBe(200);
    expect((await postForm(`/app/settings/account/sessions/${first!.id}/revoke`, two, {})).status).toBe(303);
    expect((await getPage("/app/posts", one.cookie)).status).toBe(303);
    expect((await postForm("/app/keywords", one, { keyword: "after revoke" })).status).toBe(303);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM keywords WHERE keyword = 'after revoke'").first("n")).toBe(
      0,
    );
    expect((await getPage("/app/posts", two.cookie)).status).toBe(200);
  });

  it("ends every other session at a password change, in every workspace, and none at a wrong current password", async () => {
    const a = await createTestWorkspace("password a");
    const b = await createTestWorkspace("password b");
    await addMember(a.id, "member", "changer@sess.test");
    await addMember(b.id, "member", "changer@sess.test");
    const elsewhere = await signInAs("changer@sess.test");
    expect((await postForm("/app/workspace", elsewhere, { workspace_id: String(b.id) })).status).toBe(303);
    const here = await signInAs("changer@sess.test", PASSWORD, "/app/settings/account");
    const wrong = await postForm("/app/settings/account/password", here, {
      current: "not my password",
      password: "a new long password",
    });
    expect(wrong.status).toBe(400);
    expect((await getPage("/app/posts", elsewhere.cookie)).status).toBe(200);
    const changed = await postForm("/app/settings/account/password", here, {
      current: PASSWORD,
      password: "a new long password",
    });
    expect(changed.status).toBe(303);
    expect((await getPage("/app/posts", elsewhere.cookie)).status).toBe(303);
    expect((await getPage("/app/posts", here.cookie)).status).toBe(200);
  });

  it("ends a removed member's sessions in that workspace for good; their sessions elsewhere stay but cannot switch back", async () => {
    const a = await createTestWorkspace("removing a");
    const b = await createTestWorkspace("removing b");
    const person = await addMember(a.id, "member", "removed@sess.test");
    await addMember(b.id, "viewer", "removed@sess.test");
    const inA = await signInAs("removed@sess.test");
    const inB = await signInAs("removed@sess.test");
    expect((await postForm("/app/workspace", inB, { workspace_id: String(b.id) })).status).toBe(303);
    expect((await call(`/api/v1/actions/members/${person.id}`, { key: a.writeKey, method: "DELETE" })).status).toBe(
      204,
    );
    expect((await getPage("/app/posts", inA.cookie)).status).toBe(303);
    expect((await sessionRows(person.id)).map((s) => [s.workspace_id, s.revoked_at !== null])).toEqual([
      [a.id, true],
      [b.id, false],
    ]);
    // Still a member of B: that session goes on, and cannot point itself back at A.
    expect(await (await getPage("/app/posts", inB.cookie)).text()).toContain("removing b · viewer");
    expect((await postForm("/app/workspace", inB, { workspace_id: String(a.id) })).status).toBe(403);
    expect((await postForm("/app/keywords", inB, { keyword: "into a" })).status).toBe(403);
    // Invited back later, the old session of A stays ended.
    await addMember(a.id, "member", "removed@sess.test");
    expect((await getPage("/app/posts", inA.cookie)).status).toBe(303);
  });
});

const SECURITY_HEADERS = [
  "content-security-policy",
  "x-frame-options",
  "referrer-policy",
  "x-content-type-options",
  "cache-control",
];

describe("security headers", () => {
  it("are the sign-in page's on every people page and passkey door, and every cookie is HttpOnly, Secure, SameSite=Strict", async () => {
    const w = await createTestWorkspace("headers");
    await addMember(w.id, "owner", "owner@hdr.test");
    const reference = await getPage("/app/sign-in");
    const expected = SECURITY_HEADERS.map((h) => [h, reference.headers.get(h)]);
    expect(Object.fromEntries(expected)).toMatchObject({
      "x-frame-options": "DENY",
      "x-content-type-options": "nosniff",
      "referrer-policy": "same-origin",
      "cache-control": "no-store",
      "content-security-policy": expect.stringContaining("frame-ancestors 'none'"),
    });
    const owner = await signInAs("owner@hdr.test", PASSWORD, "/app/settings/account");
    const form = await signInForm();
    const { path } = await invite(w, "joiner@hdr.test");
    const answers: [string, Response][] = [
      ["sign-in page", reference],
      [
        "password refused",
        await postForm("/app/sign-in/password", form, { email: "owner@hdr.test", password: "wrong password!!" }),
      ],
      [
        "password accepted",
        await postForm("/app/sign-in/password", form, { email: "owner@hdr.test", password: PASSWORD }),
      ],
      ["invitation page", await getPage(path)],
      ["invitation unknown", await getPage(`/app/invitations/${"y".repeat(43)}`)],
      ["invitation accepted", await postForm(path, await invitationForm(path), { name: "J", password: PASSWORD })],
      ["account", await getPage("/app/settings/account", owner.cookie)],
      ["members", await getPage("/app/settings/members", owner.cookie)],
      ["audit", await getPage("/app/settings/audit", owner.cookie)],
      [
        "password change refused",
        await postForm("/app/settings/account/password", owner, { current: "nope", password: "x" }),
      ],
      ["passkey sign-in options", await postForm("/app/sign-in/passkey/options", form, {})],
      ["passkey sign-in refused", await postForm("/app/sign-in/passkey", form, { credential: "{}" })],
      ["passkey registration options", await postForm("/app/settings/account/passkeys/options", owner, {})],
      ["passkey registration refused", await postForm("/app/settings/account/passkeys", owner, { credential: "{}" })],
      ["CSRF refusal", await postForm("/app/settings/account/password", { ...owner, csrf: "forged" }, {})],
    ];
    const cookies: string[] = [];
    for (const [name, res] of answers) {
      expect(
        SECURITY_HEADERS.map((h) => [h, res.headers.get(h)]),
        `${name} (${res.status})`,
      ).toEqual(expected);
      cookies.push(...res.headers.getSetCookie());
    }
    const set = cookies.filter((c) => /^tw_console(_signin)?=[^;]/.test(c));
    expect(set.length).toBeGreaterThanOrEqual(3);
    for (const cookie of set) {
      expect(cookie).toMatch(/; HttpOnly/);
      expect(cookie).toMatch(/; Secure/);
      expect(cookie).toMatch(/; SameSite=Strict/);
      expect(cookie).toMatch(/; Path=\/app/);
    }
  }, 60_000);
});

const DOCS = import.meta.glob("/docs/security.md", { query: "?raw", import: "default", eager: true }) as Record<
  string,
  string
>;

describe("password reset", () => {
  const PATHS = [
    "/password-reset",
    "/reset-password",
    "/forgot-password",
    "/password/reset",
    "/password/forgot",
    "/sign-in/reset",
    "/sign-in/forgot",
    "/account/recover",
    "/settings/account/reset",
  ];

  it("is absent by design: no such route in the console or the API, no link on the sign-in page, the reason in the docs", async () => {
    const w = await createTestWorkspace("no reset");
    await addMember(w.id, "member", "forgetful@reset.test");
    const s = await signInAs("forgetful@reset.test");
    const nowhere = await (await getPage("/app/no-such-page", s.cookie)).text();
    for (const path of PATHS) {
      const signedIn = await getPage(`/app${path}`, s.cookie);
      expect([signedIn.status, await signedIn.text()], path).toEqual([404, nowhere]);
      const posted = await postForm(`/app${path}`, s, { email: "forgetful@reset.test" });
      expect(posted.status, path).toBe(404);
      // Signed out, any path behind sign-in asks for it, a reset one as a made-up one.
      expect((await getPage(`/app${path}`)).headers.get("location"), path).toBe(
        `/app/sign-in?next=${encodeURIComponent(`/app${path}`)}`,
      );
      for (const method of ["GET", "POST"])
        expect((await call(`/api/v1${path}`, { key: w.writeKey, method })).status, `${method} /api/v1${path}`).toBe(
          404,
        );
    }
    const page = await (await getPage("/app/sign-in")).text();
    expect(page).not.toMatch(/reset|forgot|recover/i);
    const docs = DOCS["/docs/security.md"]!;
    expect(docs).toContain("**Password reset: absent by design.**");
    expect(docs).toMatch(/no channel to prove who owns an\s+address/);
    expect(docs).toMatch(/invitation never sets the password of an existing person/);
  }, 60_000);
});
