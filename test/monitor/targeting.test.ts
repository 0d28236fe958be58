// Per-term subreddits (docs/monitoring.md, "Targeting"): the API takes and validates them, and only matches in
// those subreddits count for that term, in the one decision every path asks (decideMatch), so a pass, the
// ingester's comments and a re-match agree.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { workspaceDb } from "../../src/db/client";
import { decideMatch, trackedTerms } from "../../src/monitor/decide";
import { runMonitorPass } from "../../src/monitor/pass";
import { rematchBatch } from "../../src/monitor/rematch";
import { callJson, callJsonKeepingMonitorQueue } from "../helpers/api";
import { forumComment, ingestComments } from "../helpers/comments";
import { forum, newClient, nowSeconds, trackingWorkspace } from "../helpers/monitor";

const keyword = (id: number, text: string, subreddits: string[] = [], isAmbiguous = false) => ({
  id,
  keyword: text,
  isAmbiguous,
  searchVolume: null,
  cpc: null,
  serpForumPosition: null,
  serpForumUrl: null,
  subreddits,
});

describe("decideMatch with subreddits", () => {
  const rules = trackedTerms(
    [keyword(1, "pipeline", ["sales", "r/SaaS"]), keyword(2, "crm"), keyword(3, "hubs", [], true)],
    [{ id: 9, name: "Close", keywords: ["close.com"], isAmbiguous: false, subreddits: ["sales"] }],
  );
  const item = (subreddit: string, body: string) => ({ subreddit, author: "a", title: "", body });

  it("counts a limited term only in its subreddits, case-insensitively", () => {
    expect(decideMatch(item("Sales", "our pipeline"), rules)).toMatchObject({ stored: true });
    expect(decideMatch(item("saas", "our pipeline"), rules)).toMatchObject({ stored: true });
    expect(decideMatch(item("marketing", "our pipeline"), rules)).toEqual({ stored: false, reason: "no_match" });
    const both = decideMatch(item("marketing", "our pipeline in the crm"), rules);
    expect(both).toMatchObject({ stored: true, match: { keywordIds: [2], competitorIds: [] } });
    expect(decideMatch(item("marketing", "moved to close.com"), rules)).toMatchObject({ stored: false });
    expect(decideMatch(item("sales", "moved to close.com"), rules)).toMatchObject({
      match: { competitorIds: [9] },
    });
  });

  it("a limited term outside its subreddits gives an ambiguous term no context", () => {
    expect(decideMatch(item("marketing", "pipeline hubs"), rules)).toMatchObject({ stored: false });
    expect(decideMatch(item("sales", "pipeline hubs"), rules)).toMatchObject({ match: { keywordIds: [1, 3] } });
  });
});

describe("subreddits through the API", () => {
  it("keywords and competitors take, show and change them; bad names are refused", async () => {
    const ws = await trackingWorkspace("targeting api", []);
    const created = await callJsonKeepingMonitorQueue("/api/v1/keywords", {
      key: ws.writeKey,
      method: "POST",
      body: { keyword: "pipeline", subreddits: ["r/sales", "Sales", "SaaS"] },
    });
    expect(created.status).toBe(201);
    expect(created.body.subreddits).toEqual(["sales", "SaaS"]);
    const plain = await callJsonKeepingMonitorQueue("/api/v1/keywords", {
      key: ws.writeKey,
      method: "POST",
      body: { keyword: "crm" },
    });
    expect(plain.body.subreddits).toEqual([]);
    const patched = await callJsonKeepingMonitorQueue(`/api/v1/keywords/${created.body.id}`, {
      key: ws.writeKey,
      method: "PATCH",
      body: { subreddits: [] },
    });
    expect(patched.body.subreddits).toEqual([]);
    // A term change re-matches stored items and queues the backfill of terms not searched yet.
    expect(patched.queued.map((m) => m.type)).toEqual(["monitor.rematch", "monitor.pass"]);

    const competitor = await callJsonKeepingMonitorQueue("/api/v1/competitors", {
      key: ws.writeKey,
      method: "POST",
      body: { name: "Close", subreddits: ["sales"] },
    });
    expect(competitor.body.subreddits).toEqual(["sales"]);

    for (const subreddits of [["no spaces"], ["x"], Array.from({ length: 51 }, (_, i) => `sub${i}`), "sales"]) {
      const res = await callJson("/api/v1/keywords", {
        key: ws.writeKey,
        method: "POST",
        body: { keyword: "other", subreddits },
      });
      expect(res.status, JSON.stringify(subreddits)).toBe(400);
      expect(res.body.error.details[0].path).toMatch(/^body\.subreddits/);
    }
  });

  it("a pass, the comments' store and a re-match follow them", async () => {
    const client = newClient("targeting-pass");
    await forum.reset(client);
    const now = nowSeconds();
    await forum.addPosts(client, [
      { id: "s1", title: "Our sales pipeline", subreddit: "sales", created_utc: now - 60 },
      { id: "s2", title: "A pipeline of data", subreddit: "dataengineering", created_utc: now - 70 },
    ]);
    const ws = await trackingWorkspace("targeting pass", []);
    const kw = await callJsonKeepingMonitorQueue("/api/v1/keywords", {
      key: ws.writeKey,
      method: "POST",
      body: { keyword: "pipeline", subreddits: ["sales"] },
    });
    const w = workspaceDb(env, ws.id);
    await runMonitorPass(env, w, { trigger: "api", config: client });
    const ids = async (path: string) =>
      (await callJson(path, { key: ws.readKey })).body.data.map((p: { forum_id: string }) => p.forum_id);
    expect(await ids("/api/v1/posts")).toEqual(["s1"]);

    await ingestComments(ws.id, [
      forumComment("sc1", "pipeline reviews weekly", { subreddit: "sales" }),
      forumComment("sc2", "pipeline in airflow", { subreddit: "dataengineering" }),
    ]);
    expect(await ids("/api/v1/comments")).toEqual(["sc1"]);

    // Limited to another subreddit: the stored post keeps its row and loses the keyword.
    await callJsonKeepingMonitorQueue(`/api/v1/keywords/${kw.body.id}`, {
      key: ws.writeKey,
      method: "PATCH",
      body: { subreddits: ["dataengineering"] },
    });
    await rematchBatch(w, 0);
    const posts = (await callJson("/api/v1/posts", { key: ws.readKey })).body.data;
    expect(
      posts.map((p: { forum_id: string; matched_keywords: string[] }) => [p.forum_id, p.matched_keywords]),
    ).toEqual([["s1", []]]);
  });
});
