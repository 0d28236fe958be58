import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { checkEdit } from "../../src/articles";
import type { Submission } from "../../src/forum/persona-client";
import { type Check, forumLimitChecks, requirementChecks } from "../../src/publishing/submission";
import { coordinatorFor } from "../../src/durable/workspace-coordinator";
import { callJson, createTestWorkspace } from "../helpers/api";
import { newPersona, PERSONAS, setAccount, stats, submissions, uploads } from "../helpers/forum";
import { addPost, SYNCS, scene } from "../helpers/publishing";
import { until } from "../helpers/until";

const failed = (checks: Check[]) => Object.fromEntries(checks.filter((c) => !c.ok).map((c) => [c.name, c.reason]));

describe("readiness", () => {
  it("a given persona that is not ready is 409 persona_not_ready with no browser work; unknown or foreign: 404", async () => {
    const s = await scene();
    const fresh = await newPersona(s.ws); // connected, never checked
    const before = await stats({ account: fresh.account.username });
    const res = await callJson(`${SYNCS}/${s.config.id}/readiness`, {
      key: s.ws.writeKey,
      method: "POST",
      body: { persona_id: fresh.id },
    });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("persona_not_ready");
    expect(res.body.error.details.map((d: any) => d.path)).toEqual(["persona.browser_ready"]);
    expect((await stats({ account: fresh.account.username })).total).toBe(before.total);
    // Inactive, even though checked: no fallback to the config's ready persona.
    await callJson(`${PERSONAS}/${s.persona.id}`, { key: s.ws.writeKey, method: "PATCH", body: { active: false } });
    const inactive = await callJson(`${SYNCS}/${s.config.id}/readiness`, {
      key: s.ws.writeKey,
      method: "POST",
      body: { persona_id: s.persona.id },
    });
    expect(inactive.status).toBe(409);
    expect(inactive.body.error.details.map((d: any) => d.path)).toEqual(["persona.active"]);
    const other = await createTestWorkspace("other");
    const foreign = await newPersona(other);
    for (const id of [foreign.id, foreign.id + 10_000]) {
      const res404 = await callJson(`${SYNCS}/${s.config.id}/readiness`, {
        key: s.ws.writeKey,
        method: "POST",
        body: { persona_id: id },
      });
      expect(res404.status).toBe(404);
    }
    expect((await callJson(`${SYNCS}/${s.config.id}/readiness`, { key: s.ws.readKey, method: "POST" })).status).toBe(
      403,
    );
    expect((await callJson(`${SYNCS}/${s.config.id}/readiness`, { key: other.writeKey, method: "POST" })).status).toBe(
      404,
    );
  });

  it("checks the persona's grant, its visibility and the destination, lists flair templates when flair is required, never submits or changes the config", async () => {
    const s = await scene({
      subreddit: {
        requirements: { is_flair_required: true },
        flairs: [
          { id: "f-1", text: "Guide" },
          { id: "f-2", text: "News" },
        ],
      },
    });
    const configBefore = (await callJson(`${SYNCS}/${s.config.id}`, { key: s.ws.readKey })).body;
    const res = await callJson(`${SYNCS}/${s.config.id}/readiness`, { key: s.ws.writeKey, method: "POST" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      ready: false,
      persona: { id: s.persona.id, username: s.persona.account.username },
      subreddit: s.sr,
      media: [],
    });
    expect(res.body.checks.map((c: Check) => c.name)).toEqual([
      "persona",
      "visible",
      "identity",
      "subreddit",
      "text_posts",
      "post_requirements",
      "flair",
    ]);
    expect(failed(res.body.checks)).toEqual({
      flair:
        'the subreddit requires flair; set the config\'s flair_id to one of its templates: f-1 ("Guide"), f-2 ("News")',
    });
    await callJson(SYNCS, { key: s.ws.writeKey, method: "POST", body: { id: s.config.id, flair_id: "f-9" } });
    const wrong = await callJson(`${SYNCS}/${s.config.id}/readiness`, { key: s.ws.writeKey, method: "POST" });
    expect(failed(wrong.body.checks).flair).toMatch(/flair_id f-9 is not a link flair template/);
    const fixed = await callJson(SYNCS, {
      key: s.ws.writeKey,
      method: "POST",
      body: { id: s.config.id, flair_id: "f-1" },
    });
    expect(fixed.body.fingerprint).toBe(configBefore.fingerprint); // flair is not fingerprinted
    const ready = await callJson(`${SYNCS}/${s.config.id}/readiness`, { key: s.ws.writeKey, method: "POST" });
    expect(ready.body.ready).toBe(true);
    const configAfter = (await callJson(`${SYNCS}/${s.config.id}`, { key: s.ws.readKey })).body;
    expect(configAfter.updated_at).toBe(fixed.body.updated_at);
    expect(await submissions(s.persona.account.username)).toHaveLength(0);
    expect(await uploads(s.persona.account.username)).toHaveLength(0);
  }, 120_000);

  it("a private or banned subreddit and a revoked grant each fail with a reason", async () => {
    const s = await scene({ subreddit: { type: "private" } });
    const privateRes = await callJson(`${SYNCS}/${s.config.id}/readiness`, { key: s.ws.writeKey, method: "POST" });
    expect(failed(privateRes.body.checks).subreddit).toMatch(/is private and this account is not an approved member/);
    const banned = await scene({ subreddit: { banned_users: [], banned: true } });
    const bannedRes = await callJson(`${SYNCS}/${banned.config.id}/readiness`, {
      key: banned.ws.writeKey,
      method: "POST",
    });
    expect(failed(bannedRes.body.checks).subreddit).toMatch(/is banned by the forum/);
    await setAccount(s.persona.account.username, { expired: true });
    const expired = await callJson(`${SYNCS}/${s.config.id}/readiness`, { key: s.ws.writeKey, method: "POST" });
    expect(expired.body.ready).toBe(false);
    expect(failed(expired.body.checks).identity).toMatch(
      /the forum revoked this connection; connect the account again/,
    );
  }, 120_000);

  it("uploads the drafts' images only with verify_media_upload=true; a credentialed image URL is never fetched", async () => {
    const s = await scene({ config: { include_media: true } });
    const image = `${env.FIXTURE_ORIGIN}/blog/images/diagram.png`;
    const post = await addPost(
      s,
      {
        images: [
          { url: image, alt: "Diagram", caption: null },
          { url: "https://bob:pa55@images.example/x.png", alt: "x", caption: null },
        ],
      },
      "draft",
    );
    const plain = await callJson(`${SYNCS}/${s.config.id}/readiness`, { key: s.ws.writeKey, method: "POST", body: {} });
    expect(plain.body.media).toEqual([]);
    expect(await uploads(s.persona.account.username)).toHaveLength(0);
    const verified = await callJson(`${SYNCS}/${s.config.id}/readiness`, {
      key: s.ws.writeKey,
      method: "POST",
      body: { verify_media_upload: true, max_posts: 1 },
    });
    const media = await uploads(s.persona.account.username);
    expect(media).toHaveLength(1);
    expect(verified.body.media).toEqual([
      { synced_post_id: post.id, url: image, ok: true, asset_id: media[0].key.split("/").pop() },
      {
        synced_post_id: post.id,
        url: "https://images.example/x.png",
        ok: false,
        reason: "the image URL carries credentials; it is never fetched, uploaded or sent",
      },
    ]);
    expect(JSON.stringify(verified.body)).not.toContain("pa55");
    expect(await submissions(s.persona.account.username)).toHaveLength(0);
  }, 120_000);
});

describe("publish preflight", () => {
  const submission = (title: string, text: string): Submission => ({
    sr: "x",
    kind: "self",
    title,
    text,
    sendreplies: true,
  });

  it("checks every kind of post requirement", () => {
    const checks = requirementChecks(submission("A post about queues", "Body with https://ads.example.com/x"), {
      title_regexes: ["^\\[Guide\\]"],
      body_regexes: ["threadwatch"],
      title_required_strings: ["guide"],
      body_required_strings: ["zzz"],
      title_blacklisted_strings: ["POST"],
      body_blacklisted_strings: ["with"],
      title_text_min_length: 50,
      title_text_max_length: null,
      body_text_min_length: null,
      body_text_max_length: 5,
      body_restriction_policy: "notAllowed",
      domain_blacklist: ["example.com"],
      domain_whitelist: [],
    });
    expect(failed(checks)).toEqual({
      title_regexes: 'the title must match one of the subreddit\'s patterns: "^\\\\[Guide\\\\]"',
      body_regexes: 'the body must match one of the subreddit\'s patterns: "threadwatch"',
      required_strings: 'the title must contain one of "guide"; the body must contain one of "zzz"',
      banned_strings: 'the subreddit bans these words: the title contains "POST"; the body contains "with"',
      title_length: "the title has 19 characters; the subreddit wants at least 50",
      body_length: "the body has 35 characters; the subreddit allows at most 5",
      body_policy: "the subreddit allows no body text in posts",
      domains: "the body links to banned domains: ads.example.com",
    });
    const whitelist = requirementChecks(submission("[Guide] ok", "see https://other.example/x"), {
      domain_whitelist: ["docs.example"],
      body_restriction_policy: "required",
    });
    expect(failed(whitelist)).toEqual({
      domains: "the body links to domains outside the subreddit's allowed list (docs.example): other.example",
    });
    expect(failed(requirementChecks(submission("t", ""), { body_restriction_policy: "required" }))).toEqual({
      body_policy: "the subreddit requires body text",
    });
    const passing = requirementChecks(submission("[Guide] threadwatch queues", "threadwatch zzz"), {
      title_regexes: ["^\\[Guide\\]"],
      body_regexes: ["threadwatch"],
      title_required_strings: ["guide"],
      body_required_strings: ["zzz"],
      title_blacklisted_strings: ["spam"],
      title_text_min_length: 10,
      body_text_max_length: 100,
    });
    expect(passing.every((c) => c.ok)).toBe(true);
  });

  it("counts the forum's limits in characters (code points), as a run's cut and a person's edit do", () => {
    // 300 emoji are 300 characters (600 UTF-16 units); 40,000 of them fill the body exactly.
    const title = "🚀".repeat(300);
    const body = "😀".repeat(40_000);
    expect(checkEdit(title, body)).toEqual([]);
    expect(failed(forumLimitChecks(submission(title, body)))).toEqual({});
    expect(failed(forumLimitChecks(submission(`${title}x`, `${body}x`)))).toEqual({
      title: "the title has 301 characters; the forum allows at most 300",
      body: "the body has 40001 characters; the forum allows at most 40000",
    });
    // A subreddit's own length rules count the same way.
    expect(
      failed(requirementChecks(submission("🚀🚀🚀", "😀😀"), { title_text_max_length: 3, body_text_min_length: 2 })),
    ).toEqual({});
  });

  it("answers the exact submission and the destination's checks without submitting or uploading", async () => {
    const s = await scene({
      subreddit: {
        requirements: { title_required_strings: ["guide"], body_blacklisted_strings: ["casino"] },
        flairs: [{ id: "f-1", text: "Guide" }],
      },
      config: { flair_id: "f-1" },
    });
    const good = await addPost(s, { title: "A guide to retries", bodyMarkdown: "Retry with backoff." }, "draft");
    const bad = await addPost(s, { title: "Casino night", bodyMarkdown: "Free casino chips." }, "draft");
    const res = await callJson(`${SYNCS}/${s.config.id}/publish-preflight`, {
      key: s.ws.writeKey,
      method: "POST",
      body: { synced_post_id: good.id },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.ok).toBe(true);
    expect(res.body.submission).toEqual({
      sr: s.sr,
      kind: "self",
      title: "A guide to retries",
      text: "Retry with backoff.",
      flair_id: "f-1",
      sendreplies: true,
    });
    const refused = await callJson(`${SYNCS}/${s.config.id}/publish-preflight`, {
      key: s.ws.writeKey,
      method: "POST",
      body: { synced_post_id: bad.id },
    });
    expect(refused.body.ok).toBe(false);
    expect(Object.keys(failed(refused.body.checks))).toEqual(["required_strings", "banned_strings"]);
    expect(await submissions(s.persona.account.username)).toHaveLength(0);
    expect(await uploads(s.persona.account.username)).toHaveLength(0);
    const other = await scene();
    const foreign = await callJson(`${SYNCS}/${other.config.id}/publish-preflight`, {
      key: other.ws.writeKey,
      method: "POST",
      body: { synced_post_id: good.id },
    });
    expect(foreign.status).toBe(404);
  }, 120_000);
});

describe("one browser operation at a time per workspace", () => {
  it("concurrent operations of one workspace never overlap at the forum, while two workspaces do", async () => {
    const a = await scene({ persona: { account: { delay_ms: 400 } } });
    const a2 = await newPersona(a.ws, { account: { delay_ms: 400 } });
    const b = await scene({ persona: { account: { delay_ms: 400 } } });
    // B's browser work is held at the forum, so A's operations run while a request of B is in flight.
    await setAccount(b.persona.account.username, { hold: true });
    const callsB = [callJson(`${SYNCS}/${b.config.id}/readiness`, { key: b.ws.writeKey, method: "POST" })];
    const inFlightB = async () => (await stats({ group: String(b.ws.id) })).now;
    expect(await until(inFlightB, (now) => now > 0, 30_000)).toBe(1);
    const resultsA = await Promise.all([
      callJson(`${PERSONAS}/${a2.id}/preflight`, { key: a.ws.writeKey, method: "POST" }),
      callJson(`${SYNCS}/${a.config.id}/readiness`, { key: a.ws.writeKey, method: "POST" }),
    ]);
    // Workspace A finished both operations while B's request was still held.
    expect(await inFlightB()).toBe(1);
    // A second operation of B waits in line behind the held one (a caller waits up to 30 s; A's two operations
    // can take longer than that on a loaded machine, so it is sent now, not before them).
    callsB.push(callJson(`${PERSONAS}/${b.persona.id}/preflight`, { key: b.ws.writeKey, method: "POST" }));
    const coordinatorB = coordinatorFor(env, b.ws.id);
    expect(await until(async () => (await coordinatorB.browserStatus()).waiting, (n) => n === 1, 20_000)).toBe(1);
    expect(await inFlightB()).toBe(1);
    await setAccount(b.persona.account.username, { hold: false });
    const results = [...resultsA, ...(await Promise.all(callsB))];
    for (const r of results) expect(r.status, JSON.stringify(r.body)).toBe(200);
    const statsA = await stats({ group: String(a.ws.id) });
    const statsB = await stats({ group: String(b.ws.id) });
    // Within a workspace: never two requests at the forum at once (its personas' checks and its readiness).
    expect(statsA.max).toBe(1);
    expect(statsB.max).toBe(1);
    expect(statsA.total).toBeGreaterThanOrEqual(2 * 2);
    // Across workspaces: some request of A was in flight while one of B was.
    const overlap = statsA.spans.some(([s1, e1]) => statsB.spans.some(([s2, e2]) => s1 < e2 && s2 < e1));
    expect(overlap).toBe(true);
  }, 180_000);
});
