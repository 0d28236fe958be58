// What the local forum's own tests share: a client of their own, a grant of an account, calls of the OAuth
// host with its bearer token.
import { expect } from "vitest";
import { localForum, unique } from "../helpers/forum";

export const REDIRECT = "https://app.example/oauth/forum/callback";
export const SCOPES = "identity read submit flair history";

export async function newClient(options: Record<string, unknown> = {}) {
  const id = unique("client");
  await localForum.resetClient(id, { secret: "s3cret", redirect_uris: [REDIRECT], ...options });
  return { id, basic: `Basic ${btoa(`${id}:s3cret`)}` };
}

export function authorizeUrl(clientId: string, extra: Record<string, string> = {}) {
  const q = new URLSearchParams({
    client_id: clientId,
    response_type: "code",
    state: "st-1",
    redirect_uri: REDIRECT,
    duration: "permanent",
    scope: SCOPES,
    ...extra,
  });
  return `${localForum.origins().www}/api/v1/authorize?${q}`;
}

export async function tokenRequest(basic: string, form: Record<string, string>) {
  const res = await fetch(`${localForum.origins().www}/api/v1/access_token`, {
    method: "POST",
    headers: { authorization: basic, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form),
  });
  return { status: res.status, body: await res.json<any>() };
}

/** A client, an account and a permanent grant of every publishing scope (or `scope`). */
export async function grant(
  options: { scope?: string; account?: Record<string, unknown>; client?: Record<string, unknown> } = {},
) {
  const client = await newClient(options.client);
  const username = await localForum.account(options.account ?? {});
  const location = await localForum.consent(authorizeUrl(client.id, { scope: options.scope ?? SCOPES }), username);
  const code = new URL(location).searchParams.get("code")!;
  const token = await tokenRequest(client.basic, { grant_type: "authorization_code", code, redirect_uri: REDIRECT });
  expect(token.status).toBe(200);
  return {
    client,
    username,
    code,
    token: token.body as { access_token: string; refresh_token: string; scope: string },
  };
}

/** Another account's grant on the same client (its own view of what `grant`'s account posted). */
export async function grantOn(client: { id: string; basic: string }, account: Record<string, unknown> = {}) {
  const username = await localForum.account(account);
  const code = new URL(await localForum.consent(authorizeUrl(client.id), username)).searchParams.get("code")!;
  const t = await tokenRequest(client.basic, { grant_type: "authorization_code", code, redirect_uri: REDIRECT });
  return { username, token: t.body as { access_token: string; refresh_token: string } };
}

/** An app-only token of a new client (monitoring's grant). */
export async function appToken(options: Record<string, unknown> = {}) {
  const client = await newClient(options);
  const t = await tokenRequest(client.basic, { grant_type: "client_credentials" });
  return { client, token: t.body.access_token as string };
}

export const api = (token: string, path: string, init: RequestInit = {}) =>
  fetch(`${localForum.origins().api}${path}`, {
    ...init,
    headers: { authorization: `bearer ${token}`, "user-agent": "test:local-forum:1.0", ...(init.headers ?? {}) },
  });

export const apiJson = async (token: string, path: string) => (await api(token, path)).json<any>();

export const postForm = (token: string, path: string, body: Record<string, string>) =>
  api(token, path, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(body),
  });
