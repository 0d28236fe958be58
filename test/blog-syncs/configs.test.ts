import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { checkBlogUrl } from "../../src/blog-sync/config-rules";
import { fromDomainError } from "../../src/errors";
import { DomainError } from "../../src/lib/domain-errors";
import { callJson, createTestWorkspace, type TestWorkspace } from "../helpers/api";
import { createConfig, SYNCS } from "../helpers/blogs";
import { newPersona } from "../helpers/forum";

let ws: TestWorkspace;
let other: TestWorkspace;

beforeAll(async () => {
  ws = await createTestWorkspace("configs");
  other = await createTestWorkspace("configs other");
});

/** Computed here, not with the code under test. */
async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const blog = (path: string) => `${env.FIXTURE_ORIGIN}/__blogsync/configs-${path}/feed.xml`;
const save = (body: unknown, key = ws.writeKey) => callJson(SYNCS, { key, method: "POST", body });

describe("POST /actions/blog-subreddit-syncs: upsert", () => {
  it("creates with defaults (201), strips r/ and computes the fingerprint of the fingerprinted settings", async () => {
    const res = await save({ blog_url: blog("a"), subreddit: "r/Web_Dev" });
    expect(res.status).toBe(201);
    const config = res.body;
    expect(config).toMatchObject({
      blog_url: blog("a"),
      subreddit: "Web_Dev",
      persona_id: null,
      include_media: false,
      active: true,
      publish_immediately: false,
      max_posts: 5,
      last_run_at: null,
      last_error: null,
      item_counts: { draft: 0, queued: 0, published: 0, failed: 0 },
    });
    expect(config.id).toBeGreaterThan(0);
    // docs/blog-sync.md: SHA-256 hex of the canonical JSON (sorted keys, no spaces, subreddit lowercased).
    const canonical = `{"active":true,"blog_url":"${blog("a")}","include_media":false,"max_posts":5,"persona_id":null,"publish_immediately":false,"subreddit":"web_dev"}`;
    expect(config.fingerprint).toBe(await sha256Hex(canonical));
    expect(new Date(config.created_at).toISOString()).toBe(config.created_at);
  });

  it("updates the config with the same normalized blog_url + subreddit (200) instead of creating another", async () => {
    const first = await save({ blog_url: blog("b"), subreddit: "rust", max_posts: 3 });
    expect(first.status).toBe(201);
    // Same target: tracking parameters and fragment dropped, subreddit case and r/ prefix ignored.
    const second = await save({
      blog_url: `${blog("b")}?utm_source=x#top`,
      subreddit: "r/RUST",
      publish_immediately: true,
    });
    expect(second.status).toBe(200);
    expect(second.body.id).toBe(first.body.id);
    expect(second.body.publish_immediately).toBe(true);
    expect(second.body.max_posts).toBe(3); // not given: kept
    expect(second.body.subreddit).toBe("RUST");
    expect(second.body.fingerprint).not.toBe(first.body.fingerprint);
    const list = await callJson(SYNCS, { key: ws.readKey });
    expect(list.body.data.filter((c: { id: number }) => c.id === first.body.id)).toHaveLength(1);
  });

  it("with id updates that config, keeping fields not given; an unchanged setting keeps the fingerprint", async () => {
    const created = await createConfig(ws, { blog_url: blog("c"), subreddit: "golang", include_media: true });
    const same = await save({ id: created.id, include_media: true });
    expect(same.status).toBe(200);
    expect(same.body.fingerprint).toBe(created.fingerprint);
    const personaId = (await newPersona(ws)).id;
    const unknown = await save({ id: created.id, persona_id: personaId + 1000 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details).toEqual([
      { path: "body.persona_id", message: "no persona with this id in the workspace" },
    ]);
    const moved = await save({ id: created.id, subreddit: "programming", persona_id: personaId });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({
      id: created.id,
      blog_url: blog("c"),
      subreddit: "programming",
      persona_id: personaId,
      include_media: true,
    });
    expect(moved.body.fingerprint).not.toBe(created.fingerprint);
    const cleared = await save({ id: created.id, persona_id: null });
    expect(cleared.body.persona_id).toBeNull();
    expect((await callJson(`${SYNCS}/${created.id}`, { key: ws.readKey })).body).toEqual(cleared.body);
  });

  it("concurrent updates of different fields of one config each keep the other's change", async () => {
    const created = await createConfig(ws, { blog_url: blog("concurrent"), subreddit: "golang" });
    const changes = [
      { active: false },
      { max_posts: 7 },
      { include_media: true },
      { publish_immediately: true },
      { flair_id: "f-1" },
    ];
    const answers = await Promise.all(changes.map((change) => save({ id: created.id, ...change })));
    expect(answers.map((a) => a.status)).toEqual(changes.map(() => 200));
    const stored = (await callJson(`${SYNCS}/${created.id}`, { key: ws.readKey })).body;
    expect(stored).toMatchObject({
      active: false,
      max_posts: 7,
      include_media: true,
      publish_immediately: true,
      flair_id: "f-1",
    });
    // The fingerprint is that of the settings as stored, not of one writer's view of them.
    const again = await save({ id: created.id, active: false });
    expect(again.body.fingerprint).toBe(stored.fingerprint);
  });

  it("refuses to move a config onto another config's blog + subreddit (409 invalid_state)", async () => {
    await createConfig(ws, { blog_url: blog("d"), subreddit: "node" });
    const second = await createConfig(ws, { blog_url: blog("d"), subreddit: "deno" });
    const res = await save({ id: second.id, subreddit: "r/node" });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("invalid_state");
    expect((await callJson(`${SYNCS}/${second.id}`, { key: ws.readKey })).body.subreddit).toBe("deno");
  });

  it("lists ({data, count}) and gets only the caller's workspace configs", async () => {
    const mine = await createConfig(ws, { blog_url: blog("e"), subreddit: "elixir" });
    const theirs = await createConfig(other, { blog_url: blog("e"), subreddit: "elixir" });
    const list = await callJson(SYNCS, { key: other.readKey });
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(list.body.data.length);
    expect(list.body.data.map((c: { id: number }) => c.id)).toEqual([theirs.id]);
    expect((await callJson(`${SYNCS}/${theirs.id}`, { key: other.readKey })).status).toBe(200);
    // Another workspace's ids are 404 everywhere, reads and writes.
    for (const res of [
      await callJson(`${SYNCS}/${mine.id}`, { key: other.readKey }),
      await callJson(`${SYNCS}/${mine.id}/items`, { key: other.readKey }),
      await callJson(`${SYNCS}/${mine.id}/run`, { key: other.writeKey, method: "POST", body: { dry_run: true } }),
      await save({ id: mine.id, active: false }, other.writeKey),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("not_found");
    }
    expect((await callJson(`${SYNCS}/${mine.id}`, { key: ws.readKey })).body.active).toBe(true);
  });

  it("needs a read_write key for writes (403) and a key at all (401)", async () => {
    const created = await createConfig(ws, { blog_url: blog("f"), subreddit: "python" });
    for (const res of [
      await save({ blog_url: blog("g"), subreddit: "python" }, ws.readKey),
      await callJson(`${SYNCS}/${created.id}/run`, { key: ws.readKey, method: "POST", body: { dry_run: true } }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe("forbidden");
    }
    expect((await callJson(SYNCS, { key: null })).status).toBe(401);
    const list = await callJson(SYNCS, { key: ws.readKey });
    expect(list.body.data.some((c: { blog_url: string }) => c.blog_url === blog("g"))).toBe(false);
  });
});

describe("validation", () => {
  const invalid = async (body: unknown, path: string) => {
    const res = await save(body);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.code).toBe("validation_failed");
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    expect(res.body.error.request_id).toMatch(/^req_/);
  };

  it("rejects bad blog URLs", async () => {
    await invalid({ blog_url: "not a url", subreddit: "rust" }, "body.blog_url");
    await invalid({ blog_url: "/relative/feed.xml", subreddit: "rust" }, "body.blog_url");
    await invalid({ blog_url: "ftp://example.com/feed", subreddit: "rust" }, "body.blog_url");
    await invalid({ blog_url: "javascript:alert(1)", subreddit: "rust" }, "body.blog_url");
    await invalid({ blog_url: "https://user:pw@example.com/", subreddit: "rust" }, "body.blog_url");
  });

  it("rejects bad subreddit names", async () => {
    for (const subreddit of ["ab", "a".repeat(22), "has space", "r/", "dash-name", "ünïcode", ""]) {
      await invalid({ blog_url: "https://example.com/feed", subreddit }, "body.subreddit");
    }
  });

  it("enforces max_posts 1..50 and integer types", async () => {
    for (const max_posts of [0, 51, 2.5, "5"])
      await invalid({ blog_url: "https://example.com/", subreddit: "rust", max_posts }, "body.max_posts");
  });

  it("rejects unknown fields, missing required fields and wrong types", async () => {
    await invalid(
      { blog_url: "https://example.com/", subreddit: "rust", publish_immediatly: true },
      "body.publish_immediatly",
    );
    await invalid({ subreddit: "rust" }, "body.blog_url");
    await invalid({ blog_url: "https://example.com/" }, "body.subreddit");
    await invalid({ blog_url: "https://example.com/", subreddit: "rust", active: "yes" }, "body.active");
    await invalid({ id: 0 }, "body.id");
    const res = await callJson(SYNCS, {
      key: ws.writeKey,
      method: "POST",
      rawBody: "{nope",
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_json");
  });

  it("rejects bad run bodies and bad item filters", async () => {
    const created = await createConfig(ws, { blog_url: blog("v"), subreddit: "rust" });
    for (const body of [{ max_posts: 0 }, { max_posts: 51 }, { dry_run: "true" }, { dryrun: true }]) {
      const res = await callJson(`${SYNCS}/${created.id}/run`, { key: ws.writeKey, method: "POST", body });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("validation_failed");
    }
    for (const query of ["state=posted", "limit=0", "stat=draft"]) {
      const res = await callJson(`${SYNCS}/${created.id}/items?${query}`, { key: ws.readKey });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("validation_failed");
    }
    expect((await callJson(`${SYNCS}/abc`, { key: ws.readKey })).status).toBe(400);
  });

  it("stores nothing when validation fails", async () => {
    const before = (await callJson(SYNCS, { key: ws.readKey })).body.count;
    await save({ blog_url: "http://127.0.0.1/feed", subreddit: "x" });
    await save({ blog_url: "https://example.com/", subreddit: "rust", max_posts: 99 });
    expect((await callJson(SYNCS, { key: ws.readKey })).body.count).toBe(before);
  });
});

describe("private addresses (docs/security.md)", () => {
  const refused = (url: string) => {
    try {
      checkBlogUrl(url, false);
    } catch (err) {
      expect(err).toBeInstanceOf(DomainError);
      const answered = fromDomainError(err as DomainError);
      expect(answered.code).toBe("validation_failed");
      expect(answered.details?.[0]?.path).toBe("body.blog_url");
      return true;
    }
    return false;
  };

  it("refuses loopback, private, link-local, metadata and local-network hosts when not allowed", () => {
    for (const url of [
      "http://127.0.0.1:8080/feed",
      "http://localhost/blog",
      "http://[::1]/",
      "http://10.1.2.3/",
      "http://192.168.0.10/",
      "http://172.16.5.4/",
      "http://169.254.169.254/latest/meta-data/",
      "http://0.0.0.0/",
      "http://printer.local/",
      "http://intranet/",
    ]) {
      expect(refused(url), url).toBe(true);
    }
  });

  it("accepts public hosts, and private ones when ALLOW_PRIVATE_FETCH is on (as in local development)", () => {
    expect(checkBlogUrl("https://Blog.Example.com:443/feed.xml?utm_medium=x&b=2&a=1#frag", false)).toBe(
      "https://blog.example.com/feed.xml?a=1&b=2",
    );
    expect(checkBlogUrl("http://127.0.0.1:8080/feed", true)).toBe("http://127.0.0.1:8080/feed");
  });

  it("the service accepts the local fixture blog because the tests run with ALLOW_PRIVATE_FETCH=true", async () => {
    expect(env.ALLOW_PRIVATE_FETCH).toBe("true");
    expect((await save({ blog_url: blog("local"), subreddit: "rust" })).status).toBe(201);
  });
});
