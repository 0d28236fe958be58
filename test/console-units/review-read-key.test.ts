// The review page runs the publish preflight, which signs in to the forum as the persona in the workspace's
// browser. Through the API that is POST .../publish-preflight, refused to a read key (403); a read-key console
// session viewing the page must not make it happen either, while a read_write session still gets the report.
import { describe, expect, it } from "vitest";
import { callJson } from "../helpers/api";
import { getPage, signedIn } from "../helpers/console-client";
import { stats } from "../helpers/forum";
import { addPost, SYNCS, scene } from "../helpers/publishing";

describe("the review page's publish preflight and the session's key scope", () => {
  it("a read-key session sees why there is no preflight and the forum sees nothing; a read_write session runs it", async () => {
    const s = await scene();
    const post = await addPost(s, {}, "draft");
    const path = `/app/syncs/${s.config.id}/items/${post.id}`;
    const forumTraffic = async () => (await stats({ account: s.persona.account.username })).total;

    // The API's answer to a read key.
    const api = await callJson(`${SYNCS}/${s.config.id}/publish-preflight`, {
      key: s.ws.readKey,
      method: "POST",
      body: { synced_post_id: post.id },
    });
    expect([api.status, api.body.error.code]).toEqual([403, "forbidden"]);

    const before = await forumTraffic();
    const read = await signedIn(s.ws.readKey, path);
    const page = await (await getPage(path, read.cookie)).text();
    expect(await forumTraffic()).toBe(before);
    expect(page).toContain("which needs a read_write key; this session is read-only");

    const write = await signedIn(s.ws.writeKey, path);
    const written = await (await getPage(path, write.cookie)).text();
    expect(written).not.toContain("which needs a read_write key");
    expect(written).toContain("persona: ok");
    expect(await forumTraffic()).toBeGreaterThan(before);
  }, 60_000);
});
