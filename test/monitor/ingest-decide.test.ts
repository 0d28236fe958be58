// The ingester decides with each workspace's decideMatch (docs/monitoring.md, "The compiled matcher"): against
// the local forum (test/fixtures/forum/), an ingested post in a subreddit the workspace excludes is not stored,
// the same term elsewhere is, and a planted comment is stored as a comment (GET /comments) with its thread's
// title read from the parent post.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { callJson, callJsonKeepingMonitorQueue } from "../helpers/api";
import { localForum } from "../helpers/forum";
import { newClient, trackingWorkspace } from "../helpers/monitor";

async function world() {
  const config = newClient("ingest-decide");
  await localForum.resetClient(config.clientId, {
    secret: config.clientSecret,
    clock: { factor: 1e-9 },
    search_lag_s: 0,
    posts: { per_minute: 600, late_share: 0, never_share: 0, topic_share: 0 },
    comments: { per_minute: 0 },
  });
  const ingester = env.FORUM_INGESTER.get(env.FORUM_INGESTER.idFromName(config.clientId));
  const round = async () => {
    const now = (await localForum.clientStats(config.clientId)).clock.now_ms;
    const counts = await ingester.round(config, now);
    expect(counts).not.toBeNull();
    return counts!;
  };
  return { config, round, advance: (s: number) => localForum.clock(config.clientId, { advance_s: s }) };
}

async function listed(path: string, key: string) {
  const { status, body } = await callJson(`/api/v1/${path}?limit=100`, { key });
  expect(status).toBe(200);
  return (body as { data: Record<string, any>[] }).data;
}

describe("the ingester's decision per workspace", () => {
  it("keeps an excluded subreddit's post out, stores the rest, and stores a matched comment as a comment", async () => {
    const w = await world();
    const ws = await trackingWorkspace("ingest decide", ["vorpal sprocket"]);
    const put = await callJsonKeepingMonitorQueue("/api/v1/actions/monitoring/exclusions", {
      key: ws.writeKey,
      method: "PUT",
      body: { terms: [], subreddits: ["r/SpamVille"], authors: [] },
    });
    expect(put.status).toBe(200);
    await w.advance(10);
    await w.round();

    const [excluded, kept] = await localForum.plant(w.config.clientId, [
      { kind: "t3", subreddit: "spamville", title: "Cheap vorpal sprocket deals", selftext: "buy now" },
      { kind: "t3", subreddit: "gadgets", title: "Which sprocket should I buy?", selftext: "nothing tracked" },
      { kind: "t3", subreddit: "gadgets", title: "Vorpal sprocket review", selftext: "a month in" },
    ]);
    await localForum.plant(w.config.clientId, [
      {
        kind: "t1",
        link_id: kept!.name,
        subreddit: "gadgets",
        body: "Get a vorpal sprocket, it never jams",
      },
      { kind: "t1", link_id: excluded!.name, subreddit: "spamville", body: "a vorpal sprocket here too" },
    ]);
    await w.advance(30);
    await w.round();

    // The excluded subreddit's post is not stored, the same term elsewhere is.
    expect((await listed("posts", ws.readKey)).map((p) => [p.title, p.subreddit])).toEqual([
      ["Vorpal sprocket review", "gadgets"],
    ]);
    const comments = await listed("comments", ws.readKey);
    expect(comments.map((c) => [c.body, c.subreddit, c.thread_title])).toEqual([
      ["Get a vorpal sprocket, it never jams", "gadgets", "Which sprocket should I buy?"],
    ]);
  });
});
