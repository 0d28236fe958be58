// People in the console, in a real Chromium against the real Worker (wrangler dev): each case a walk a person
// does, asserting what they see. An invitation accepted (a too-short password refused, the used link a 410
// page); password sign-in (one message for a wrong password and an unknown email), sessions listed and
// ended, a password change ending the others; a passkey registered and used through Chromium's DevTools
// virtual authenticator (SimpleWebAuthn's server side running in workerd); one person switching between a
// workspace they own and one they only view (no buttons, a forged POST 403); a team of four where the admin
// removes the member and nobody else is touched; and an approval naming the person who approved.

import type { Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs helper of the project's scripts (no type declarations)
import { addVirtualAuthenticator } from "../../scripts/lib/virtual-authenticator.mjs";
import { type Harness, newPage as openPage, screenshot, seriousA11yViolations, startHarness, submit } from "./harness";

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
}, 400_000);

afterAll(async () => {
  await h?.close();
});

/** The one message of every refused password sign-in (src/people/sign-in.ts). */
const REFUSED = "That email and password do not match an account.";
const PASSWORD = "correct horse battery staple";

const newPage = () => openPage(h.browser);

async function goto(page: Page, pathname: string): Promise<number> {
  return (await page.goto(`${h.base}${pathname}`))?.status() ?? 0;
}

const text = (page: Page, selector: string) => page.$eval(selector, (el) => el.textContent ?? "");
const pathOf = (page: Page) => new URL(page.url()).pathname;

async function expectAccessible(page: Page) {
  const violations = await seriousA11yViolations(page);
  expect(violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual(
    [],
  );
}

/** An invitation made through the admin API (an owner's ceiling); its single-use link. */
async function invite(workspaceId: number, email: string, role: string): Promise<string> {
  const made = await h.admin("POST", `/workspaces/${workspaceId}/invitations`, { email, role });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body.url as string;
}

/** Opens an invitation's link and joins: a new person's name and password, or an existing one's password. */
async function accept(page: Page, url: string, password: string, name?: string): Promise<number> {
  await page.goto(url);
  if (name !== undefined) await page.type("#f-name", name);
  await page.type("#f-password", password);
  return submit(page, "form[aria-label='Accept the invitation'] button[type=submit]");
}

/** A new person, invited and joined in a browser of their own: signed in on the console. */
async function join(workspaceId: number, email: string, role: string, name: string): Promise<Page> {
  const page = await newPage();
  await accept(page, await invite(workspaceId, email, role), PASSWORD, name);
  expect(pathOf(page)).toBe("/app/posts");
  return page;
}

async function signInWithPassword(page: Page, email: string, password: string): Promise<number> {
  await goto(page, "/app/sign-in");
  await page.type("#f-email", email);
  await page.type("#f-password", password);
  return submit(page, "form[action='/app/sign-in/password'] button[type=submit]");
}

const signOut = (page: Page) => submit(page, "form[action='/app/sign-out'] button");

/** Whether the page's browser is still signed in: a console page opens instead of the sign-in page. */
async function signedIn(page: Page, pathname = "/app/posts"): Promise<boolean> {
  await goto(page, pathname);
  return pathOf(page) === pathname;
}

/** A new workspace (admin API) with a read_write key for the checks made through the API. */
async function workspace(name: string): Promise<{ id: number; key: string }> {
  const made = await h.admin("POST", "/workspaces", { name });
  expect(made.status).toBe(201);
  const key = await h.admin("POST", `/workspaces/${made.body.id}/keys`, { name: "checks", scope: "read_write" });
  expect(key.status, JSON.stringify(key.body)).toBe(201);
  return { id: made.body.id, key: key.body.key };
}

/** The session's CSRF token, as any of its forms carries it. */
const csrfOf = (page: Page) => page.$eval("form[action='/app/sign-out'] input[name=_csrf]", (el) => (el as any).value);

/** A POST from inside the page (its cookies, its origin), as a forged form would be sent. */
function postFromPage(page: Page, action: string, fields: Record<string, string>): Promise<number> {
  return page.evaluate(
    async (a, f) => (await fetch(a, { method: "POST", body: new URLSearchParams(f), redirect: "manual" })).status,
    action,
    fields,
  );
}

/**
 * Clicks a passkey button and waits for the ceremony's end: undefined once the page has moved on (the Worker
 * accepted), else the refusal the page shows.
 */
async function passkeyCeremony(page: Page, button: string): Promise<string | undefined> {
  const moved = page.waitForNavigation().then(() => undefined);
  const refused = page.waitForSelector("#passkey-error:not([hidden])").then(
    (el) => el?.evaluate((e) => (e as any).textContent ?? ""),
    () => undefined,
  );
  await page.click(button);
  return Promise.race([moved, refused]);
}

describe("people in the console, in Chromium", () => {
  it("invitation: the invitee sets a name and password, lands signed in, and the used link says so", async () => {
    const email = "owner.one@example.com";
    const url = await invite(h.workspaceId, email, "owner");
    expect(new URL(url).origin).toBe(h.base);
    const page = await newPage();
    expect((await page.goto(url))?.status()).toBe(200);
    expect(await text(page, "main")).toContain(`You are invited to Console test as owner, as ${email}.`);
    await expectAccessible(page);
    await screenshot(page, "invitation");

    // Too short: refused beside the field, the name kept, nothing made.
    expect(await accept(page, url, "short pass", "Olive Owner")).toBe(400);
    expect(await text(page, "#f-password-error")).toBe("at least 12 characters");
    expect(await page.$eval("#f-name", (el) => (el as any).value)).toBe("Olive Owner");
    await expectAccessible(page);

    expect(await accept(page, url, PASSWORD, "Olive Owner")).toBe(200);
    expect(pathOf(page)).toBe("/app/posts");
    expect(await text(page, "#who")).toContain("Olive Owner · Console test · owner");
    const members = await h.api(h.writeKey, "GET", "/actions/members");
    expect(members.body.data).toContainEqual(expect.objectContaining({ email, name: "Olive Owner", role: "owner" }));

    // The link is single-use: opened again, a 410 page that says so (and no form).
    const again = await newPage();
    expect((await again.goto(url))?.status()).toBe(410);
    expect(await text(again, "main")).toContain("This invitation has been used or has expired");
    expect(await again.$("form[aria-label='Accept the invitation']")).toBeNull();
    await expectAccessible(again);
  }, 180_000);

  it("password sign-in: one message for every refusal, sessions listed and ended, a new password ends the others", async () => {
    const email = "pat.password@example.com";
    const page = await join(h.workspaceId, email, "member", "Pat Password");
    await signOut(page);
    expect(pathOf(page)).toBe("/app/sign-in");
    await expectAccessible(page);
    await screenshot(page, "sign-in-person");

    // A wrong password and an unknown email get the same words, beside the form, and no session.
    expect(await signInWithPassword(page, email, "not the password at all")).toBe(401);
    const wrong = await text(page, "#password-error");
    expect(wrong).toBe(REFUSED);
    expect(await page.$eval("#f-email", (el) => (el as any).value)).toBe(email);
    expect(await signInWithPassword(page, "nobody.here@example.com", "not the password at all")).toBe(401);
    expect(await text(page, "#password-error")).toBe(wrong);
    await expectAccessible(page);
    expect(await signedIn(page)).toBe(false);

    expect(await signInWithPassword(page, email, PASSWORD)).toBe(200);
    expect(pathOf(page)).toBe("/app/posts");
    expect(await text(page, "#who")).toContain("Pat Password · Console test · member");

    // A second browser signs in as the same person; both sessions are listed, this one marked.
    const other = await newPage();
    await signInWithPassword(other, email, PASSWORD);
    expect(pathOf(other)).toBe("/app/posts");
    await goto(page, "/app/settings/account");
    const rows = await page.$$eval("#sessions tbody tr", (trs) => trs.map((tr) => tr.textContent ?? ""));
    expect(rows).toHaveLength(2); // the invitation's session ended at sign-out
    expect(rows.filter((r) => r.includes("this session"))).toHaveLength(1);
    expect(rows.every((r) => r.includes("password"))).toBe(true);
    await expectAccessible(page);

    // Ending the other session: that browser is signed out on its next page.
    expect(await submit(page, "#sessions tbody tr form button.danger")).toBe(200);
    expect(await text(page, "#done")).toContain("Session ended.");
    expect(await page.$$("#sessions tbody tr")).toHaveLength(1);
    await goto(other, "/app/keywords");
    expect(pathOf(other)).toBe("/app/sign-in");
    expect(await text(other, "main")).toContain("Your session has ended");

    // A password change (the current one wrong first: refused beside its field) ends every other session.
    await signInWithPassword(other, email, PASSWORD);
    expect(pathOf(other)).toBe("/app/posts");
    await goto(page, "/app/settings/account");
    await page.type("#f-current", "not my password either");
    await page.type("#f-password", "a brand new passphrase");
    expect(await submit(page, "form[action='/app/settings/account/password'] button[type=submit]")).toBe(400);
    expect(await text(page, "#f-current-error")).toBe("that is not your current password");
    await page.type("#f-current", PASSWORD);
    await page.type("#f-password", "a brand new passphrase");
    expect(await submit(page, "form[action='/app/settings/account/password'] button[type=submit]")).toBe(200);
    expect(await text(page, "#done")).toContain("every other session of yours has been signed out");
    expect(await page.$$("#sessions tbody tr")).toHaveLength(1);
    expect(await signedIn(other)).toBe(false);
    expect(await signedIn(page)).toBe(true);
    expect(await signInWithPassword(other, email, PASSWORD)).toBe(401);
    expect(await signInWithPassword(other, email, "a brand new passphrase")).toBe(200);
    expect(pathOf(other)).toBe("/app/posts");
  }, 240_000);

  it("passkey: registered in Settings › Account and used to sign in, through Chromium's virtual authenticator", async () => {
    const page = await join(h.workspaceId, "kim.passkey@example.com", "member", "Kim Passkey");
    // Chromium's DevTools virtual authenticator (ctap2, internal, resident keys, the user verified).
    const { credentials } = await addVirtualAuthenticator(page);
    await goto(page, "/app/settings/account");
    expect(await text(page, "main")).toContain("No passkey yet.");
    await page.$eval("#f-passkey_name", (el) => {
      (el as any).value = "";
    });
    await page.type("#f-passkey_name", "Kim's laptop");
    expect(await passkeyCeremony(page, "#passkey-add")).toBeUndefined();
    expect(await text(page, "#done")).toContain("Passkey added");
    expect(await text(page, "#passkeys tbody tr td")).toBe("Kim's laptop");
    const registered = await credentials();
    expect(registered).toHaveLength(1);
    expect(registered[0]!.isResidentCredential).toBe(true);
    expect(registered[0]!.rpId).toBe(new URL(h.base).hostname);
    const countAfterRegistration = registered[0]!.signCount;
    await expectAccessible(page);
    await screenshot(page, "account");

    // Signed out, back in with the passkey alone: the Worker verified the assertion.
    await signOut(page);
    expect(await passkeyCeremony(page, "#passkey-button")).toBeUndefined();
    expect(pathOf(page)).toBe("/app/posts");
    expect(await text(page, "#who")).toContain("Kim Passkey · Console test · member");
    const used = await credentials();
    expect(used[0]!.signCount).toBeGreaterThan(countAfterRegistration);
    await goto(page, "/app/settings/account");
    const row = await page.$$eval("#passkeys tbody tr td", (tds) => tds.map((td) => td.textContent?.trim() ?? ""));
    expect(row[0]).toBe("Kim's laptop");
    expect(row[2]).not.toBe("never"); // last used: now
    const methods = await page.$$eval("#sessions tbody tr td:nth-child(2)", (tds) => tds.map((td) => td.textContent));
    expect(methods).toContain("passkey");

    // Removed here, the credential the authenticator still holds signs no one in: refused on the page.
    expect(await submit(page, "#passkeys tbody tr form button.danger")).toBe(200);
    expect(await text(page, "#done")).toContain("Passkey removed.");
    expect(await page.$("#passkeys")).toBeNull();
    await signOut(page);
    expect(await passkeyCeremony(page, "#passkey-button")).toBe("Passkey refused: this passkey is not registered here");
    expect(pathOf(page)).toBe("/app/sign-in");
    expect(await signedIn(page)).toBe(false);
    expect(await credentials()).toHaveLength(1);
  }, 180_000);

  it("role switch: owner of one workspace and viewer of another; the viewer has no buttons and a forged POST is 403", async () => {
    const own = await workspace("Robin's own");
    const email = "robin.roles@example.com";
    const page = await join(own.id, email, "owner", "Robin Roles");
    // The second invitation is accepted with the account's password: no new name, no new password.
    await h.api(h.writeKey, "POST", "/keywords", { keyword: "kept keyword" });
    const keptBefore = (await h.api(h.readKey, "GET", "/keywords")).body;
    expect(await accept(page, await invite(h.workspaceId, email, "viewer"), PASSWORD)).toBe(200);
    expect(await text(page, "#who")).toContain("Robin Roles · Console test · viewer");
    const choices = await page.$$eval("#f-workspace option", (os) => os.map((o) => o.textContent));
    expect(choices.sort()).toEqual(["Console test (viewer)", "Robin's own (owner)"]);

    // As viewer: the pages read, nothing that changes is offered, and nav hides the owner's pages.
    await goto(page, "/app/keywords");
    expect(await text(page, "main")).toContain("kept keyword");
    expect(await page.$("form[action='/app/keywords']")).toBeNull();
    expect(await page.$$("form[action^='/app/keywords/']")).toHaveLength(0);
    expect(await page.$("nav a[href='/app/settings/members']")).toBeNull();
    await expectAccessible(page);
    // Forms copied from an owner's page, sent with the viewer's own CSRF token: refused, nothing changed.
    const token = await csrfOf(page);
    const kept = keptBefore.data.find((k: { keyword: string }) => k.keyword === "kept keyword");
    expect(await postFromPage(page, "/app/keywords", { _csrf: token, keyword: "forged keyword" })).toBe(403);
    expect(await postFromPage(page, `/app/keywords/${kept.id}/delete`, { _csrf: token })).toBe(403);
    expect(
      await postFromPage(page, "/app/settings/members/invitations", {
        _csrf: token,
        email: "x@example.com",
        role: "owner",
      }),
    ).toBe(403);
    expect((await h.api(h.readKey, "GET", "/keywords")).body).toEqual(keptBefore);

    // Switched to the workspace they own: the same pages offer their forms, and they work.
    await page.select("#f-workspace", String(own.id));
    await submit(page, "form[action='/app/workspace'] button");
    expect(await text(page, "#who")).toContain("Robin Roles · Robin's own · owner");
    await goto(page, "/app/keywords");
    expect(await page.$("form[action='/app/keywords']")).not.toBeNull();
    expect(await page.$("nav a[href='/app/settings/members']")).not.toBeNull();
    await page.type("#new-keyword", "owner keyword");
    await submit(page, "form[action='/app/keywords'] button[type=submit]");
    expect(await text(page, "#done")).toContain("The keyword is added");
    const owned = await h.api(own.key, "GET", "/keywords");
    expect(owned.body.data.map((k: { keyword: string }) => k.keyword)).toEqual(["owner keyword"]);
    expect((await h.api(h.readKey, "GET", "/keywords")).body).toEqual(keptBefore);

    // And back: a viewer again, on the next page too.
    await page.select("#f-workspace", String(h.workspaceId));
    await submit(page, "form[action='/app/workspace'] button");
    await goto(page, "/app/keywords");
    expect(await text(page, "#who")).toContain("Console test · viewer");
    expect(await page.$("form[action='/app/keywords']")).toBeNull();
  }, 180_000);

  it("a team of four: the admin removes the member, whose session ends; the others are untouched", async () => {
    const team = await workspace("Team of four");
    const owner = await join(team.id, "oona@team.example", "owner", "Oona Owner");

    // The owner invites the admin in Settings › Members: the link is shown to copy.
    const inviteIn = async (page: Page, email: string, role: string) => {
      await goto(page, "/app/settings/members");
      await page.type("#f-email", email);
      await page.select("#f-invite-role", role);
      expect(await submit(page, "form[action='/app/settings/members/invitations'] button[type=submit]")).toBe(200);
      return text(page, "#invitation-link");
    };
    const joinBy = async (url: string, name: string) => {
      const page = await newPage();
      expect(await accept(page, url, PASSWORD, name)).toBe(200);
      return page;
    };
    const admin = await joinBy(await inviteIn(owner, "ada@team.example", "admin"), "Ada Admin");
    await expectAccessible(owner);
    const member = await joinBy(await inviteIn(admin, "mo@team.example", "member"), "Mo Member");
    const viewer = await joinBy(await inviteIn(admin, "vi@team.example", "viewer"), "Vi Viewer");
    const people = { owner, admin, member, viewer };
    const roles = { owner: "Oona Owner · Team of four · owner", admin: "Ada Admin · Team of four · admin" };
    const who = {
      ...roles,
      member: "Mo Member · Team of four · member",
      viewer: "Vi Viewer · Team of four · viewer",
    };
    for (const [role, page] of Object.entries(people)) {
      expect(await signedIn(page)).toBe(true);
      expect(await text(page, "#who")).toBe(who[role as keyof typeof who]);
    }
    // A member and a viewer do not get the Members page.
    expect(await goto(member, "/app/settings/members")).toBe(403);
    expect(await goto(viewer, "/app/settings/members")).toBe(403);

    // The admin removes the member from the table.
    await goto(admin, "/app/settings/members");
    const listed = (await h.api(team.key, "GET", "/actions/members")).body.data;
    const mo = listed.find((m: { email: string }) => m.email === "mo@team.example");
    expect(await submit(admin, `#member-${mo.id} form[action$='/delete'] button`)).toBe(200);
    expect(await text(admin, "#done")).toContain("Member removed");
    expect(await admin.$(`#member-${mo.id}`)).toBeNull();
    await expectAccessible(admin);
    await screenshot(admin, "members");

    // The member is signed out on their next page; nobody else is.
    await goto(member, "/app/posts");
    expect(pathOf(member)).toBe("/app/sign-in");
    expect(await signInWithPassword(member, "mo@team.example", PASSWORD)).toBe(401);
    for (const role of ["owner", "admin", "viewer"] as const) {
      expect(await signedIn(people[role])).toBe(true);
      expect(await text(people[role], "#who")).toBe(who[role]);
    }
    const after = (await h.api(team.key, "GET", "/actions/members")).body.data;
    expect(after.map((m: { email: string; role: string }) => [m.email, m.role]).sort()).toEqual([
      ["ada@team.example", "admin"],
      ["oona@team.example", "owner"],
      ["vi@team.example", "viewer"],
    ]);

    // The audit trail names who did each of it.
    await goto(owner, "/app/settings/audit");
    const events = await owner.$$eval("#audit tbody tr", (trs) =>
      trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent ?? "")),
    );
    const removed = events.find((e) => e[2] === "member.removed");
    expect(removed?.[1]).toMatch(/^Ada Admin \(person \d+\)$/);
    expect(removed?.[4]).toContain("mo@team.example");
    const invitedBy = events.filter((e) => e[2] === "member.invited").map((e) => e[1].replace(/ \(.*$/, ""));
    expect(invitedBy.sort()).toEqual(["Ada Admin", "Ada Admin", "Oona Owner", "admin API"]);
    await expectAccessible(owner);
    await screenshot(owner, "audit");
  }, 300_000);

  it("approval names the approver: a member approves a draft on the review page", async () => {
    const page = await join(h.workspaceId, "mia.member@example.com", "member", "Mia Member");
    const created = await h.api(h.writeKey, "POST", "/actions/blog-subreddit-syncs", {
      blog_url: `${h.fixtureOrigin}/__console/feed.xml`,
      subreddit: "r/queues",
    });
    expect(created.status).toBe(201);
    const configId = created.body.id as number;
    await goto(page, `/app/syncs/${configId}`);
    await submit(page, `form[action='/app/syncs/${configId}/run'] button`);
    const items = (await h.api(h.readKey, "GET", `/actions/blog-subreddit-syncs/${configId}/items`)).body.data;
    expect(items.length).toBeGreaterThan(0);
    const draft = items[0];

    // Every gate open: a persona checked and approved for the customer, a config that publishes.
    const account = "people_author";
    await h.forum("/accounts", { username: account });
    expect((await h.connect(account)).status).toBe(200);
    const persona = (await h.api(h.writeKey, "GET", "/actions/personas")).body.data[0];
    await h.api(h.writeKey, "POST", `/actions/personas/${persona.id}/preflight`);
    expect((await h.admin("POST", `/workspaces/${h.workspaceId}/personas/${persona.id}/approve`)).status).toBe(200);
    await h.api(h.writeKey, "POST", "/actions/blog-subreddit-syncs", { id: configId, publish_immediately: true });

    await goto(page, `/app/syncs/${configId}/items/${draft.id}`);
    expect(await page.$eval("section[aria-label=Approval] button", (b) => (b as any).disabled)).toBe(false);
    await submit(page, "section[aria-label=Approval] button");
    expect(await text(page, "#done")).toContain("Approved for publishing");
    expect(await text(page, "#approval")).toMatch(/^Approved by person “Mia Member”, /);

    const listed = await h.api(h.readKey, "GET", `/actions/blog-subreddit-syncs/${configId}/items`);
    const item = { body: listed.body.data.find((i: { id: number }) => i.id === draft.id) };
    const mia = (await h.api(h.readKey, "GET", "/actions/members")).body.data.find(
      (m: { email: string }) => m.email === "mia.member@example.com",
    );
    expect(item.body.approved_by).toEqual({ type: "person", id: mia.id, name: "Mia Member" });
    const audit = await h.api(h.writeKey, "GET", "/actions/audit-events?action=synced_post.approved");
    expect(audit.body.data[0]).toMatchObject({
      actor: { type: "person", id: String(mia.id), name: "Mia Member" },
      target: { type: "synced_post", id: String(draft.id) },
    });
  }, 400_000);
});
