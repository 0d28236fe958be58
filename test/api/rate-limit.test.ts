// The per-key rate limit with the binding exactly as wrangler.toml configures it: 600 requests a minute.
// Miniflare's limiter counts each key in windows aligned to the wall clock (a bucket per key and minute).
// Rather than waiting for a new minute, each scenario runs at once with a new workspace's keys (fresh
// buckets); one that straddled a minute boundary proves nothing, so it is run again with new keys. A
// failure inside one window is a real failure. The limiters' counters are emptied before each test file
// (test/fresh-storage.ts): no other file's calls count here.
import { expect, it } from "vitest";
import { callJson, createTestWorkspace, type TestWorkspace } from "../helpers/api";
import { postMcp } from "../helpers/mcp-client";

const LIMIT = 600;
const WINDOW_MS = 60_000;
const windowNow = () => Math.floor(Date.now() / WINDOW_MS);

/** Runs `scenario` with fresh keys until one run falls inside a single limiter window (at most 3 tries). */
async function inOneWindow(label: string, scenario: (ws: TestWorkspace, windowAtStart: number) => Promise<void>) {
  for (let attempt = 1; ; attempt++) {
    const ws = await createTestWorkspace(`${label} ${attempt}`);
    const windowAtStart = windowNow();
    try {
      await scenario(ws, windowAtStart);
      return;
    } catch (err) {
      if (windowNow() === windowAtStart || attempt === 3) throw err;
    }
  }
}

it(`answers 429 rate_limited with retry-after after ${LIMIT} requests of one key in a minute, per key`, async () => {
  await inOneWindow("rate limited", async (ws, windowAtStart) => {
    const statuses: number[] = [];
    for (let sent = 0; sent < LIMIT; sent += 50) {
      const batch = await Promise.all(
        Array.from({ length: 50 }, () => callJson("/api/v1/keywords", { key: ws.readKey })),
      );
      statuses.push(...batch.map((r) => r.status));
    }
    expect(statuses.filter((s) => s !== 200)).toEqual([]);

    const limited = await callJson("/api/v1/keywords", { key: ws.readKey });
    // Still the same window: otherwise the counter would have been reset and this test proves nothing.
    expect(windowNow()).toBe(windowAtStart);
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe("rate_limited");
    expect(limited.body.error.request_id).toBe(limited.res.headers.get("x-request-id"));
    const retryAfter = Number(limited.res.headers.get("retry-after"));
    expect(Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 60).toBe(true);

    // The limit is per key: the workspace's other key is not affected.
    expect((await callJson("/api/v1/keywords", { key: ws.writeKey })).status).toBe(200);
    // Requests without a key are refused before they count against anything.
    expect((await callJson("/api/v1/keywords")).status).toBe(401);
  });
}, 120_000);

it("counts a GET /posts once, whether it succeeds, fails validation or carries a malformed search", async () => {
  // The key middleware counts every request once, before the route (src/auth/check.ts), whatever the route
  // answers: a GET /posts that fails validation or carries a malformed search must count exactly once too, or
  // the 600th request would already be refused.
  await inOneWindow("rate limited posts", async (ws, windowAtStart) => {
    const statuses: number[] = [];
    for (let sent = 0; sent < LIMIT - 3; sent += 199) {
      const batch = await Promise.all(
        Array.from({ length: 199 }, () => callJson("/api/v1/posts?limit=1", { key: ws.readKey })),
      );
      statuses.push(...batch.map((r) => r.status));
    }
    statuses.push((await callJson("/api/v1/posts?limit=0", { key: ws.readKey })).status);
    statuses.push((await callJson("/api/v1/posts?search=%22unclosed", { key: ws.readKey })).status);
    statuses.push((await callJson("/api/v1/posts", { key: ws.readKey })).status);
    expect(statuses).toHaveLength(LIMIT);
    expect(statuses.slice(-3)).toEqual([400, 400, 200]);
    expect(statuses.slice(0, -3).filter((s) => s !== 200)).toEqual([]);

    const limited = await callJson("/api/v1/posts?limit=0", { key: ws.readKey });
    expect(windowNow()).toBe(windowAtStart);
    expect([limited.status, limited.body.error.code]).toEqual([429, "rate_limited"]);
    expect((await callJson("/api/v1/posts", { key: ws.readKey })).status).toBe(429);
    expect((await callJson("/api/v1/posts", { key: ws.writeKey })).status).toBe(200);
  });
}, 120_000);

it("counts every MCP request once (initialize, tools/list, a tool call with its REST request) and refuses past the limit", async () => {
  await inOneWindow("rate limited mcp", async (ws, windowAtStart) => {
    const rpc = async (id: number, method: string, params: object = {}) => {
      const res = await postMcp(JSON.stringify({ jsonrpc: "2.0", id, method, params }), ws.readKey);
      return { status: res.status, res, body: (await res.json()) as any };
    };

    for (let sent = 0; sent < LIMIT - 3; sent += 199) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(199, LIMIT - 3 - sent) }, () =>
          callJson("/api/v1/keywords", { key: ws.readKey }),
        ),
      );
      expect(batch.filter((r) => r.status !== 200)).toEqual([]);
    }
    // 597 counted; the 598th and 599th:
    const init = await rpc(1, "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "t", version: "1" },
    });
    expect(init.status).toBe(200);
    expect((await rpc(2, "tools/list")).body.result.tools.length).toBeGreaterThan(0);
    // The 600th: a tool call counts once (its MCP request), not again for the REST request it makes.
    const call = await rpc(3, "tools/call", { name: "get_keywords", arguments: {} });
    expect(call.body.result.isError ?? false).toBe(false);
    // The 601st, whatever its method: 429 rate_limited in the shape of docs/api.md, "Errors", with retry-after.
    for (const [id, method] of [
      [4, "tools/list"],
      [5, "initialize"],
      [6, "tools/call"],
    ] as const) {
      const refused = await rpc(id, method, method === "tools/call" ? { name: "get_keywords", arguments: {} } : {});
      expect([refused.status, refused.body.error.code]).toEqual([429, "rate_limited"]);
      expect(Number(refused.res.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    expect((await callJson("/api/v1/keywords", { key: ws.readKey })).status).toBe(429);
    expect(windowNow()).toBe(windowAtStart);
    // The workspace's other key has its own budget.
    expect((await postMcp(JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/list" }), ws.writeKey)).status).toBe(
      200,
    );
  });
}, 120_000);
