// The config's `source_link` (docs/blog-sync.md, "The config"): on by default, a run's draft ends with a line
// linking back to the article, in the markdown and in the rich text; turning it off changes no fingerprint and
// takes the line out on the next run. Where the destination's post requirements forbid the link, the
// submission leaves the line out and readiness and preflight say so.
import { describe, expect, it } from "vitest";
import { sourceLineMarkdown } from "../../src/articles";
import { callJson } from "../helpers/api";
import { SYNCS, scene } from "../helpers/publishing";

const draftsOf = async (s: Awaited<ReturnType<typeof scene>>) =>
  (await callJson(`${SYNCS}/${s.config.id}/items?state=draft`, { key: s.ws.readKey })).body.data as any[];

const runDrafts = async (s: Awaited<ReturnType<typeof scene>>) => {
  const run = await callJson(`${SYNCS}/${s.config.id}/run`, {
    key: s.ws.writeKey,
    method: "POST",
    body: { publish: false, max_posts: 1 },
  });
  expect(run.status, JSON.stringify(run.body)).toBe(200);
  expect(run.body.run.status).toBe("completed");
  return run.body;
};

describe("source_link", () => {
  it("is on by default: the draft's last line links to the article; off, the next run takes it out", async () => {
    const s = await scene({ config: { include_media: true } });
    expect(s.config.source_link).toBe(true);
    await runDrafts(s);
    const [draft] = await draftsOf(s);
    const line = `Originally published at [127.0.0.1](${draft.source_url})`;
    expect(sourceLineMarkdown(draft.source_url)).toBe(line);
    expect(draft.body_markdown.endsWith(`\n\n${line}`)).toBe(true);
    expect(draft.body_richtext.document.at(-1)).toEqual({
      e: "par",
      c: [
        { e: "text", t: "Originally published at " },
        { e: "link", t: "127.0.0.1", u: draft.source_url },
      ],
    });

    const off = await callJson(SYNCS, {
      key: s.ws.writeKey,
      method: "POST",
      body: { id: s.config.id, source_link: false },
    });
    expect(off.status).toBe(200);
    expect(off.body.source_link).toBe(false);
    expect(off.body.fingerprint).toBe(s.config.fingerprint);
    const again = await runDrafts(s);
    expect(again.items.map((i: { action: string }) => i.action)).toEqual(["update"]);
    const [updated] = await draftsOf(s);
    expect(updated.body_markdown).toBe(draft.body_markdown.slice(0, -line.length - 2));
    expect(updated.body_markdown).not.toContain("Originally published at");
    expect(JSON.stringify(updated.body_richtext)).not.toContain("Originally published at");
  }, 120_000);

  it("is sent where the destination allows links, and nothing is said", async () => {
    const s = await scene();
    await runDrafts(s);
    const [draft] = await draftsOf(s);
    const pre = await callJson(`${SYNCS}/${s.config.id}/publish-preflight`, {
      key: s.ws.writeKey,
      method: "POST",
      body: { synced_post_id: draft.id },
    });
    expect(pre.body.ok, JSON.stringify(pre.body)).toBe(true);
    expect(pre.body.submission.text).toBe(draft.body_markdown);
    expect(pre.body.checks.map((c: { name: string }) => c.name)).not.toContain("source_link");
  }, 120_000);

  it("is left out where the post requirements forbid the link, and readiness and preflight say so", async () => {
    const s = await scene({ subreddit: { requirements: { domain_blacklist: ["127.0.0.1"] } } });
    await runDrafts(s);
    const [draft] = await draftsOf(s);
    const line = sourceLineMarkdown(draft.source_url);
    const said = {
      name: "source_link",
      ok: true,
      reason: "the source line is left out: the subreddit bans links to 127.0.0.1",
    };

    const ready = await callJson(`${SYNCS}/${s.config.id}/readiness`, { key: s.ws.writeKey, method: "POST" });
    expect(ready.body.ready, JSON.stringify(ready.body)).toBe(true);
    expect(ready.body.checks).toContainEqual(said);

    const pre = await callJson(`${SYNCS}/${s.config.id}/publish-preflight`, {
      key: s.ws.writeKey,
      method: "POST",
      body: { synced_post_id: draft.id },
    });
    expect(pre.body.checks).toContainEqual(said);
    expect(pre.body.submission.text).toBe(draft.body_markdown.slice(0, -line.length - 2));
    expect(pre.body.submission.text).not.toContain(line);
  }, 120_000);
});
