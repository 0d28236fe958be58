// Steering the local forum (test/fixtures/forum/local-forum.ts) from tests, and personas made on it.
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { ADMIN_TOKEN, callJson, type TestWorkspace } from "./api";

const control = `${env.FORUM_BASE_URL}/__control`;
let counter = 0;

/**
 * A name no other test file uses: the files run in parallel against one local forum, where a POST /accounts
 * of a taken name replaces that account (its cookies stop working) and setAccount changes it, so the time and
 * this file's counter alone (two files' first accounts in the same millisecond) are not enough.
 */
export const unique = (label: string) => {
  const random = Array.from(crypto.getRandomValues(new Uint8Array(4)), (b) => (b % 36).toString(36)).join("");
  return `${label}_${Date.now().toString(36).slice(-4)}${random}${++counter}`.slice(0, 20);
};

async function post(path: string, body: unknown): Promise<any> {
  const res = await fetch(`${control}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status, path).toBeLessThan(300);
  return res.json();
}

export interface ForumAccount {
  username: string;
  /** A cookie export (Cookie-Editor's fields) of the logged-in account. */
  cookies: Record<string, unknown>[];
  sessionValue: string;
}

export async function newAccount(options: Record<string, unknown> = {}, label = "user"): Promise<ForumAccount> {
  const username = unique(label);
  const { cookies } = await post("/accounts", { username, ...options });
  return { username, cookies, sessionValue: cookies[0].value };
}

export const setAccount = (username: string, options: Record<string, unknown>) =>
  post(`/accounts/${encodeURIComponent(username)}`, options);

export async function newSubreddit(options: Record<string, unknown> = {}): Promise<string> {
  const name = unique("sr");
  await post("/subreddits", { name, ...options });
  return name;
}

export const seedSubmission = (body: { account: string; sr: string; title: string }) => post("/submissions", body);

export async function submissions(account: string): Promise<any[]> {
  return (await (await fetch(`${control}/submissions?account=${encodeURIComponent(account)}`)).json<any>()).data;
}

export async function uploads(account: string): Promise<any[]> {
  return (await (await fetch(`${control}/uploads?account=${encodeURIComponent(account)}`)).json<any>()).data;
}

export async function stats(query: {
  group?: string;
  account?: string;
}): Promise<{ now: number; max: number; total: number; spans: [number, number][] }> {
  const qs = new URLSearchParams(query as Record<string, string>).toString();
  return (await fetch(`${control}/stats?${qs}`)).json();
}

export const PERSONAS = "/api/v1/actions/personas";

/** A persona of `ws` for a new forum account; `check` runs its preflight, `approve` the admin approval. */
export async function newPersona(
  ws: TestWorkspace,
  options: { account?: Record<string, unknown>; check?: boolean; approve?: boolean } = {},
) {
  const account = await newAccount({ group: String(ws.id), ...(options.account ?? {}) });
  const created = await callJson(PERSONAS, {
    key: ws.writeKey,
    method: "POST",
    body: { username: account.username, cookies: account.cookies },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.id as number;
  if (options.check) {
    const checked = await callJson(`${PERSONAS}/${id}/preflight`, { key: ws.writeKey, method: "POST" });
    expect(checked.status, JSON.stringify(checked.body)).toBe(200);
    expect(checked.body.persona.browser_ready, JSON.stringify(checked.body)).toBe(true);
  }
  if (options.approve) {
    const approved = await callJson(`/admin/v1/workspaces/${ws.id}/personas/${id}/approve`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(approved.status).toBe(200);
  }
  return { id, account };
}

// ---------------------------------------------------------------------------------------------------------
// The local forum on its own origins (test/fixtures/forum/serve.ts): typed calls of its control API, which
// tests inside workerd reach over HTTP at env.FORUM_WWW_ORIGIN/__control/.

export const forumOrigins = () => ({
  www: env.FORUM_WWW_ORIGIN,
  api: env.FORUM_API_ORIGIN,
  site: env.FORUM_SITE_ORIGIN,
  upload: env.FORUM_UPLOAD_ORIGIN,
});

async function forumControl<T = any>(path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${env.FORUM_WWW_ORIGIN}/__control${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await res.json<T>();
  expect(res.status, `${path}: ${JSON.stringify(answer)}`).toBeLessThan(300);
  return answer;
}

/** Flags and faults of a forum account (test/fixtures/forum/world.ts AccountOptions). */
export interface LocalAccountOptions {
  suspended?: boolean;
  suspension_expiration_utc?: number | null;
  shadow_banned?: boolean;
  group?: string;
  delay_ms?: number;
  hold?: boolean;
  ratelimit_seconds?: number[];
  crash_after_submit?: boolean;
  expired?: boolean;
  upload_fails?: boolean;
}

export interface LocalSubredditOptions {
  type?: "public" | "restricted" | "private";
  banned?: boolean;
  submission_type?: "any" | "self" | "link";
  allow_images?: boolean;
  contributors?: string[];
  banned_users?: string[];
  requirements?: Record<string, unknown>;
  flairs?: { id: string; text: string }[];
  flairs_forbidden?: boolean;
  spam_filter?: boolean;
}

/** An item to plant in a client's world (test/fixtures/forum/control.ts PlantInput). */
export interface PlantInput {
  kind?: "t3" | "t1";
  id?: string;
  title?: string;
  selftext?: string;
  body?: string;
  link_id?: string;
  subreddit?: string;
  author?: string;
  url?: string;
  score?: number;
  num_comments?: number;
  created_utc?: number;
  visible_after_s?: number;
  never_visible?: boolean;
  removed_by_category?: "moderator" | "reddit" | "deleted" | null;
  without?: string[];
}

/** A client's settings (test/fixtures/forum/world.ts ClientOptions). */
export interface LocalClientOptions {
  secret?: string;
  redirect_uris?: string[];
  limit?: number;
  window_s?: number;
  token_ttl_s?: number;
  force429?: number;
  force429_reset?: number;
  stall_ms?: number;
  search_lag_s?: number;
  search_cap?: number | null;
  posts?: Partial<GeneratorOptions>;
  comments?: Partial<GeneratorOptions>;
  clock?: { now_ms?: number; factor?: number };
  first_post?: number;
  first_comment?: number;
}

export interface GeneratorOptions {
  per_minute: number;
  late_share: number;
  late_delay_s: [number, number];
  never_share: number;
  topics: string[];
  topic_share: number;
}

export interface LocalClientStats {
  tokenRequests: number;
  requests: number;
  throttled: number;
  cookieOffences: number;
  modhashOffences: number;
  peakPerWindow: number;
  windows: number[];
  searches: { q: string; after: string | null; t: string | null; limit: number }[];
  infoIds: string[][];
  userAgents: string[];
  paths: Record<string, number>;
  posts: number;
  newest: { t3: string | null; t1: string | null };
  clock: { now_ms: number; factor: number };
}

const clientPath = (id: string) => `/clients/${encodeURIComponent(id)}`;

export const localForum = {
  origins: forumOrigins,
  /** Registers a client with a fresh world (its items, window and counts start empty). */
  resetClient: (id: string, o: LocalClientOptions = {}) => forumControl<LocalClientStats>(`${clientPath(id)}/reset`, o),
  configureClient: (id: string, o: LocalClientOptions) =>
    forumControl<LocalClientStats>(`${clientPath(id)}/configure`, o),
  clientStats: (id: string) => forumControl<LocalClientStats>(`${clientPath(id)}/stats`),
  /** Sets the client's forum clock: `now_ms`, `advance_s` and/or acceleration `factor`. */
  clock: (id: string, o: { now_ms?: number; advance_s?: number; factor?: number }) =>
    forumControl<{ now_ms: number; factor: number }>(`${clientPath(id)}/clock`, o),
  plant: async (id: string, things: PlantInput[]) =>
    (
      await forumControl<{ data: { name: string; id: string; created_utc: number }[] }>(`${clientPath(id)}/things`, {
        things,
      })
    ).data,
  /** A new account of a unique name (with its flags and faults). */
  account: async (o: LocalAccountOptions = {}, label = "user") => {
    const username = unique(label);
    await forumControl("/accounts", { username, ...o });
    return username;
  },
  setAccount: (username: string, o: LocalAccountOptions) =>
    forumControl(`/accounts/${encodeURIComponent(username)}`, o),
  subreddit: async (o: LocalSubredditOptions = {}) => {
    const name = unique("sr");
    await forumControl("/subreddits", { name, ...o });
    return name;
  },
  /** Removes a post as a moderator would, as the spam filter would, or as its author deleting it. */
  remove: (id: string, by: "moderator" | "spam" | "deleted") => forumControl("/remove", { id, by }),
  /**
   * The public site answers a fault for requests about `account` (its profile, its posts), or for every
   * request without one; `count`: that many times, then the real answers again (else until set to null).
   */
  siteFault: (
    fault: "block" | "challenge" | "forbidden" | "ratelimited" | null,
    o: { account?: string; count?: number } = {},
  ) => forumControl("/site-fault", { fault, ...o }),
  /** The consent page's answer for `username` (allow or decline): the redirect location. */
  consent: async (authorize_url: string, username: string, decision: "allow" | "decline" = "allow") =>
    (await forumControl<{ location: string }>("/consent", { authorize_url, username, decision })).location,
  seedSubmission: (body: { account: string; sr: string; title: string; client?: string }) =>
    forumControl("/submissions", body),
  submissions: async (account: string) =>
    (await forumControl<{ data: any[] }>(`/submissions?account=${encodeURIComponent(account)}`)).data,
  uploads: async (account: string) =>
    (await forumControl<{ data: any[] }>(`/uploads?account=${encodeURIComponent(account)}`)).data,
  inFlight: (query: { group?: string; account?: string }) =>
    forumControl<{ now: number; max: number; total: number; spans: [number, number][] }>(
      `/stats?${new URLSearchParams(query as Record<string, string>)}`,
    ),
  offences: () => forumControl<{ cookie: number; modhash: number }>("/offences"),
};
