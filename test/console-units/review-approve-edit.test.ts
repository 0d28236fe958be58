// The review page answers its forms with the changed state and a short confirmation (post/redirect/get): an
// approved post says so and its button is done; an edit is saved through the PATCH route's service and shown;
// the preview names the persona as the forum does (u/<name>); a service message that names an API route reads
// in the console's words.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { callJson } from "../helpers/api";
import { getPage, postForm, signedIn } from "../helpers/console-client";
import { addPost, SYNCS, scene } from "../helpers/publishing";

describe("the review page's approve and edit", () => {
  it("approve: redirects to the page that says approved, with its button done", async () => {
    const s = await scene();
    const post = await addPost(s, {}, "draft");
    const path = `/app/syncs/${s.config.id}/items/${post.id}`;
    const session = await signedIn(s.ws.writeKey, path);
    const before = await (await getPage(path, session.cookie)).text();
    expect(before).toContain(`Posted by u/${s.persona.account.username} (chosen automatically)`);
    expect(before).not.toContain("Posted by persona");

    const res = await postForm(`${path}/approve`, session, {});
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`${path}?done=approved`);
    const after = await (await getPage(res.headers.get("location")!, session.cookie)).text();
    expect(after).toContain("Approved for publishing.");
    expect(after).toMatch(/<button type="submit" disabled="" aria-describedby="approve-why">Approved<\/button>/);
    expect(after).toContain('<span class="badge approved">approved</span>');
    // A reload shows the state, not the confirmation again.
    expect(await (await getPage(path, session.cookie)).text()).not.toContain("Approved for publishing.");
  }, 60_000);

  it("edit: saves title and markdown through the draft edit, and keeps a refused edit's input beside its error", async () => {
    const s = await scene();
    const post = await addPost(s, {}, "queued");
    const path = `/app/syncs/${s.config.id}/items/${post.id}`;
    const session = await signedIn(s.ws.writeKey, path);

    const refused = await postForm(`${path}/edit`, session, { title: "   ", body_markdown: "kept text" });
    expect(refused.status).toBe(400);
    const page = await refused.text();
    expect(page).toMatch(/id="f-title-error"/);
    expect(page).toContain(">kept text</textarea>");

    const res = await postForm(`${path}/edit`, session, {
      title: "Queues, edited",
      body_markdown: "| a | b |\n|:--|--:|\n| 1 | 2 |",
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`${path}?done=edited`);
    const shown = await (await getPage(res.headers.get("location")!, session.cookie)).text();
    expect(shown).toContain("Saved. The preview below shows the edited post.");
    expect(shown).toContain('<h2 class="title">Queues, edited</h2>');
    expect(shown).toContain('<td class="align-right">2</td>');
    const item = await callJson(`${SYNCS}/${s.config.id}/items?state=draft`, { key: s.ws.readKey });
    expect(item.body.data.find((p: { id: number }) => p.id === post.id)).toMatchObject({
      title: "Queues, edited",
      state: "draft",
      edited: true,
    });
  }, 60_000);

  it("a publish error naming the API's approve route reads as the console's Approve", async () => {
    const s = await scene();
    const post = await addPost(s, {}, "queued");
    await env.DB.prepare("UPDATE synced_posts SET error = ? WHERE id = ?")
      .bind("not published: gate closed: the post is not approved (POST .../items/:item_id/approve)", post.id)
      .run();
    const session = await signedIn(s.ws.readKey, `/app/syncs/${s.config.id}`);
    for (const path of [`/app/syncs/${s.config.id}`, `/app/syncs/${s.config.id}/items/${post.id}`]) {
      const html = await (await getPage(path, session.cookie)).text();
      expect(html, path).toContain("the post is not approved: approve it on its review page");
      expect(html, path).not.toContain("POST .../items");
    }
  }, 60_000);

  it("the sync's settings pick the persona by name, and saving answers with the saved state and a confirmation", async () => {
    const s = await scene();
    const path = `/app/syncs/${s.config.id}`;
    const session = await signedIn(s.ws.writeKey, path);
    const page = await (await getPage(path, session.cookie)).text();
    expect(page).toContain('<select id="f-persona_id" name="persona_id">');
    expect(page).toContain(`<option value="${s.persona.id}">u/${s.persona.account.username}</option>`);
    expect(page).not.toContain("Persona id");

    const res = await postForm(path, session, {
      blog_url: String(s.config.blog_url),
      subreddit: s.sr,
      persona_id: String(s.persona.id),
      active: "true",
      publish_immediately: "true",
      max_posts: "5",
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`${path}?done=saved`);
    const saved = await (await getPage(res.headers.get("location")!, session.cookie)).text();
    expect(saved).toContain("Settings saved.");
    expect(saved).toContain(`<option value="${s.persona.id}" selected="">u/${s.persona.account.username}</option>`);
  }, 60_000);
});
