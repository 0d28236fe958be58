import { env } from "cloudflare:workers";
import { workspaceDb } from "../../src/db/client";
import { createCompetitor, createKeyword } from "../../src/db/tracking";
import type { ForumApiConfig } from "../../src/forum/app-client";
import { createTestWorkspace, type TestWorkspace } from "./api";

/** Settings of a fresh forum API client: its own world on the fake forum, its own quota object. */
export function newClient(name: string): ForumApiConfig {
  return {
    clientId: `${name}-${crypto.randomUUID().slice(0, 8)}`,
    clientSecret: "secret",
    userAgent: "test:threadwatch:1.0 (by threadwatch tests)",
    authUrl: `${env.FIXTURE_ORIGIN}/forum-auth/api/v1/access_token`,
    apiBaseUrl: `${env.FIXTURE_ORIGIN}/forum-api`,
  };
}

export interface FakePost {
  id: string;
  title: string;
  selftext?: string;
  subreddit?: string;
  url?: string;
  score?: number;
  num_comments?: number;
  created_utc: number;
  /** Fields the forum leaves out of this link (test/fixtures/forum/fake-forum.ts). */
  without?: string[];
}

export interface ForumStats {
  tokenRequests: number;
  requests: number;
  throttled: number;
  peakPerWindow: number;
  windows: number[];
  searches: { q: string; after: string | null; t: string | null; limit: number }[];
  infoIds: string[][];
  userAgents: string[];
  posts: number;
}

async function control(client: ForumApiConfig, action: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${env.FIXTURE_ORIGIN}/forum-control/${encodeURIComponent(client.clientId)}/${action}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.json();
}

export const forum = {
  reset: (c: ForumApiConfig, options: Record<string, unknown> = {}) => control(c, "reset", options),
  configure: (c: ForumApiConfig, options: Record<string, unknown>) => control(c, "configure", options),
  addPosts: (c: ForumApiConfig, posts: FakePost[]) => control(c, "posts", { posts }),
  stats: (c: ForumApiConfig) => control(c, "stats") as Promise<ForumStats>,
};

export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** `n` posts mentioning `term`, newest first, one minute apart, ending `startAgoSeconds` ago. */
export function postsAbout(term: string, n: number, prefix: string, startAgoSeconds = 60): FakePost[] {
  const now = nowSeconds();
  return Array.from({ length: n }, (_, i) => ({
    id: `${prefix}${i.toString(36)}`,
    title: `Question ${i} about ${term}`,
    selftext: `Has anyone used ${term} for this?`,
    subreddit: "testing",
    created_utc: now - startAgoSeconds - i * 60,
  }));
}

/** A workspace tracking the given keywords (and competitors), made through the same db functions the API uses. */
export async function trackingWorkspace(
  name: string,
  keywords: (string | { keyword: string; is_ambiguous?: boolean; active?: boolean })[],
  competitors: { name: string; keywords?: string[]; is_ambiguous?: boolean }[] = [],
): Promise<TestWorkspace & { keywordIds: Record<string, number>; competitorIds: Record<string, number> }> {
  const ws = await createTestWorkspace(name);
  const w = workspaceDb(env, ws.id);
  const keywordIds: Record<string, number> = {};
  for (const k of keywords) {
    const input = typeof k === "string" ? { keyword: k } : k;
    keywordIds[input.keyword] = (await createKeyword(w, input)).id;
  }
  const competitorIds: Record<string, number> = {};
  for (const c of competitors) competitorIds[c.name] = (await createCompetitor(w, c)).id;
  return { ...ws, keywordIds, competitorIds };
}
