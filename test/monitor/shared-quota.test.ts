// One forum client, one quota (docs/monitoring.md, "The quota"): the ingester's walks and a persona's calls
// (connecting it, who am I, a subreddit's rules, a submission) made with the same client id are each one permit
// of the client's one quota object, so the local forum counts exactly the requests the quota granted; and with
// the forum's window lowered, both stop at it (the ingester's walk waits it out, the persona's call says
// `quota`) and the forum never answers 429.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { workspaceDb } from "../../src/db/client";
import type { Env } from "../../src/env";
import { isForumError } from "../../src/forum/errors";
import { ForumClient } from "../../src/forum/persona-client";
import { callJson } from "../helpers/api";
import { connectAccount, localForum, newAccount, newSubreddit, PERSONAS } from "../helpers/forum";
import { newClient, trackingWorkspace } from "../helpers/monitor";

const CALLBACK = "http://threadwatch.test/oauth/forum/callback";

/** A client of its own, used by the Worker for both the ingester and the personas it connects. */
async function sharedClient(options: Record<string, unknown> = {}) {
  const config = newClient("shared-quota");
  await localForum.resetClient(config.clientId, {
    secret: config.clientSecret,
    redirect_uris: [CALLBACK],
    clock: { factor: 1e-9 },
    search_lag_s: 0,
    posts: { per_minute: 600, late_share: 0, never_share: 0, topic_share: 0 },
    comments: { per_minute: 0 },
    ...options,
  });
  const bindings = { REDDIT_CLIENT_ID: config.clientId, REDDIT_CLIENT_SECRET: config.clientSecret };
  const ingester = env.FORUM_INGESTER.get(env.FORUM_INGESTER.idFromName(config.clientId));
  const quota = env.FORUM_QUOTA.get(env.FORUM_QUOTA.idFromName(config.clientId));
  const stats = () => localForum.clientStats(config.clientId);
  const round = async () => ingester.round(config, (await stats()).clock.now_ms);
  /** The permits the quota granted in its window, at the later of the forum's clock and the real one. */
  const granted = async () => quota.peak(Math.max(Date.now(), (await stats()).clock.now_ms));
  return {
    config,
    bindings,
    round,
    stats,
    granted,
    advance: (s: number) => localForum.clock(config.clientId, { advance_s: s }),
  };
}

/** A persona of `ws` connected through the shared client, and its forum client (the one publishing uses). */
async function connectedPersona(ws: { id: number; writeKey: string; readKey: string }, bindings: Partial<Env>) {
  const account = await newAccount({ group: String(ws.id) });
  const connected = await connectAccount(ws, account.username, "allow", bindings);
  expect(connected.status, connected.html).toBe(200);
  const list = await callJson(PERSONAS, { key: ws.readKey });
  const persona = (list.body.data as { id: number; username: string }[]).find((p) => p.username === account.username);
  expect(persona, JSON.stringify(list.body)).toBeDefined();
  return new ForumClient({ ...env, ...bindings } as Env, workspaceDb(env, ws.id), persona!);
}

describe("the forum quota shared by the ingester and publishing", () => {
  it("counts every request of the client once, whoever makes it", async () => {
    const shared = await sharedClient();
    const ws = await trackingWorkspace("shared quota", ["glorbix"]);
    await shared.advance(5);
    expect(await shared.round()).not.toBeNull();
    const forum = await connectedPersona(ws, shared.bindings);
    expect((await forum.me()).isSuspended).toBe(false);
    const sr = await newSubreddit();
    expect((await forum.subreddit(sr)).status).toBe("ok");
    const posted = await forum.submit({
      sr,
      kind: "self",
      title: "Our glorbix notes",
      text: "a week in",
      sendreplies: true,
    });
    expect(posted.id).toBeTruthy();
    await localForum.plant(shared.config.clientId, [{ kind: "t3", title: "Which glorbix do you use?" }]);
    await shared.advance(30);
    expect(await shared.round()).not.toBeNull();

    const stats = await shared.stats();
    // The persona's calls reached the forum with this client (who am I twice: connecting, and the check).
    expect(stats.paths["/api/v1/me"]).toBe(2);
    expect(stats.paths["/api/submit"]).toBe(1);
    expect(stats.paths["/r/all/new"]).toBe(2);
    expect(stats.requests).toBe(await shared.granted());
    expect(stats.throttled).toBe(0);
    const listed = (await callJson("/api/v1/posts", { key: ws.readKey })).body.data as { title: string }[];
    expect(listed.map((p) => p.title)).toContain("Which glorbix do you use?");
  });

  it("with the forum's window lowered, the ingester and a persona stop at it and never get a 429", async () => {
    // Twelve requests in a window far longer than the test, so its reset never comes while it runs.
    const limit = 12;
    const shared = await sharedClient({ limit, window_s: 30 * 86_400 });
    const ws = await trackingWorkspace("shared quota lowered", ["glorbix"]);
    await shared.advance(5);
    await shared.round();
    const forum = await connectedPersona(ws, shared.bindings);
    // A minute of posts is six /api/info requests and the heads: more than the window has left.
    await shared.advance(60);
    const walked = await shared.round();
    expect(walked).not.toBeNull();
    expect((await shared.stats()).requests).toBe(limit);
    const refused = await forum.me().catch((err: unknown) => err);
    expect(isForumError(refused, "quota"), String(refused)).toBe(true);
    // A round later the walk is still waiting for the reset: it asks nothing.
    await shared.advance(30);
    await shared.round();

    const stats = await shared.stats();
    expect(stats.requests).toBe(limit);
    expect(stats.throttled).toBe(0);
    expect(await shared.granted()).toBe(limit);
  });
});
