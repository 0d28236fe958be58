// A search in a database with no posts at all still parses the search: a malformed one is refused (400), a
// valid one is an empty page. SQLite ends the one-pass page statement (src/db/posts-query.ts) at its first
// step when the posts table is empty, before the full-text query is parsed, so the route asks about the
// search on its own when the page is empty (src/db/posts.ts). This file's database holds no posts.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { callJson, createTestWorkspace, type TestWorkspace } from "../helpers/api";

let ws: TestWorkspace;

beforeAll(async () => {
  ws = await createTestWorkspace("search, no posts anywhere");
  const { n } = (await env.DB.prepare("SELECT count(*) AS n FROM posts").first<{ n: number }>())!;
  expect(n).toBe(0);
});

describe("GET /posts?search with no posts in the database", () => {
  it.each(['"unclosed', "pricing AND", "("])("refuses the malformed search %j as validation_failed", async (search) => {
    const extras: Record<string, string>[] = [{}, { sort_by: "score" }, { subreddit: "SaaS" }, { offset: "100" }];
    for (const extra of extras) {
      const res = await callJson(`/api/v1/posts?${new URLSearchParams({ search, ...extra })}`, { key: ws.readKey });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("validation_failed");
      expect(res.body.error.details).toEqual([{ path: "query.search", message: expect.any(String) }]);
    }
  });

  it("answers a valid search with an empty page", async () => {
    const res = await callJson("/api/v1/posts?search=pricing", { key: ws.readKey });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.count).toBe(0);
    expect(res.body.next_offset).toBeNull();
  });
});
