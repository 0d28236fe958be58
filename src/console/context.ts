// The console's request context: who is signed in (checked against the API key on every request), the
// session's CSRF token, and the security headers every page carries.
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import { acceptKey } from "../auth/check";
import type { AuthContext } from "../auth/keys";
import { type Access, allows, consoleAccess, type Grant, refusal } from "../auth/roles";
import { readPathId } from "../contracts/params";
import { directoryDb, workspaceDb } from "../db/client";
import { findKeyById } from "../db/key-by-id";
import { ApiError } from "../errors";
import { optionalExecutionCtx } from "../http/context";
import type { AppEnv } from "../http/hono-env";
import { notFound } from "../lib/domain-errors";
import { type LivePersonSession, type OpenedSession, resolvePersonSession } from "../people/sessions";
import {
  checkCsrf,
  consoleSigningKey,
  csrfToken,
  isLocalHost,
  openPersonSession,
  openSession,
  randomToken,
  SESSION_COOKIE,
  SESSION_SECONDS,
  sealPersonSession,
  sealSession,
} from "./session";

export interface ConsoleSession {
  auth: AuthContext;
  /** The CSRF token every form of this session carries. */
  csrf: string;
  /** May change what a member changes (triage, tracking, syncs, approval): the roles table's `write`. */
  canWrite: boolean;
  /** The person signed in, when it is a person's session (else a key session). */
  person?: LivePersonSession;
  /** What the roles table says of one console action for this session. */
  can: (method: string, path: string) => boolean;
}

export interface ConsoleEnv {
  Bindings: AppEnv["Bindings"];
  Variables: AppEnv["Variables"] & {
    session: ConsoleSession;
    signingKey: CryptoKey;
    nonce: string;
    /** An origin besides the console's own that the page's forms may lead to (the forum's consent page). */
    formTarget?: string;
  };
}

export type ConsoleContext = Context<ConsoleEnv>;

/**
 * Every console answer: no framing, no inline script or style, nothing cached, no referrer beyond the
 * origin. Draft images come from the blog, so images may load from any http(s) origin. The script may
 * fetch from the console's own origin only (the passkey ceremonies post their options and answers there).
 */
export const securityHeaders = createMiddleware<ConsoleEnv>(async (c, next) => {
  await next();
  const h = c.res.headers;
  // A form whose answer redirects elsewhere (Connect, to the forum's consent page) needs that origin here.
  const target = c.get("formTarget");
  h.set(
    "content-security-policy",
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' https: http:; " +
      `form-action 'self'${target ? ` ${target}` : ""}; frame-ancestors 'none'; base-uri 'none'`,
  );
  h.set("x-frame-options", "DENY");
  h.set("referrer-policy", "same-origin");
  h.set("x-content-type-options", "nosniff");
  if (!h.has("cache-control")) h.set("cache-control", "no-store");
});

/** The console's HMAC key; the console is off (503) until SESSION_KEY is configured. */
export const withSigningKey = createMiddleware<ConsoleEnv>(async (c, next) => {
  if (!c.env.SESSION_KEY) {
    return c.text("The console is disabled: the SESSION_KEY secret is not configured.", 503);
  }
  c.set("signingKey", await consoleSigningKey(c.env.SESSION_KEY));
  await next();
});

export const cookieOptions = (c: Context, maxAge: number) =>
  ({
    path: "/app",
    httpOnly: true,
    sameSite: "Strict",
    secure: !isLocalHost(c.req.url),
    maxAge,
  }) as const;

/** Opens a session for a key that was just accepted (a new nonce: nothing of an earlier cookie is kept). */
export async function startSession(c: ConsoleContext, keyId: number): Promise<void> {
  const expiresAt = Math.floor(Date.now() / 1000) + SESSION_SECONDS;
  const value = await sealSession(c.get("signingKey"), { keyId, expiresAt, nonce: randomToken() });
  setCookie(c, SESSION_COOKIE, value, cookieOptions(c, SESSION_SECONDS));
}

/** Sets the cookie of a person's session just opened (src/people/sessions.ts made its new token). */
export async function setPersonCookie(c: ConsoleContext, opened: OpenedSession): Promise<void> {
  const value = await sealPersonSession(c.get("signingKey"), {
    personToken: opened.token,
    expiresAt: opened.expiresAt,
  });
  setCookie(c, SESSION_COOKIE, value, cookieOptions(c, SESSION_SECONDS));
}

export const endSession = (c: ConsoleContext) => deleteCookie(c, SESSION_COOKIE, { path: "/app" });

/** Where sign-in sends a person back to: only a console path of this site. */
export function safeNext(next: string | undefined): string {
  return next && /^\/app\/[^/\\]/.test(next) && !next.startsWith("/app/sign-in") ? next : "/app/posts";
}

const signInRedirect = (c: ConsoleContext, expired: boolean) => {
  const url = new URL(c.req.url);
  const params = new URLSearchParams({ next: c.req.method === "GET" ? url.pathname + url.search : url.pathname });
  if (expired) params.set("expired", "1");
  return c.redirect(`/app/sign-in?${params}`, 303);
};

/**
 * A signed, unexpired cookie whose key is still live (not revoked, not expired). Otherwise: back to sign-in,
 * remembering the page asked for. Every POST also needs the session's CSRF token: 403 otherwise, before
 * anything is read or written.
 */
export const requireSession = createMiddleware<ConsoleEnv>(async (c, next) => {
  const cookie = getCookie(c, SESSION_COOKIE);
  const opened = await openAnySession(c, cookie);
  if (!opened) {
    if (cookie) endSession(c);
    return signInRedirect(c, cookie !== undefined);
  }
  const { auth, nonce, person } = opened;
  const csrf = await csrfToken(c.get("signingKey"), "session", nonce);
  const grant: Grant = { scope: auth.scope, role: auth.role, person: person !== undefined };
  const can = (method: string, path: string) => allows(consoleAccess(method, path), grant);
  c.set("session", { auth, csrf, canWrite: allows(WRITE, grant), person, can });
  if (c.req.method === "POST") {
    const form = await c.req.parseBody();
    if (!(await checkCsrf(c.get("signingKey"), "session", nonce, form._csrf))) {
      return c.text(
        "Forbidden: this form is missing its security token or the token is stale. Reload the page and try again.",
        403,
      );
    }
  }
  await next();
});

/** What a member may change: the entry of a write action in the roles table. */
const WRITE: Access = consoleAccess("POST", "/keywords");

/** A key session (the key looked up again) or a person's session (its row looked up again), else undefined. */
async function openAnySession(
  c: ConsoleContext,
  cookie: string | undefined,
): Promise<{ auth: AuthContext; nonce: string; person?: LivePersonSession } | undefined> {
  const now = new Date();
  const personClaims = await openPersonSession(c.get("signingKey"), cookie, now);
  if (personClaims) {
    const person = await resolvePersonSession(directoryDb(c.env), personClaims.personToken);
    if (!person) return undefined;
    const actor = { type: "person" as const, id: String(person.person.id), name: person.person.name };
    const auth: AuthContext = {
      keyId: null,
      workspaceId: person.workspaceId,
      scope: "read_write",
      role: person.role,
      personId: person.person.id,
      actor,
    };
    return { auth, nonce: personClaims.personToken, person };
  }
  const claims = await openSession(c.get("signingKey"), cookie, now);
  if (!claims) return undefined;
  try {
    const auth = await acceptKey(c.env, await findKeyById(c.env.DB, claims.keyId), now, optionalExecutionCtx(c));
    return { auth, nonce: claims.nonce };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return undefined;
  }
}

/**
 * A console action's entry of the roles table (src/auth/roles.ts), checked before its handler runs: 403 with
 * why (a read-only key, a role below the action's) before anything is read or written.
 */
export const requireConsoleAccess = (method: string, path: string) => {
  const access = consoleAccess(method, path);
  return createMiddleware<ConsoleEnv>(async (c, next) => {
    const session = c.get("session");
    const why = refusal(access, { scope: session.auth.scope, role: session.auth.role, person: !!session.person });
    if (why) {
      const readOnlyKey = !session.person && session.auth.scope === "read";
      return c.text(
        readOnlyKey
          ? "Forbidden: this session was opened with a read-only key; it can look but not change anything."
          : `Forbidden: ${why}.`,
        403,
      );
    }
    await next();
  });
};

/** The signed-in workspace's data accessor. */
export const sessionDb = (c: ConsoleContext) => workspaceDb(c.env, c.get("session").auth.workspaceId);

/**
 * The id in a path parameter, read by the API's rule for ids in paths (decimal digits only: `1e1`, `0x1a`,
 * ` 10` are refused, not read as 10 or 26); anything else is "no such" item, the console's 404 page.
 */
export function pathIdOf(c: ConsoleContext, name: string, noun: string): number {
  const id = readPathId(c.req.param(name));
  if (id === undefined) throw notFound(noun);
  return id;
}
