// Editing a draft before approval (docs/blog-sync.md, "Editing a draft"): PATCH .../items/:item_id.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { fromRedditMarkdown, toRedditMarkdown } from "../../src/articles";
import { callJson, createTestWorkspace, type TestWorkspace } from "../helpers/api";
import { createConfig, items, newBlog, runConfig, SYNCS } from "../helpers/blogs";

let ws: TestWorkspace;
let other: TestWorkspace;
beforeAll(async () => {
  ws = await createTestWorkspace("edit");
  other = await createTestWorkspace("edit, other workspace");
});

const edit = (configId: number, postId: number, body: unknown, key = ws.writeKey) =>
  callJson(`${SYNCS}/${configId}/items/${postId}`, { key, method: "PATCH", body });

const row = (id: number) =>
  env.DB.prepare(
    "SELECT state, approved_at, edited_at, title, body_markdown, content_hash FROM synced_posts WHERE id = ?",
  )
    .bind(id)
    .first<Record<string, string | null>>();

describe("PATCH /actions/blog-subreddit-syncs/:id/items/:item_id", () => {
  it("stores the edit, marks it edited; later runs keep it and warn when the source changed", async () => {
    const blog = newBlog("edit");
    const config = await createConfig(ws, { blog_url: blog.feedUrl, subreddit: "rust" });
    await runConfig(ws, config.id, { publish: false });
    const post = (await items(ws, config.id)).data.find((p) => p.source_url === blog.postUrl(2));
    expect(post).toMatchObject({ state: "draft", edited: false, edited_at: null });

    const res = await edit(config.id, post.id, { title: "  My   own title ", body_markdown: "Written by **me**." });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      id: post.id,
      title: "My own title",
      body_markdown: "Written by **me**.",
      body_richtext: null,
      state: "draft",
      edited: true,
    });
    expect(res.body.edited_at).toEqual(expect.any(String));
    expect((await items(ws, config.id)).data.find((p) => p.id === post.id)).toEqual(res.body);

    // Same source: unchanged, the edit shown and kept, no warning.
    const again = await runConfig(ws, config.id, { publish: false });
    const item = again.body.items.find((i: { synced_post_id: number }) => i.synced_post_id === post.id);
    expect(item).toMatchObject({ action: "unchanged", title: "My own title", body_markdown: "Written by **me**." });
    expect(item.warnings).toEqual([]);

    // Changed source: still unchanged and kept, with a warning; the other drafts follow their source.
    await blog.control({ versions: { 2: 2, 3: 2 } });
    const changed = await runConfig(ws, config.id, { publish: false });
    const edited = changed.body.items.find((i: { synced_post_id: number }) => i.synced_post_id === post.id);
    expect(edited.action).toBe("unchanged");
    expect(edited.warnings.join(" ")).toContain("the source changed since this draft was edited");
    expect(changed.body.run).toMatchObject({ status: "completed", updated: 1, unchanged: 2 });
    expect(await row(post.id)).toMatchObject({ title: "My own title", body_markdown: "Written by **me**." });
  });

  it("re-renders the rich text from the edited markdown and keeps only the images it still shows", async () => {
    const blog = newBlog("edit-media");
    const config = await createConfig(ws, {
      blog_url: blog.feedUrl,
      subreddit: "rust",
      include_media: true,
      max_posts: 1,
    });
    await runConfig(ws, config.id, { publish: false });
    const [post] = (await items(ws, config.id)).data;
    expect(post.images).toHaveLength(1);
    const image = post.images[0];

    const withImage = await edit(config.id, post.id, {
      body_markdown: `**Edited** intro with a [link](https://example.com/a).\n\n[${image.alt}](${image.url})\n\n- one\n- two`,
    });
    expect(withImage.status, JSON.stringify(withImage.body)).toBe(200);
    expect(withImage.body.images).toEqual([image]);
    expect(withImage.body.body_richtext.document).toEqual([
      {
        e: "par",
        c: [
          { e: "text", t: "Edited intro with a ", f: [[1, 0, 6]] },
          { e: "link", t: "link", u: "https://example.com/a" },
          { e: "text", t: "." },
        ],
      },
      // Not uploaded yet (the publisher uploads it): a link to the image, as for a run's draft.
      { e: "par", c: [{ e: "link", t: image.alt, u: image.url }] },
      {
        e: "list",
        o: false,
        c: [
          { e: "li", c: [{ e: "par", c: [{ e: "text", t: "one" }] }] },
          { e: "li", c: [{ e: "par", c: [{ e: "text", t: "two" }] }] },
        ],
      },
    ]);

    const without = await edit(config.id, post.id, { body_markdown: "No picture any more." });
    expect(without.body.images).toEqual([]);
    expect(without.body.body_richtext).toEqual({
      document: [{ e: "par", c: [{ e: "text", t: "No picture any more." }] }],
    });
  });

  it("re-checks the forum's limits and writes nothing when they are broken", async () => {
    const blog = newBlog("edit-limits");
    const config = await createConfig(ws, { blog_url: blog.feedUrl, subreddit: "rust", max_posts: 1 });
    await runConfig(ws, config.id, { publish: false });
    const [post] = (await items(ws, config.id)).data;
    const before = await row(post.id);

    const long = await edit(config.id, post.id, { title: "t".repeat(301) });
    expect(long.status).toBe(400);
    expect(long.body.error.code).toBe("validation_failed");
    expect(long.body.error.details).toEqual([
      { path: "body.title", message: "the title has 301 characters; the forum allows at most 300" },
    ]);
    const empty = await edit(config.id, post.id, { title: " \n " });
    expect(empty.body.error.details[0]).toEqual({
      path: "body.title",
      message: "the title is empty; give the post a title",
    });
    const body = await edit(config.id, post.id, { body_markdown: "é".repeat(40_001) });
    expect(body.status).toBe(400);
    expect(body.body.error.details[0].path).toBe("body.body_markdown");
    expect((await edit(config.id, post.id, {})).status).toBe(400);
    expect((await edit(config.id, post.id, { title: "x", state: "published" })).status).toBe(400);
    expect(await row(post.id)).toEqual(before);
    // 300 characters counted as the forum counts them (code points), not UTF-16 units.
    expect((await edit(config.id, post.id, { title: "😀".repeat(300) })).status).toBe(200);
  });

  it("puts a queued post back to draft and clears its approval; published posts are refused", async () => {
    const blog = newBlog("edit-queued");
    const config = await createConfig(ws, { blog_url: blog.feedUrl, subreddit: "rust", publish_immediately: true });
    await runConfig(ws, config.id);
    const [first, second] = (await items(ws, config.id, "queued")).data;
    await env.DB.prepare("UPDATE synced_posts SET approved_at = '2026-11-23T00:00:00.000Z' WHERE id = ?")
      .bind(first.id)
      .run();

    const res = await edit(config.id, first.id, { title: "Better title" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ state: "draft", approved_at: null, edited: true, title: "Better title" });

    await env.DB.prepare("UPDATE synced_posts SET state = 'published' WHERE id = ?").bind(second.id).run();
    const refused = await edit(config.id, second.id, { title: "Too late" });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("invalid_state");
    expect(refused.body.error.message).toBe(
      `synced post ${second.id} is published; only draft, queued and failed posts can be edited`,
    );

    // Wrong config, another workspace, read key.
    const otherConfig = await createConfig(ws, { blog_url: blog.feedUrl, subreddit: "golang" });
    expect((await edit(otherConfig.id, first.id, { title: "x" })).status).toBe(404);
    expect((await edit(config.id, first.id, { title: "x" }, other.writeKey)).status).toBe(404);
    expect((await edit(config.id, first.id, { title: "x" }, ws.readKey)).status).toBe(403);
  });

  it("edits a failed post back to draft, its error and approval cleared, unless a submission of it went unanswered", async () => {
    const blog = newBlog("edit-failed");
    const config = await createConfig(ws, { blog_url: blog.feedUrl, subreddit: "rust", publish_immediately: true });
    await runConfig(ws, config.id, { max_posts: 2 });
    const [refused, unanswered] = (await items(ws, config.id, "queued")).data;
    // Refused by the forum (the marker cleared), and given up on while a submission's answer was not in.
    await env.DB.prepare(
      "UPDATE synced_posts SET state = 'failed', approved_at = ?, error = ?, submit_attempted_at = NULL WHERE id = ?",
    )
      .bind("2026-11-23T00:00:00.000Z", "the forum refused the post: SUBREDDIT_NOTALLOWED", refused.id)
      .run();
    await env.DB.prepare(
      "UPDATE synced_posts SET state = 'failed', approved_at = ?, error = ?, submit_attempted_at = ? WHERE id = ?",
    )
      .bind(
        "2026-11-23T00:00:00.000Z",
        "publishing was given up after every retry",
        "2026-11-23T00:01:00.000Z",
        unanswered.id,
      )
      .run();

    const res = await edit(config.id, refused.id, { title: "Fixed title" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      state: "draft",
      approved_at: null,
      error: null,
      edited: true,
      title: "Fixed title",
    });
    expect((await items(ws, config.id, "failed")).data.map((p: { id: number }) => p.id)).toEqual([unanswered.id]);

    const before = await row(unanswered.id);
    const again = await edit(config.id, unanswered.id, { title: "Another title" });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("invalid_state");
    expect(again.body.error.message).toMatch(/may be on the forum already/);
    expect(await row(unanswered.id)).toEqual(before);
  });

  it("refuses to edit a queued post whose submission may already have reached the forum (no second post)", async () => {
    const blog = newBlog("edit-submitting");
    const config = await createConfig(ws, { blog_url: blog.feedUrl, subreddit: "rust", publish_immediately: true });
    await runConfig(ws, config.id, { max_posts: 1 });
    const [queued] = (await items(ws, config.id, "queued")).data;
    // A submission whose answer was lost: the marker stays until the retry finds it in the submitted list by
    // its title; a new title would make the retry post it again.
    await env.DB.prepare("UPDATE synced_posts SET approved_at = ?, submit_attempted_at = ? WHERE id = ?")
      .bind("2026-11-23T00:00:00.000Z", "2026-11-23T00:01:00.000Z", queued.id)
      .run();
    const before = await row(queued.id);
    const res = await edit(config.id, queued.id, { title: "A new title" });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("invalid_state");
    expect(res.body.error.message).toMatch(/being submitted/);
    expect(await row(queued.id)).toEqual(before);
  });
});

describe("reading markdown back into blocks", () => {
  it("reads what the markdown renderer writes: rendering it again gives the same markdown", () => {
    const markdown = [
      "# Heading",
      "",
      "A paragraph with **bold**, *italic*, ~~struck~~, `code`, ^(sup) and a [link](https://example.com/x_%28y%29).  ",
      "A second line, escaped \\*stars\\* and &lt;tags&gt;.",
      "",
      "> quoted **text**",
      "",
      "    let x = 1;",
      "    let y = 2;",
      "",
      "1. first",
      "2. second",
      "",
      "   - nested",
      "",
      "| a | b |",
      "|:--|:--|",
      "| 1 | **2** |",
      "",
      "---",
    ].join("\n");
    const blocks = fromRedditMarkdown(markdown);
    const article = {
      url: "https://example.com/",
      canonicalUrl: "https://example.com/",
      title: "t",
      byline: null,
      publishedAt: null,
      leadImage: null,
      blocks,
      images: [],
      text: "",
      warnings: [],
    };
    expect(toRedditMarkdown(article).markdown).toBe(markdown);
  });
});
