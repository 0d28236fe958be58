// The forum's OAuth 2 endpoints for personas (docs/publishing.md, "Connecting"): the authorize URL a person
// is sent to, the token endpoint (authorization code and refresh token grants, HTTP Basic with the web-app
// client), and token revocation. Every answer is validated; a token never appears in an error message.
import type { Env } from "../env";
import { DEFAULT_AUTH_URL, DEFAULT_USER_AGENT } from "./app-client";
import { ForumError } from "./errors";
import { TokenAnswer, TokenRefusal } from "./schemas";

export const DEFAULT_AUTHORIZE_URL = "https://www.reddit.com/api/v1/authorize";
/** What a persona's grant must hold (docs/publishing.md, "Personas"). */
export const PERSONA_SCOPES = ["identity", "read", "submit", "flair", "history"] as const;

export interface OAuthClient {
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  revokeUrl: string;
  userAgent: string;
}

/**
 * The web-app client of the deployment, or null without REDDIT_CLIENT_ID. The revoke endpoint sits beside
 * the token endpoint: REDDIT_AUTH_URL with its last path segment replaced by `revoke_token`.
 */
export function oauthClient(env: Env): OAuthClient | null {
  const clientId = env.REDDIT_CLIENT_ID?.trim();
  if (!clientId) return null;
  const tokenUrl = env.REDDIT_AUTH_URL?.trim() || DEFAULT_AUTH_URL;
  return {
    clientId,
    clientSecret: env.REDDIT_CLIENT_SECRET ?? "",
    authorizeUrl: env.REDDIT_AUTHORIZE_URL?.trim() || DEFAULT_AUTHORIZE_URL,
    tokenUrl,
    revokeUrl: new URL("revoke_token", tokenUrl).href,
    userAgent: env.REDDIT_USER_AGENT?.trim() || DEFAULT_USER_AGENT,
  };
}

export function authorizeUrl(client: OAuthClient, state: string, redirectUri: string): string {
  const url = new URL(client.authorizeUrl);
  url.searchParams.set("client_id", client.clientId);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("state", state);
  url.searchParams.set("redirect_uri", redirectUri);
  url.searchParams.set("duration", "permanent");
  url.searchParams.set("scope", PERSONA_SCOPES.join(" "));
  return url.href;
}

export interface Grant {
  accessToken: string;
  /** Absent when the forum keeps the refresh token it was given (older forums do not rotate). */
  refreshToken?: string;
  expiresInSeconds: number;
  scopes: string[];
}

/** The grant was refused: the code is unknown or used, or the refresh token was revoked. */
export class GrantRefused extends Error {
  override readonly name = "GrantRefused";
}

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

async function post(client: OAuthClient, url: string, form: Record<string, string>): Promise<Response> {
  try {
    return await fetch(url, {
      method: "POST",
      headers: {
        authorization: `Basic ${btoa(`${client.clientId}:${client.clientSecret}`)}`,
        "content-type": "application/x-www-form-urlencoded",
        "user-agent": client.userAgent,
        accept: "application/json",
      },
      body: new URLSearchParams(form).toString(),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (err) {
    throw new ForumError(
      "unreachable",
      `the forum's OAuth endpoint ${url} could not be reached (${(err as Error).message}); check REDDIT_AUTH_URL and try again`,
      { address: url },
    );
  }
}

const safeJson = async (res: Response): Promise<unknown> => {
  try {
    return JSON.parse(await res.text());
  } catch {
    return undefined;
  }
};

/** Scopes as the forum answers them: separated by spaces or commas, in any order. */
export const parseScopes = (scope: string | undefined) =>
  [...new Set((scope ?? "").split(/[\s,]+/).filter(Boolean))].sort();

/**
 * One grant request. The forum answers a refused code with HTTP 200 `{"error": "invalid_grant"}`, a revoked
 * refresh token with HTTP 400 (`{"error": "invalid_grant"}`, or `{"error": 400}` in older answers): both are
 * GrantRefused.
 */
async function grant(client: OAuthClient, form: Record<string, string>, what: string): Promise<Grant> {
  const res = await post(client, client.tokenUrl, form);
  const body = await safeJson(res);
  const refusal = TokenRefusal.safeParse(body);
  if (refusal.success && (refusal.data.error === "invalid_grant" || res.status === 400))
    throw new GrantRefused(`${what}: the forum refused the grant (${String(refusal.data.error)})`);
  if (res.status === 401)
    throw new ForumError(
      "refused",
      `${what}: the forum's token endpoint refused the client (401); check REDDIT_CLIENT_ID and REDDIT_CLIENT_SECRET`,
      { status: 401 },
    );
  const parsed = TokenAnswer.safeParse(body);
  if (res.status !== 200 || !parsed.success)
    throw new ForumError(
      "invalid_answer",
      `${what}: the forum's token endpoint at ${hostOf(client.tokenUrl)} answered HTTP ${res.status}${refusal.success ? ` (${String(refusal.data.error)})` : ""} without a token`,
      { status: res.status },
    );
  return {
    accessToken: parsed.data.access_token,
    ...(parsed.data.refresh_token ? { refreshToken: parsed.data.refresh_token } : {}),
    expiresInSeconds: parsed.data.expires_in,
    scopes: parseScopes(parsed.data.scope),
  };
}

export const exchangeCode = (client: OAuthClient, code: string, redirectUri: string) =>
  grant(client, { grant_type: "authorization_code", code, redirect_uri: redirectUri }, "connecting the account");

export const refreshGrant = (client: OAuthClient, refreshToken: string) =>
  grant(client, { grant_type: "refresh_token", refresh_token: refreshToken }, "renewing the access token");

/** Revokes a refresh token (and with it its access tokens). The forum answers 200 with no body, or 204. */
export async function revokeToken(client: OAuthClient, refreshToken: string): Promise<void> {
  const res = await post(client, client.revokeUrl, { token: refreshToken, token_type_hint: "refresh_token" });
  await res.body?.cancel();
  if (res.status !== 200 && res.status !== 204)
    throw new ForumError(
      "refused",
      `revoking the connection at ${client.revokeUrl} answered HTTP ${res.status}; try again, or remove the app from the account's forum preferences`,
      { status: res.status },
    );
}
