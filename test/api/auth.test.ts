// The one auth path (src/http/auth-middleware.ts, check.ts): every /api/v1 request has its key judged before
// anything of the route runs, so a caller without a valid key costs no query of any workspace's data; keys
// are remembered per isolate for a few seconds (key-cache.ts); requests that fail authentication are
// limited by client address (AUTH_FAILURE_LIMITER, wrangler.toml).
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { addressBucket } from "../../src/auth/address-bucket";
import { createKey } from "../../src/auth/issue-key";
import { cachedKey, forgetAllKeys, KEY_CACHE_TTL_MS, rememberKey } from "../../src/auth/key-cache";
import {
  forgetLimitedAddresses,
  isLimited,
  LIMITED_FOR_MS,
  LIVE_KEYS_TTL_MS,
  liveKeyDigests,
  markLimited,
} from "../../src/auth/limited-addresses";
import { type ResolvedKey, revokeKey } from "../../src/db/api-keys";
import { directoryDb } from "../../src/db/client";
import { call, callJson, createTestWorkspace, type TestWorkspace } from "../helpers/api";
import { seedWorkspace } from "../helpers/seeded-posts";

let ws: TestWorkspace;
let revokedKey: string;
let expiredKey: string;
const unknownKey = `tw_live_${"x".repeat(40)}`;
const randomKey = () => `tw_live_${crypto.randomUUID().replaceAll("-", "")}xxxxxxxx`;

beforeAll(async () => {
  ws = await createTestWorkspace("auth");
  await seedWorkspace(ws.id, { count: 60, seed: 5, forumPrefix: "kq" });
  const db = directoryDb(env);
  const revoked = await createKey(db, ws.id, { name: "revoked", scope: "read" });
  await revokeKey(db, ws.id, revoked.record.id);
  revokedKey = revoked.key;
  expiredKey = (
    await createKey(db, ws.id, { name: "expired", scope: "read", expiresAt: new Date(Date.now() - 1000).toISOString() })
  ).key;
});

/** The real D1 binding, with every statement the Worker prepares written down. */
function recordingD1(d1: D1Database, seen: string[]): D1Database {
  return new Proxy(d1, {
    get(target, prop) {
      if (prop === "prepare")
        return (sql: string) => {
          seen.push(sql);
          return target.prepare(sql);
        };
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** Runs one request through the Worker's app with the recording D1; returns the answer and the SQL it ran. */
async function withRecordedSql(path: string, key: string) {
  const seen: string[] = [];
  const { app } = createApp();
  const ctx = createExecutionContext();
  const res = await app.fetch(
    new Request(`http://threadwatch.test${path}`, { headers: { authorization: `Bearer ${key}` } }),
    { ...env, DB: recordingD1(env.DB, seen) },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return { status: res.status, body: (await res.json()) as any, seen };
}

describe("no query of a workspace's data before the key is known valid", () => {
  const search = "/api/v1/posts?limit=1&search=t*%20OR%20c*%20OR%20e*";

  it("a search with a random well-formed key reads the key's row and nothing else", async () => {
    for (const key of [randomKey(), unknownKey, revokedKey, expiredKey]) {
      const { status, body, seen } = await withRecordedSql(search, key);
      expect([status, body.error.code]).toEqual([401, "unauthorized"]);
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.filter((sql) => !/^select .* from "api_keys" where "api_keys"."key_hash" = \?/i.test(sql))).toEqual(
        [],
      );
      expect(seen.some((sql) => /posts/i.test(sql))).toBe(false);
    }
  });

  it("the same search with a live key does run the full-text query", async () => {
    const { status, body, seen } = await withRecordedSql(search, ws.readKey);
    expect(status).toBe(200);
    expect(body.count).toBeGreaterThan(0);
    expect(seen.some((sql) => sql.includes("posts_fts MATCH ?"))).toBe(true);
  });
});

describe("GET /posts: the key decides first", () => {
  const deadKeys = () =>
    [
      ["unknown", unknownKey, "unknown API key"],
      ["revoked", revokedKey, "API key has been revoked"],
      ["expired", expiredKey, "API key has expired"],
    ] as const;

  it("answers 401 for a dead key even when the query is invalid or the search malformed", async () => {
    for (const [, key, message] of deadKeys()) {
      for (const query of ["", "?limit=0", "?sort_by=nope", "?search=%22unclosed", "?search=pricing"]) {
        const res = await callJson(`/api/v1/posts${query}`, { key });
        expect([query, res.status, res.body.error?.code, res.body.error?.message]).toEqual([
          query,
          401,
          "unauthorized",
          message,
        ]);
        expect(res.res.headers.get("www-authenticate")).toBe("Bearer");
      }
    }
  });

  it("answers 400 for the same mistakes with a live key", async () => {
    for (const query of ["?limit=0", "?sort_by=nope", "?search=%22unclosed"]) {
      const res = await callJson(`/api/v1/posts${query}`, { key: ws.readKey });
      expect([query, res.status, res.body.error?.code]).toEqual([query, 400, "validation_failed"]);
    }
  });

  it("records the key's use (last_used_at) as every other route does", async () => {
    const fresh = await createKey(directoryDb(env), ws.id, { name: "fresh", scope: "read" });
    // last_used_at is written after the response, through waitUntil: withRecordedSql waits for that work
    // (waitOnExecutionContext) before the row is read, instead of racing it.
    expect((await withRecordedSql("/api/v1/posts?limit=1", fresh.key)).status).toBe(200);
    const row = await env.DB.prepare("SELECT last_used_at FROM api_keys WHERE id = ?")
      .bind(fresh.record.id)
      .first<{ last_used_at: string | null }>();
    expect(row?.last_used_at).not.toBeNull();
  });
});

describe("GET /posts search counts", () => {
  it("gives the right count on a page past the last hit, and on pages inside", async () => {
    const all = await callJson("/api/v1/posts?search=pricing&include_archived=true&limit=500", { key: ws.readKey });
    const total = all.body.count as number;
    expect(total).toBeGreaterThan(3);
    expect(all.body.data).toHaveLength(total);
    const middle = await callJson(`/api/v1/posts?search=pricing&include_archived=true&limit=2&offset=${total - 3}`, {
      key: ws.readKey,
    });
    expect([middle.body.data.length, middle.body.count, middle.body.next_offset]).toEqual([2, total, total - 1]);
    const past = await callJson(`/api/v1/posts?search=pricing&include_archived=true&offset=${total + 5}`, {
      key: ws.readKey,
    });
    expect([past.status, past.body.data.length, past.body.count, past.body.next_offset]).toEqual([200, 0, total, null]);
    const none = await callJson("/api/v1/posts?search=nosuchwordanywhere", { key: ws.readKey });
    expect([none.body.data.length, none.body.count]).toEqual([0, 0]);
  });
});

describe("failed authentication is limited by client address", () => {
  const FAILURES_PER_MINUTE = 30; // wrangler.toml AUTH_FAILURE_LIMITER
  const WINDOW_MS = 60_000;

  /** Sends requests with random keys from `address`, the first `count` in parallel; the statuses. */
  const fail = (address: string, count: number) =>
    Promise.all(
      Array.from({ length: count }, async () => {
        const res = await callJson("/api/v1/posts?search=pricing", {
          key: randomKey(),
          headers: { "cf-connecting-ip": address },
        });
        return res.status;
      }),
    );

  /**
   * Miniflare's limiter counts in windows aligned to the wall clock: a run that straddles a window boundary
   * starts again from a fresh count (at most once: the whole run takes well under a minute). That holds for a
   * run whose assertions failed too, since a fresh window can turn the expected 429 into a 401; a run that
   * failed within one window fails the test.
   */
  async function inOneWindow<T>(run: () => Promise<T>): Promise<T> {
    for (;;) {
      const window = Math.floor(Date.now() / WINDOW_MS);
      const sameWindow = () => Math.floor(Date.now() / WINDOW_MS) === window;
      try {
        const result = await run();
        if (sameWindow()) return result;
      } catch (err) {
        if (sameWindow()) throw err;
      }
    }
  }

  it("answers 429 after the limit of failures from one address; other addresses and valid keys unaffected", async () => {
    let n = 0;
    await inOneWindow(async () => {
      const address = `203.0.113.${++n}`;
      expect(await fail(address, FAILURES_PER_MINUTE)).toEqual(Array(FAILURES_PER_MINUTE).fill(401));
      const limited = await callJson("/api/v1/posts?search=pricing", {
        key: randomKey(),
        headers: { "cf-connecting-ip": address },
      });
      expect([limited.status, limited.body.error.code]).toEqual([429, "rate_limited"]);
      expect(limited.body.error.message).toContain("without a valid API key from this address");
      expect(limited.res.headers.get("retry-after")).toBe("60");
      // A missing key counts as a failure too.
      expect((await call("/api/v1/keywords", { headers: { "cf-connecting-ip": address } })).status).toBe(429);
      // Another address is not affected.
      expect(await fail(`198.51.100.${n}`, 1)).toEqual([401]);
      // A valid key from the limited address still works: only failures are limited.
      const valid = await callJson("/api/v1/posts?search=pricing", {
        key: ws.readKey,
        headers: { "cf-connecting-ip": address },
      });
      expect(valid.status).toBe(200);
    });
  });

  it("an address over its limit: unknown and revoked keys 429 from the live keys' digests, a live key still works unremembered", async () => {
    let n = 0;
    await inOneWindow(async () => {
      const address = `192.0.2.${++n}`;
      expect(await fail(address, FAILURES_PER_MINUTE)).toEqual(Array(FAILURES_PER_MINUTE).fill(401));
      expect(await fail(address, 3)).toEqual([429, 429, 429]);
      const made = await createKey(directoryDb(env), ws.id, { name: "soon revoked", scope: "read" });
      await revokeKey(directoryDb(env), ws.id, made.record.id);
      const revoked = await call("/api/v1/keywords", { key: made.key, headers: { "cf-connecting-ip": address } });
      expect(revoked.status).toBe(429);
      // Not remembered by this isolate: found among the live keys, then looked up and accepted as before.
      forgetAllKeys();
      const valid = await call("/api/v1/keywords", { key: ws.readKey, headers: { "cf-connecting-ip": address } });
      expect(valid.status).toBe(200);
    });
  });

  it("marks an address for a few seconds and reads the live keys' digests once per few seconds", async () => {
    markLimited("198.18.0.1", 1_000);
    expect(isLimited("198.18.0.1", 1_000 + LIMITED_FOR_MS - 1)).toBe(true);
    expect(isLimited("198.18.0.1", 1_000 + LIMITED_FOR_MS)).toBe(false);
    expect(isLimited("198.18.0.2", 1_000)).toBe(false);
    let reads = 0;
    const read = async () => {
      reads++;
      return [`digest-${reads}`];
    };
    const now = 10 ** 13; // later than any read other tests made through the route
    const [first, second] = await Promise.all([liveKeyDigests(read, now), liveKeyDigests(read, now)]);
    expect(reads).toBe(1);
    expect(first).toBe(second);
    expect((await liveKeyDigests(read, now + LIVE_KEYS_TTL_MS - 1)).has("digest-1")).toBe(true);
    expect(reads).toBe(1);
    expect((await liveKeyDigests(read, now + LIVE_KEYS_TTL_MS)).has("digest-2")).toBe(true);
    expect(reads).toBe(2);
    // The route shares this isolate's memory: later tests must not see these made-up digests.
    forgetLimitedAddresses();
  });

  it("counts an IPv6 client by its /64", async () => {
    let n = 0;
    await inOneWindow(async () => {
      const net = `2001:db8:${++n}:1`;
      const statuses = await Promise.all(
        Array.from({ length: FAILURES_PER_MINUTE }, async (_, i) => {
          const res = await call("/api/v1/keywords", {
            key: randomKey(),
            headers: { "cf-connecting-ip": `${net}::${(i + 1).toString(16)}` },
          });
          return res.status;
        }),
      );
      expect(statuses).toEqual(Array(FAILURES_PER_MINUTE).fill(401));
      const sameNet = await call("/api/v1/keywords", { headers: { "cf-connecting-ip": `${net}:ffff:1:2:3` } });
      expect(sameNet.status).toBe(429);
      const otherNet = await call("/api/v1/keywords", { headers: { "cf-connecting-ip": `2001:db8:${n}:2::1` } });
      expect(otherNet.status).toBe(401);
    });
  });

  it("buckets addresses: IPv4 as given, IPv6 by /64, IPv4-mapped IPv6 as its IPv4", () => {
    expect(addressBucket("203.0.113.7")).toBe("203.0.113.7");
    expect(addressBucket("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(addressBucket("2001:DB8:1:2::9")).toBe("2001:db8:1:2::/64");
    expect(addressBucket("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressBucket("::1")).toBe("0:0:0:0::/64");
    expect(addressBucket("::ffff:203.0.113.7")).toBe("203.0.113.7");
  });
});

describe("the per-isolate key cache", () => {
  const row = (keyId: number): ResolvedKey => ({
    keyId,
    workspaceId: 1,
    scope: "read",
    name: "cached",
    role: "owner",
    personId: null,
    expiresAt: null,
    revokedAt: null,
    lastUsedAt: null,
  });

  it("remembers a key for KEY_CACHE_TTL_MS, then asks D1 again", () => {
    forgetAllKeys();
    rememberKey("a".repeat(64), row(1), 1_000);
    expect(cachedKey("a".repeat(64), 1_000 + KEY_CACHE_TTL_MS - 1)?.keyId).toBe(1);
    expect(cachedKey("a".repeat(64), 1_000 + KEY_CACHE_TTL_MS)).toBeUndefined();
    expect(KEY_CACHE_TTL_MS).toBeLessThanOrEqual(10_000);
  });

  it("is what answers within the lag: a key revoked directly in D1 works until the cache lets go", async () => {
    const db = directoryDb(env);
    const key = await createKey(db, ws.id, { name: "cached", scope: "read" });
    expect((await call("/api/v1/keywords", { key: key.key })).status).toBe(200);
    await revokeKey(db, ws.id, key.record.id);
    // The Worker runs in this isolate: its memory of the key is the one this test module sees.
    expect(cachedKey(await digestOf(key.key), Date.now())?.revokedAt).toBeNull();
    forgetAllKeys(); // what KEY_CACHE_TTL_MS does on its own
    const refused = await callJson("/api/v1/keywords", { key: key.key });
    expect([refused.status, refused.body.error.message]).toEqual([401, "API key has been revoked"]);
  });

  it("a key revoked through the admin API is refused at once by the isolate that revoked it", async () => {
    const key = await createKey(directoryDb(env), ws.id, { name: "admin revoked", scope: "read" });
    expect((await call("/api/v1/keywords", { key: key.key })).status).toBe(200);
    const revoked = await call(`/admin/v1/workspaces/${ws.id}/keys/${key.record.id}`, {
      method: "DELETE",
      headers: { authorization: "Bearer test-admin-token" },
    });
    expect(revoked.status).toBe(200);
    expect((await call("/api/v1/keywords", { key: key.key })).status).toBe(401);
  });
});

const digestOf = async (key: string) =>
  [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key)))]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("");
