// Steering the local forum (test/fixtures/forum/serve.ts) from tests, and personas connected on it.
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import type { PlantInput, ThingChange } from "../fixtures/forum/control.ts";
import type { AccountOptions, ClientOptions, SubredditOptions } from "../fixtures/forum/world.ts";
import { ADMIN_TOKEN, callJson, callJsonWith, callWith, type TestWorkspace } from "./api";

let counter = 0;

/**
 * A name no other test file uses: the files run in parallel against one local forum, where a POST /accounts
 * of a taken name replaces that account and setAccount changes it, so the time and this file's counter alone
 * (two files' first accounts in the same millisecond) are not enough.
 */
export const unique = (label: string) => {
  const random = Array.from(crypto.getRandomValues(new Uint8Array(4)), (b) => (b % 36).toString(36)).join("");
  return `${label}_${Date.now().toString(36).slice(-4)}${random}${++counter}`.slice(0, 20);
};

export interface ForumAccount {
  username: string;
}

export async function newAccount(options: LocalAccountOptions = {}, label = "user"): Promise<ForumAccount> {
  return { username: await localForum.account(options, label) };
}

export const setAccount = (username: string, options: LocalAccountOptions) => localForum.setAccount(username, options);

export const newSubreddit = (options: LocalSubredditOptions = {}) => localForum.subreddit(options);

export const seedSubmission = (body: { account: string; sr: string; title: string }) => localForum.seedSubmission(body);

export const submissions = (account: string) => localForum.submissions(account);

export const uploads = (account: string) => localForum.uploads(account);

export const stats = (query: { group?: string; account?: string }) => localForum.inFlight(query);

export const PERSONAS = "/api/v1/actions/personas";

/**
 * Connects `username` to `ws` as a person would: POST .../connect, the forum's consent page answered (allow
 * or decline) for that account, then the forum's redirect to the Worker's callback. The callback's answer.
 */
export async function connectAccount(
  ws: TestWorkspace,
  username: string,
  decision: "allow" | "decline" = "allow",
  bindings: Partial<typeof env> = {},
): Promise<{ status: number; html: string; callback: string }> {
  const start = { key: ws.writeKey, method: "POST", body: {} };
  const started = await callJsonWith(`${PERSONAS}/connect`, bindings, start);
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const callback = await localForum.consent(started.body.authorize_url, username, decision);
  const target = new URL(callback);
  expect(target.origin).toBe("http://threadwatch.test");
  const { res, text } = await callWith(`${target.pathname}${target.search}`, bindings);
  return { status: res.status, html: text, callback };
}

/** A persona of `ws` for a new forum account; `check` runs its preflight, `approve` the admin approval. */
export async function newPersona(
  ws: TestWorkspace,
  options: { account?: LocalAccountOptions; check?: boolean; approve?: boolean } = {},
) {
  const account = await newAccount({ group: String(ws.id), ...(options.account ?? {}) });
  const connected = await connectAccount(ws, account.username);
  expect(connected.status, connected.html).toBe(200);
  const list = await callJson(PERSONAS, { key: ws.readKey });
  const persona = (list.body.data as any[]).find((p) => p.username === account.username);
  expect(persona, JSON.stringify(list.body)).toBeDefined();
  const id = persona.id as number;
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

/** Flags and faults of a forum account, a subreddit's settings, a client's settings, an item to plant. */
export type LocalAccountOptions = Omit<AccountOptions, "username">;
export type LocalSubredditOptions = Omit<SubredditOptions, "name">;
export type LocalClientOptions = Omit<ClientOptions, "client_id">;
export type { PlantInput };

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
  clock: { real_ms: number; now_ms: number; factor: number };
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
  /** Changes a planted item as its later answers show it: score, replies, an edit, a removal. */
  change: (id: string, name: string, change: ThingChange) =>
    forumControl(`${clientPath(id)}/things/${encodeURIComponent(name)}`, change),
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
