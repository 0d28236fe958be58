// A persona's OAuth grant (docs/publishing.md, "Tokens"; docs/security.md): the refresh token and the cached
// access token sealed at rest with AES-GCM under SESSION_KEY, bound to the workspace, the username and which
// token it is. An access token is renewed shortly before it expires; the refresh is claimed per persona so
// two callers never spend the same refresh token (the forum rotates it), and the rotated one is stored
// before the new access token is handed to anyone.
import type { WorkspaceDb } from "../db/client";
import {
  claimRefresh,
  getPersonaRow,
  type PersonaRow,
  releaseRefreshClaim,
  type SealedGrant,
  storeRefreshed,
} from "../db/personas";
import type { Env } from "../env";
import { ForumError } from "../forum/errors";
import { type Grant, GrantRefused, type OAuthClient, oauthClient, PERSONA_SCOPES, refreshGrant } from "../forum/oauth";
import { notFound } from "../lib/domain-errors";
import { openSession, SessionKeyError, sealSession } from "../lib/sealing";

export const REVOKED_ERROR = "the forum revoked this connection; connect the account again";
export const MISSING_ERROR = "the forum's connection is missing; connect the account again";

/** How long before the forum's expiry an access token is renewed: five minutes, or a tenth of a short life. */
const renewMarginMs = (lifeMs: number) => Math.min(5 * 60_000, lifeMs / 10);
/** How long one caller may hold the refresh before others take it over (the token request's own timeout is 15 s). */
const CLAIM_MS = 30_000;
const CLAIM_WAIT_MS = 30_000;

const owner = (workspaceId: number, username: string, token: "refresh" | "access") =>
  `workspace:${workspaceId}:user:${username.toLowerCase()}:${token}`;

/** The scopes a persona must hold and has not. */
export const missingScopes = (scopes: string[]) => PERSONA_SCOPES.filter((s) => !scopes.includes(s));

/** The client every persona call needs; without REDDIT_CLIENT_ID publishing cannot work, and says so. */
export function requireOAuthClient(env: Env): OAuthClient {
  const client = oauthClient(env);
  if (!client)
    throw new ForumError(
      "grant",
      "the service has no REDDIT_CLIENT_ID: an operator must create the forum's web-app client and set REDDIT_CLIENT_ID and REDDIT_CLIENT_SECRET (docs/publishing.md)",
    );
  return client;
}

/** A grant sealed for `username` of workspace `workspaceId`. */
export async function sealGrant(
  env: Pick<Env, "SESSION_KEY">,
  workspaceId: number,
  username: string,
  grant: Grant & { refreshToken: string },
  now = Date.now(),
): Promise<SealedGrant> {
  return {
    refreshTokenSealed: await sealSession(env.SESSION_KEY, owner(workspaceId, username, "refresh"), grant.refreshToken),
    accessTokenSealed: await sealSession(env.SESSION_KEY, owner(workspaceId, username, "access"), grant.accessToken),
    // Stored as the time to renew it: shortly before the forum's expiry.
    accessTokenExpiresAt: new Date(
      now + grant.expiresInSeconds * 1000 - renewMarginMs(grant.expiresInSeconds * 1000),
    ).toISOString(),
    scopes: grant.scopes,
  };
}

/** The persona's refresh token, or null when it has none (never connected by OAuth, or revoked). */
export async function openRefreshToken(env: Pick<Env, "SESSION_KEY">, persona: PersonaRow): Promise<string | null> {
  if (!persona.refreshTokenSealed) return null;
  return openSession(
    env.SESSION_KEY,
    owner(persona.workspaceId, persona.username, "refresh"),
    persona.refreshTokenSealed,
  );
}

async function cachedAccess(env: Pick<Env, "SESSION_KEY">, persona: PersonaRow, now: number): Promise<string | null> {
  if (!persona.accessTokenSealed || !persona.accessTokenExpiresAt) return null;
  if (Date.parse(persona.accessTokenExpiresAt) <= now) return null;
  return openSession(
    env.SESSION_KEY,
    owner(persona.workspaceId, persona.username, "access"),
    persona.accessTokenSealed,
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function markRevoked(w: WorkspaceDb, persona: PersonaRow): Promise<never> {
  await storeRefreshed(w, persona.id, persona.grantVersion, {
    authCompleted: false,
    lastError: REVOKED_ERROR,
    refreshTokenSealed: null,
    accessTokenSealed: null,
    accessTokenExpiresAt: null,
  });
  throw new ForumError("grant", `u/${persona.username}: ${REVOKED_ERROR}`);
}

/** Renews the grant of `persona` (whose refresh this caller has claimed) and stores the answer first of all. */
async function refresh(env: Env, w: WorkspaceDb, persona: PersonaRow): Promise<string> {
  const client = requireOAuthClient(env);
  let grant: Grant;
  try {
    const token = await openRefreshToken(env, persona);
    if (!token) throw new ForumError("grant", `u/${persona.username}: ${MISSING_ERROR}`);
    grant = await refreshGrant(client, token);
  } catch (err) {
    if (err instanceof GrantRefused) return markRevoked(w, persona);
    await releaseRefreshClaim(w, persona.id);
    throw err;
  }
  const now = Date.now();
  const refreshToken = grant.refreshToken ?? (await openRefreshToken(env, persona))!;
  const sealed = await sealGrant(env, persona.workspaceId, persona.username, { ...grant, refreshToken }, now);
  const lacking = missingScopes(sealed.scopes);
  const stored = await storeRefreshed(w, persona.id, persona.grantVersion, {
    ...sealed,
    ...(lacking.length ? { authCompleted: false, lastError: scopeError(lacking) } : {}),
  });
  // Replaced meanwhile by a new connection: the new grant is the persona's; this answer is dropped.
  if (!stored) return personaAccessToken(env, w, persona.id);
  return grant.accessToken;
}

export const scopeError = (lacking: readonly string[]) =>
  `the forum's grant lacks the scopes ${lacking.join(", ")}; connect the account again and allow every permission asked`;

/**
 * A fresh access token of the persona `personaId`: the cached one, or a renewed one (refresh_token grant,
 * rotation stored). `rejected`: the forum refused this token (401), so it is renewed even if not expired.
 * ForumError `grant` when the persona has no working grant (revoked, never connected), `unreachable` when
 * the token endpoint cannot be reached.
 */
export async function personaAccessToken(
  env: Env,
  w: WorkspaceDb,
  personaId: number,
  options: { rejected?: string } = {},
): Promise<string> {
  const waitUntil = Date.now() + CLAIM_WAIT_MS;
  for (;;) {
    const persona = await getPersonaRow(w, personaId);
    if (!persona) throw notFound("persona");
    if (!persona.refreshTokenSealed)
      throw new ForumError("grant", `u/${persona.username}: ${persona.lastError ?? MISSING_ERROR}`);
    const now = Date.now();
    const cached = await cachedAccess(env, persona, now);
    if (cached && cached !== options.rejected) return cached;
    const claimed = await claimRefresh(
      w,
      personaId,
      new Date(now).toISOString(),
      new Date(now + CLAIM_MS).toISOString(),
    );
    if (claimed) {
      // Claimed: but another caller may have renewed it just before; its answer is then the one to use.
      const fresh = await cachedAccess(env, claimed, now);
      if (fresh && fresh !== options.rejected) {
        await releaseRefreshClaim(w, personaId);
        return fresh;
      }
      return refresh(env, w, claimed);
    }
    if (Date.now() > waitUntil)
      throw new ForumError(
        "uncertain",
        `u/${persona.username}: the access token is being renewed for too long; try again`,
      );
    await sleep(100);
  }
}

/** Whether an error is about the stored grant's sealing (SESSION_KEY), with what to do. */
export const isSealingError = (err: unknown): err is SessionKeyError => err instanceof SessionKeyError;
