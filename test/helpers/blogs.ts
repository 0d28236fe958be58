import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { callJson, type TestWorkspace } from "./api";

let blogCounter = 0;

/** A fresh programmable blog on the fixture server (test/fixtures/handlers/20-blogsync-blog.ts). */
export function newBlog(label = "blog") {
  const name = `${label}-${Date.now().toString(36)}-${++blogCounter}`;
  const base = `${env.FIXTURE_ORIGIN}/__blogsync/${name}`;
  const post = async (path: string, body: unknown = {}) => {
    const res = await fetch(`${base}/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
  };
  return {
    name,
    feedUrl: `${base}/feed.xml`,
    postUrl: (n: number) => `${base}/posts/${n}.html`,
    control: (body: { posts?: number; versions?: Record<number, number>; fail?: number[]; hold?: number | null }) =>
      post("control", body),
    release: () => post("release"),
    /** Resolves once a request for the held post is waiting at the blog. */
    waitHeld: async () => {
      const res = await fetch(`${base}/held`);
      expect(await res.json()).toEqual({ held: true });
    },
    hits: async () => (await (await fetch(`${base}/hits`)).json()) as Record<string, number>,
  };
}

export type Blog = ReturnType<typeof newBlog>;

export const SYNCS = "/api/v1/actions/blog-subreddit-syncs";

export async function createConfig(ws: TestWorkspace, body: Record<string, unknown>) {
  const res = await callJson(SYNCS, { key: ws.writeKey, method: "POST", body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; fingerprint: string; [k: string]: unknown };
}

export async function runConfig(ws: TestWorkspace, id: number, body: Record<string, unknown> = {}) {
  return callJson(`${SYNCS}/${id}/run`, { key: ws.writeKey, method: "POST", body });
}

export async function items(ws: TestWorkspace, id: number, state?: string) {
  const res = await callJson(`${SYNCS}/${id}/items${state ? `?state=${state}` : ""}`, { key: ws.readKey });
  expect(res.status).toBe(200);
  return res.body as { data: any[]; count: number };
}

/** Row count of every table in the database (D1 bookkeeping tables excluded). */
export async function countAllRows(): Promise<Record<string, number>> {
  const tables = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations' ORDER BY name",
  ).all<{ name: string }>();
  const counts: Record<string, number> = {};
  for (const { name } of tables.results) {
    const row = await env.DB.prepare(`SELECT count(*) AS n FROM "${name}"`).first<{ n: number }>();
    counts[name] = row?.n ?? 0;
  }
  return counts;
}
