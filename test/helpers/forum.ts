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
