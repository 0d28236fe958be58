// The permalink a published post keeps leads to the post: the local forum's public site (test/fixtures/forum/site.ts)
// serves the thread at the address its submit answer names, as the real forum does.
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { callJson } from "../helpers/api";
import { addPost, deliver, item, SYNCS, scene, task } from "../helpers/publishing";

it("the published post's permalink answers the post on the forum; an unknown thread is 404", async () => {
  const s = await scene();
  const post = await addPost(s, { title: "Queues <b>& locks</b>", bodyMarkdown: "One lock per workspace." });
  const approved = await callJson(`${SYNCS}/${s.config.id}/items/${post.id}/approve`, {
    key: s.ws.writeKey,
    method: "POST",
  });
  expect(approved.status).toBe(200);
  await deliver([task(s, post.id)]);
  const published = await item(s, post.id);
  expect(published.state).toBe("published");
  expect(published.permalink).toMatch(new RegExp(`^/r/${s.sr}/comments/[a-z0-9]+/`));

  const page = await fetch(`${env.FORUM_BASE_URL}${published.permalink}`);
  expect(page.status).toBe(200);
  expect(page.headers.get("content-type")).toMatch(/^text\/html/);
  const html = await page.text();
  expect(html).toContain("<h1>Queues &lt;b&gt;&amp; locks&lt;/b&gt;</h1>");
  expect(html).toContain("One lock per workspace.");
  expect(html).toContain(`u/${s.persona.account.username}`);

  const missing = await fetch(`${env.FORUM_BASE_URL}/r/${s.sr}/comments/zzzzzz/nothing/`);
  expect(missing.status).toBe(404);
  await missing.arrayBuffer();
}, 120_000);
