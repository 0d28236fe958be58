// Connecting a forum account (docs/publishing.md, "Connecting"; docs/security.md): the authorize URL with a
// random single-use state bound to the workspace, and the callback that takes the state out, exchanges the
// code, asks who the account is and stores the grant sealed. Nothing is stored when any step fails.
import { directoryDb, nowIso, type WorkspaceDb, workspaceDb } from "../db/client";
import { consumeOAuthState, insertOAuthState, starterOf } from "../db/oauth-states";
import { saveGrant } from "../db/personas";
import type { Env } from "../env";
import { DEFAULT_API_BASE_URL } from "../forum/app-client";
import { isForumError } from "../forum/errors";
import { authorizeUrl, exchangeCode, GrantRefused, type OAuthClient, oauthClient } from "../forum/oauth";
import { QuotaGate } from "../forum/quota-gate";
import { MeAnswer } from "../forum/schemas";
import { sha256Hex, toHex } from "../lib/crypto";
import { invalidState } from "../lib/domain-errors";
import { log, messageOf } from "../lib/log";
import { type Actor, SYSTEM_ACTOR } from "../lib/role";
import { SessionKeyError } from "../lib/sealing";
import { missingScopes, scopeError, sealGrant } from "./grants";

export const STATE_TTL_MS = 10 * 60_000;
export const CALLBACK_PATH = "/oauth/forum/callback";

/** REDDIT_REDIRECT_URI, else the Worker's own origin + /oauth/forum/callback. */
export const redirectUriOf = (env: Env, origin: string) =>
  env.REDDIT_REDIRECT_URI?.trim() || `${origin}${CALLBACK_PATH}`;

export interface Connection {
  authorize_url: string;
  state: string;
  expires_at: string;
}

/**
 * Starts a connection: the forum's authorize URL for a new state of this workspace, valid ten minutes. The
 * state keeps who asked (`actor`: the API key or the console's person), whom the callback's event names.
 */
export async function connectPersona(env: Env, w: WorkspaceDb, origin: string, actor: Actor): Promise<Connection> {
  const client = oauthClient(env);
  if (!client)
    throw invalidState(
      "the service has no REDDIT_CLIENT_ID: an operator must create the forum's web-app client and set REDDIT_CLIENT_ID and REDDIT_CLIENT_SECRET (docs/publishing.md)",
    );
  if (!env.SESSION_KEY)
    throw invalidState("the service has no SESSION_KEY secret to seal the forum's grant; an operator must set it");
  const state = toHex(crypto.getRandomValues(new Uint8Array(24)));
  const expiresAt = new Date(Date.now() + STATE_TTL_MS).toISOString();
  const redirectUri = redirectUriOf(env, origin);
  await insertOAuthState(directoryDb(env), {
    stateHash: await sha256Hex(state),
    workspaceId: w.workspaceId,
    redirectUri,
    expiresAt,
    actor,
  });
  return { authorize_url: authorizeUrl(client, state, redirectUri), state, expires_at: expiresAt };
}

export type CallbackResult =
  | { ok: true; username: string; workspaceId: number; created: boolean; personaId: number; actor: Actor }
  | { ok: false; message: string };

const refusedPage = (message: string): CallbackResult => ({ ok: false, message });

/**
 * Who the new grant belongs to: GET /api/v1/me with its access token, under the deployment's quota (the forum
 * counts it against the client as every other call).
 */
async function whoAmI(env: Env, client: OAuthClient, accessToken: string): Promise<string> {
  const base = (env.REDDIT_API_BASE_URL?.trim() || DEFAULT_API_BASE_URL).replace(/\/+$/, "");
  const url = `${base}/api/v1/me?raw_json=1`;
  const quota = new QuotaGate(env, client.clientId);
  const permit = await quota.permit("who am I");
  let res: Response;
  try {
    res = await fetch(url, {
      headers: { authorization: `bearer ${accessToken}`, "user-agent": client.userAgent, accept: "application/json" },
      signal: AbortSignal.timeout(15_000),
    });
  } catch (err) {
    throw new Error(`the forum's API at ${base} could not be reached (${messageOf(err)})`);
  }
  await quota.report(permit, res);
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const me = MeAnswer.safeParse(body);
  if (res.status !== 200 || !me.success)
    throw new Error(`the forum's who am I (${base}/api/v1/me) answered HTTP ${res.status} without an account`);
  return me.data.name;
}

/**
 * The forum sent the person back: `state` must be a live state (it is used up now, whatever follows), then
 * `code` is exchanged and the grant stored for the account the forum names. Every refusal is in words.
 */
export async function completeConnection(
  env: Env,
  query: { state?: string; code?: string; error?: string },
): Promise<CallbackResult> {
  if (!query.state)
    return refusedPage("The forum's answer carries no state. Start again from the console's Personas page.");
  const row = await consumeOAuthState(directoryDb(env), await sha256Hex(query.state));
  if (!row)
    return refusedPage(
      "This connection link is unknown or was already used. Start again from the console's Personas page.",
    );
  if (row.expiresAt < nowIso())
    return refusedPage(
      "This connection link expired (it is valid ten minutes). Start again from the console's Personas page.",
    );
  if (query.error)
    return refusedPage(
      query.error === "access_denied"
        ? "The forum account did not allow the access asked for, so nothing was connected. To connect it, start again and choose Allow."
        : `The forum answered "${query.error.slice(0, 100)}" instead of a grant, so nothing was connected. Start again from the console's Personas page.`,
    );
  if (!query.code)
    return refusedPage("The forum's answer carries no code. Start again from the console's Personas page.");
  const client = oauthClient(env);
  if (!client) return refusedPage("The service has no REDDIT_CLIENT_ID; an operator must set it.");
  try {
    const grant = await exchangeCode(client, query.code, row.redirectUri);
    if (!grant.refreshToken)
      return refusedPage("The forum gave no refresh token (a temporary grant), so nothing was connected. Start again.");
    const username = await whoAmI(env, client, grant.accessToken);
    const w = workspaceDb(env, row.workspaceId);
    const sealed = await sealGrant(env, row.workspaceId, username, { ...grant, refreshToken: grant.refreshToken });
    const lacking = missingScopes(sealed.scopes);
    const saved = await saveGrant(w, username, {
      ...sealed,
      authCompleted: lacking.length === 0,
      lastError: lacking.length ? scopeError(lacking) : null,
    });
    return {
      ok: true,
      username,
      workspaceId: row.workspaceId,
      created: saved.created,
      personaId: saved.row.id,
      actor: starterOf(row) ?? SYSTEM_ACTOR,
    };
  } catch (err) {
    if (err instanceof GrantRefused)
      return refusedPage("The forum refused the code (it is used or too old), so nothing was connected. Start again.");
    if (isForumError(err) || err instanceof SessionKeyError)
      return refusedPage(`Nothing was connected: ${err.message}.`);
    log("warn", "forum connection failed", { error: messageOf(err) });
    return refusedPage(`Nothing was connected: ${messageOf(err)}. Try again in a minute.`);
  }
}
