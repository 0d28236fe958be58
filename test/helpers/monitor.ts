import { env } from "cloudflare:workers";
import { workspaceDb } from "../../src/db/client";
import { createCompetitor, createKeyword } from "../../src/db/tracking";
import type { ForumApiConfig } from "../../src/forum/app-client";
import { SEARCH_PASS_WORLD } from "../fixtures/forum/search-world";
import { createTestWorkspace, type TestWorkspace } from "./api";
import { localForum } from "./forum";

/** Settings of a fresh forum API client: its own world on the local forum, its own quota object. */
export function newClient(name: string): ForumApiConfig {
  return {
    clientId: `${name}-${crypto.randomUUID().slice(0, 8)}`,
    clientSecret: "secret",
    userAgent: "test:threadwatch:1.0 (by threadwatch tests)",
    authUrl: `${env.FORUM_WWW_ORIGIN}/api/v1/access_token`,
    apiBaseUrl: env.FORUM_API_ORIGIN,
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
  /** Fields the forum leaves out of this link (test/fixtures/forum/control.ts). */
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
  /** API requests by path (counted on arrival, held ones too). */
  paths: Record<string, number>;
  userAgents: string[];
  posts: number;
}

/** Options of the search-pass tests, in the words they were written with. */
export interface PassWorldOptions {
  /** Requests allowed per window (default 100) and the window (default 60 s). */
  limit?: number;
  windowMs?: number;
  /** Lifetime of issued tokens in seconds (default 3600). */
  tokenTtl?: number;
  /** The next N data requests answer 429 with X-Ratelimit-Reset = force429Reset. */
  force429?: number;
  force429Reset?: number;
  /** Data requests are answered this many ms late. */
  stallMs?: number;
  /** Data requests wait, counted, until `hold: false`. */
  hold?: boolean;
}

function clientOptions(o: PassWorldOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (o.limit !== undefined) out.limit = o.limit;
  if (o.windowMs !== undefined) out.window_s = o.windowMs / 1000;
  if (o.tokenTtl !== undefined) out.token_ttl_s = o.tokenTtl;
  if (o.force429 !== undefined) out.force429 = o.force429;
  if (o.force429Reset !== undefined) out.force429_reset = o.force429Reset;
  if (o.stallMs !== undefined) out.stall_ms = o.stallMs;
  if (o.hold !== undefined) out.hold = o.hold;
  return out;
}

export const forum = {
  reset: (c: ForumApiConfig, options: PassWorldOptions = {}) =>
    localForum.resetClient(c.clientId, { ...SEARCH_PASS_WORLD, secret: c.clientSecret, ...clientOptions(options) }),
  configure: (c: ForumApiConfig, options: PassWorldOptions) =>
    localForum.configureClient(c.clientId, clientOptions(options)),
  addPosts: (c: ForumApiConfig, posts: FakePost[]) => localForum.plant(c.clientId, posts),
  stats: (c: ForumApiConfig) => localForum.clientStats(c.clientId) as Promise<ForumStats>,
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
