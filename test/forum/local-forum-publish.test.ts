// The local forum's publishing path over real HTTP: submit (json.errors triples, RATELIMIT, the HTTP 400
// SUBMIT_VALIDATION_* form), the media lease and the upload host on its own origin, the submitted list,
// /api/info of removed posts, and the public site as a logged-out visitor (profile, post pages, faults).
import { describe, expect, it } from "vitest";
import { localForum } from "../helpers/forum";
import { api, apiJson, grant, grantOn, postForm } from "./forum-helpers";

const submitForm = (sr: string, extra: Record<string, string> = {}) => ({
  api_type: "json",
  kind: "self",
  sr,
  title: "A title that works",
  text: "Some body text",
  sendreplies: "true",
  ...extra,
});

describe("submitting", () => {
  it("answers json.data with an absolute url, id and name, and the post is in the submitted list and /api/info", async () => {
    const { username, token } = await grant();
    const sr = await localForum.subreddit();
    const res = await postForm(token.access_token, "/api/submit", submitForm(sr, { validate_on_submit: "true" }));
    expect(res.status).toBe(200);
    const body = await res.json<any>();
    expect(body.json.errors).toEqual([]);
    const { id, name, url, drafts_count } = body.json.data;
    expect(name).toBe(`t3_${id}`);
    expect(drafts_count).toBe(0);
    expect(url).toBe(`${localForum.origins().site}/r/${sr}/comments/${id}/a_title_that_works/`);
    const mine = await apiJson(token.access_token, `/user/${username}/submitted?limit=100&sort=new`);
    expect(mine.kind).toBe("Listing");
    expect(mine.data.children.map((c: any) => c.data.name)).toEqual([name]);
    const info = await apiJson(token.access_token, `/api/info?id=${name}&raw_json=1`);
    expect(info.data.children[0]).toMatchObject({
      kind: "t3",
      data: { id, title: "A title that works", selftext: "Some body text", removed_by_category: null },
    });
    expect(await localForum.submissions(username)).toHaveLength(1);
  });

  it("refuses with HTTP 200 json.errors triples in the forum's order and words", async () => {
    const { token } = await grant();
    const cases: [Record<string, string>, [string, string, string | null]][] = [
      [submitForm("no_such_sr_here"), ["SUBREDDIT_NOEXIST", "that subreddit doesn't exist", "sr"]],
      [
        submitForm(await localForum.subreddit({ type: "restricted" })),
        ["SUBREDDIT_NOTALLOWED", "you aren't allowed to post there.", "sr"],
      ],
      [
        submitForm(await localForum.subreddit({ submission_type: "link" })),
        ["NO_SELFS", "that subreddit doesn't allow text posts", "sr"],
      ],
      [submitForm(await localForum.subreddit(), { title: "" }), ["NO_TEXT", "we need something here", "title"]],
      [
        submitForm(await localForum.subreddit(), { title: "x".repeat(301) }),
        ["TOO_LONG", "this is too long (max: 300)", "title"],
      ],
    ];
    for (const [form, triple] of cases) {
      const res = await postForm(token.access_token, "/api/submit", form);
      expect(res.status).toBe(200);
      expect((await res.json<any>()).json.errors).toEqual([triple]);
    }
  });

  it("RATELIMIT names the wait in words and in json.ratelimit; the next submit goes through", async () => {
    const { token } = await grant({ account: { ratelimit_seconds: [540] } });
    const sr = await localForum.subreddit();
    const limited = await (await postForm(token.access_token, "/api/submit", submitForm(sr))).json<any>();
    expect(limited.json.ratelimit).toBe(540);
    expect(limited.json.errors).toEqual([
      ["RATELIMIT", "you are doing that too much. try again in 9 minutes.", "ratelimit"],
    ]);
    const next = await (await postForm(token.access_token, "/api/submit", submitForm(sr))).json<any>();
    expect(next.json.errors).toEqual([]);
  });

  it("with validate_on_submit a post-requirements failure is HTTP 400 SUBMIT_VALIDATION_*, without it a triple", async () => {
    const { token } = await grant();
    const sr = await localForum.subreddit({
      requirements: { title_blacklisted_strings: ["free"], is_flair_required: true },
    });
    const strict = await postForm(
      token.access_token,
      "/api/submit",
      submitForm(sr, { title: "Free stuff", validate_on_submit: "true" }),
    );
    expect(strict.status).toBe(400);
    expect(await strict.json()).toEqual({
      fields: ["title"],
      explanation: 'You may not have "free" in your title. ',
      error_type: "SUBMIT_VALIDATION_ERROR",
      message: "Bad Request",
      reason: "SUBMIT_VALIDATION_TITLE_BLACKLISTED_STRING",
    });
    const flairless = await postForm(token.access_token, "/api/submit", submitForm(sr, { validate_on_submit: "true" }));
    expect(await flairless.json()).toMatchObject({ reason: "SUBMIT_VALIDATION_FLAIR_REQUIRED", fields: ["flair"] });
    const lax = await postForm(token.access_token, "/api/submit", submitForm(sr));
    expect(lax.status).toBe(200);
    expect((await lax.json<any>()).json.errors[0][0]).toBe("SUBMIT_VALIDATION_FLAIR_REQUIRED");
  });

  it("a suspended account cannot submit; a crash after submit stores the post and loses the answer", async () => {
    const suspended = await grant({ account: { suspended: true } });
    const sr = await localForum.subreddit();
    const res = await (await postForm(suspended.token.access_token, "/api/submit", submitForm(sr))).json<any>();
    expect(res.json.errors).toEqual([["IN_TIMEOUT", "You can't do that while suspended.", "sr"]]);
    const crashing = await grant({ account: { crash_after_submit: true } });
    const lost = await postForm(crashing.token.access_token, "/api/submit", submitForm(sr));
    expect(lost.status).toBe(502);
    expect(await localForum.submissions(crashing.username)).toHaveLength(1);
  });
});

describe("media", () => {
  it("leases a scheme-relative upload action on the upload origin; the upload answers 201 PostResponse XML", async () => {
    const { username, token } = await grant();
    const lease = await (
      await postForm(token.access_token, "/api/media/asset.json", { filepath: "diagram.png", mimetype: "image/png" })
    ).json<any>();
    const upload = new URL(localForum.origins().upload);
    expect(lease.args.action).toBe(`//${upload.host}`);
    expect(lease.args.fields.map((f: any) => f.name)).toContain("key");
    expect(lease.asset).toMatchObject({ processing_state: "incomplete", payload: { filepath: "diagram.png" } });
    expect(lease.asset.websocket_url).toMatch(/^wss?:\/\//);
    const form = new FormData();
    for (const f of lease.args.fields) form.append(f.name, f.value);
    form.append("file", new File([new Uint8Array([137, 80, 78, 71])], "diagram.png", { type: "image/png" }));
    const res = await fetch(`${upload.protocol}${lease.args.action}`, { method: "POST", body: form });
    expect(res.status).toBe(201);
    expect(res.headers.get("content-type")).toBe("application/xml");
    const xml = await res.text();
    expect(xml).toMatch(/<PostResponse><Location>.+<\/Location><Bucket>.+<\/Bucket><Key>rte_images\/.+<\/Key><ETag>/);
    const uploads = await localForum.uploads(username);
    expect(uploads).toMatchObject([{ asset_id: lease.asset.asset_id, type: "image/png", size: 4 }]);
  });

  it("an upload without a lease or for an account whose uploads fail answers S3's error XML", async () => {
    const stranger = new FormData();
    stranger.append("key", "rte_images/nope");
    stranger.append("file", new File(["x"], "x.png"));
    const refused = await fetch(`${localForum.origins().upload}/`, { method: "POST", body: stranger });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("<Code>AccessDenied</Code>");
    const { token } = await grant({ account: { upload_fails: true } });
    const lease = await (
      await postForm(token.access_token, "/api/media/asset.json", { filepath: "a.png", mimetype: "image/png" })
    ).json<any>();
    const form = new FormData();
    for (const f of lease.args.fields) form.append(f.name, f.value);
    form.append("file", new File(["x"], "a.png", { type: "image/png" }));
    const failed = await fetch(`http:${lease.args.action}`, { method: "POST", body: form });
    expect(failed.status).toBe(403);
    expect(await failed.text()).toContain("Policy expired");
  });
});

describe("removed posts and the public site", () => {
  async function published(options: { sr?: Record<string, unknown> } = {}) {
    const g = await grant();
    const sr = await localForum.subreddit(options.sr ?? {});
    const body = await (
      await postForm(g.token.access_token, "/api/submit", submitForm(sr, { title: "Our launch notes" }))
    ).json<any>();
    return { ...g, sr, ...body.json.data };
  }

  it("a post moderators removed: /api/info says so, the visitor's page shows [removed]", async () => {
    const p = await published();
    const app = await grantOn(p.client);
    await localForum.remove(p.name, "moderator");
    const seen = await apiJson(app.token.access_token, `/api/info?id=${p.name}`);
    expect(seen.data.children[0].data).toMatchObject({
      removed_by_category: "moderator",
      banned_by: null,
      selftext: "[removed]",
    });
    const own = await apiJson(p.token.access_token, `/api/info?id=${p.name}`);
    expect(own.data.children[0].data).toMatchObject({ removed_by_category: "moderator", selftext: "Some body text" });
    const page = await fetch(p.url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("[removed]");
    expect(html).toContain("removed by the moderators");
  });

  it("a spam-filtered post is the author's alone; a deleted one shows [deleted]", async () => {
    const filtered = await published({ sr: { spam_filter: true } });
    const own = await apiJson(filtered.token.access_token, `/api/info?id=${filtered.name}`);
    expect(own.data.children[0].data).toMatchObject({ removed_by_category: "reddit", selftext: "Some body text" });
    const other = await grantOn(filtered.client);
    expect((await apiJson(other.token.access_token, `/api/info?id=${filtered.name}`)).data.children).toEqual([]);
    const page = await (await fetch(filtered.url)).text();
    expect(page).toContain("[removed]");
    expect(page).toContain("Reddit's filters");

    const gone = await published();
    await localForum.remove(gone.name, "deleted");
    const info = await apiJson((await grantOn(gone.client)).token.access_token, `/api/info?id=${gone.name}`);
    expect(info.data.children[0].data).toMatchObject({
      removed_by_category: "deleted",
      author: "[deleted]",
      selftext: "[deleted]",
    });
    expect(await (await fetch(gone.url)).text()).toContain("[deleted]");
    expect((await fetch(`${localForum.origins().site}/r/${gone.sr}/comments/zzzzzzz/x/`)).status).toBe(404);
  });

  it("a profile as a visitor sees it: shadow-banned is the forum's 404, suspended only the name", async () => {
    const site = localForum.origins().site;
    const normal = await localForum.account();
    const about = await (await fetch(`${site}/user/${normal}/about.json`)).json<any>();
    expect(about).toMatchObject({ kind: "t2", data: { name: normal } });
    const banned = await localForum.account({ shadow_banned: true });
    const hidden = await fetch(`${site}/user/${banned}/about.json`);
    expect(hidden.status).toBe(404);
    expect(await hidden.json()).toEqual({ message: "Not Found", error: 404 });
    // The API still knows the account: that is how a shadow ban is told from a missing account.
    const suspended = await localForum.account({ suspended: true });
    expect(await (await fetch(`${site}/user/${suspended}/about.json`)).json()).toEqual({
      kind: "t2",
      data: { name: suspended, is_suspended: true },
    });
  });

  it("site faults on request: block page, challenge, 403 and 429, then the real answer again", async () => {
    const site = localForum.origins().site;
    const name = await localForum.account();
    const expected: [Parameters<typeof localForum.siteFault>[0], number, string][] = [
      ["block", 403, "text/html"],
      ["challenge", 200, "text/html"],
      ["forbidden", 403, "application/json"],
      ["ratelimited", 429, "text/html"],
    ];
    try {
      for (const [fault, status, type] of expected) {
        await localForum.siteFault(fault, { account: name, count: 1 });
        const res = await fetch(`${site}/user/${name}/about.json`);
        expect(res.status, String(fault)).toBe(status);
        expect(res.headers.get("content-type")).toContain(type);
      }
    } finally {
      await localForum.siteFault(null, { account: name });
    }
    expect((await fetch(`${site}/user/${name}/about.json`)).status).toBe(200);
  });

  it("counts an account's requests in flight per group, for the browser-slot tests", async () => {
    const group = `g-${crypto.randomUUID()}`;
    const { username, token } = await grant({ account: { group, delay_ms: 200 } });
    await Promise.all([api(token.access_token, "/api/v1/me"), api(token.access_token, "/api/v1/me")]);
    const stats = await localForum.inFlight({ group });
    expect(stats).toMatchObject({ now: 0, max: 2, total: 2 });
    expect((await localForum.inFlight({ account: username })).total).toBe(2);
  });
});
