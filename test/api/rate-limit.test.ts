// The per-key rate limit with the binding exactly as wrangler.toml configures it: 600 requests a minute.
// Miniflare's limiter counts in windows aligned to the wall clock, so the test starts its 600 requests
// early in a window; each test file has its own runtime, so no other file's calls count here.
import { expect, it } from "vitest";
import { callJson, createTestWorkspace } from "../helpers";

const LIMIT = 600;
const WINDOW_MS = 60_000;

async function startOfFreshWindow(needMs: number) {
  const left = WINDOW_MS - (Date.now() % WINDOW_MS);
  if (left < needMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

it(`answers 429 rate_limited with retry-after after ${LIMIT} requests of one key in a minute, per key`, async () => {
  const ws = await createTestWorkspace("rate limited");
  await startOfFreshWindow(15_000);
  const windowAtStart = Math.floor(Date.now() / WINDOW_MS);

  const statuses: number[] = [];
  for (let sent = 0; sent < LIMIT; sent += 50) {
    const batch = await Promise.all(Array.from({ length: 50 }, () => callJson("/api/v1/keywords", { key: ws.readKey })));
    statuses.push(...batch.map((r) => r.status));
  }
  expect(statuses.filter((s) => s !== 200)).toEqual([]);

  const limited = await callJson("/api/v1/keywords", { key: ws.readKey });
  // Still the same window: otherwise the counter would have been reset and this test proves nothing.
  expect(Math.floor(Date.now() / WINDOW_MS)).toBe(windowAtStart);
  expect(limited.status).toBe(429);
  expect(limited.body.error.code).toBe("rate_limited");
  expect(limited.body.error.request_id).toBe(limited.res.headers.get("x-request-id"));
  const retryAfter = Number(limited.res.headers.get("retry-after"));
  expect(Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 60).toBe(true);

  // The limit is per key: the workspace's other key is not affected.
  expect((await callJson("/api/v1/keywords", { key: ws.writeKey })).status).toBe(200);
  // Requests without a key are refused before they count against anything.
  expect((await callJson("/api/v1/keywords")).status).toBe(401);
}, 120_000);

it("counts a GET /posts once, whether it succeeds, fails validation or carries a malformed search", async () => {
  // GET /posts counts the request beside its own batch (src/auth/key-in-query.ts); its error paths check
  // the key afterwards. Each path must count exactly once, or the 600th request would already be refused.
  const ws = await createTestWorkspace("rate limited posts");
  await startOfFreshWindow(15_000);
  const windowAtStart = Math.floor(Date.now() / WINDOW_MS);

  const statuses: number[] = [];
  for (let sent = 0; sent < LIMIT - 3; sent += 199) {
    const batch = await Promise.all(Array.from({ length: 199 }, () => callJson("/api/v1/posts?limit=1", { key: ws.readKey })));
    statuses.push(...batch.map((r) => r.status));
  }
  statuses.push((await callJson("/api/v1/posts?limit=0", { key: ws.readKey })).status);
  statuses.push((await callJson("/api/v1/posts?search=%22unclosed", { key: ws.readKey })).status);
  statuses.push((await callJson("/api/v1/posts", { key: ws.readKey })).status);
  expect(statuses).toHaveLength(LIMIT);
  expect(statuses.slice(-3)).toEqual([400, 400, 200]);
  expect(statuses.slice(0, -3).filter((s) => s !== 200)).toEqual([]);

  const limited = await callJson("/api/v1/posts?limit=0", { key: ws.readKey });
  expect(Math.floor(Date.now() / WINDOW_MS)).toBe(windowAtStart);
  expect([limited.status, limited.body.error.code]).toEqual([429, "rate_limited"]);
  expect((await callJson("/api/v1/posts", { key: ws.readKey })).status).toBe(429);
  expect((await callJson("/api/v1/posts", { key: ws.writeKey })).status).toBe(200);
}, 120_000);
