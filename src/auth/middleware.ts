import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env";
import { directoryDb } from "../db/client";
import { findKeyByHash, touchKey, type ResolvedKey } from "../db/api-keys";
import { ApiError, respondError } from "../errors";
import { optionalExecutionCtx } from "../lib/context";
import { KEY_PATTERN, sha256Hex, timingSafeEqualStrings, type KeyScope } from "./keys";
import { checksKeyInQuery } from "./key-in-query";
import { log, messageOf } from "../lib/log";

/** How stale `last_used_at` may get before a request refreshes it (keeps writes off most requests). */
const LAST_USED_RESOLUTION_MS = 60_000;

function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header ?? "");
  return match?.[1];
}

export interface AuthContext {
  keyId: number;
  workspaceId: number;
  scope: KeyScope;
}

/** A well-formed key from the Authorization header, not yet looked up. `at` is the time it is judged at. */
export interface PresentedKey {
  digest: string;
  at: Date;
  /** Set once the key has been looked up and judged (whatever the verdict). */
  checked?: boolean;
}

type WaitUntil = { waitUntil(promise: Promise<unknown>): void };

/** Reads `Authorization: Bearer <key>`; throws 401 when it is missing or not a key's shape. */
export async function presentedKey(header: string | undefined): Promise<PresentedKey> {
  const token = bearerToken(header);
  if (!token) throw new ApiError("unauthorized", "missing API key: send Authorization: Bearer <key>");
  if (!KEY_PATTERN.test(token)) throw new ApiError("unauthorized", "malformed API key");
  return { digest: await sha256Hex(token), at: new Date() };
}

/**
 * Judges a looked-up key: throws 401 for an unknown, revoked or expired one, else returns the caller and
 * refreshes `last_used_at` off the hot path (the response does not wait for that write).
 */
export async function acceptKey(env: AppEnv["Bindings"], key: ResolvedKey | undefined, at: Date, ctx?: WaitUntil): Promise<AuthContext> {
  if (!key) throw new ApiError("unauthorized", "unknown API key");
  if (key.revokedAt) throw new ApiError("unauthorized", "API key has been revoked");
  if (key.expiresAt && new Date(key.expiresAt) <= at) throw new ApiError("unauthorized", "API key has expired");
  if (!key.lastUsedAt || at.getTime() - new Date(key.lastUsedAt).getTime() > LAST_USED_RESOLUTION_MS) {
    const write = touchKey(directoryDb(env), key.keyId, at.toISOString()).catch((err: unknown) =>
      log("warn", "last_used_at update failed", { error: messageOf(err) }),
    );
    if (ctx) ctx.waitUntil(write);
    else await write;
  }
  return { keyId: key.keyId, workspaceId: key.workspaceId, scope: key.scope };
}

/** The per-key rate limit's verdict: throws 429 when the key has used up its minute. */
export function assertWithinRateLimit(outcome: { success: boolean }): void {
  if (!outcome.success) {
    throw new ApiError("rate_limited", "rate limit reached for this API key; retry later", { headers: { "retry-after": "60" } });
  }
}

/** Counts one request against the key's rate limit (per key: the bucket is named by the key's digest). */
export const countRequest = (env: AppEnv["Bindings"], key: PresentedKey) => env.RATE_LIMITER.limit({ key: `key:${key.digest}` });

/**
 * Looks the key up and counts the request against its rate limit, both at once; 401 before 429.
 * Marks the key checked whatever the verdict.
 */
export async function checkKey(env: AppEnv["Bindings"], key: PresentedKey, ctx?: WaitUntil): Promise<AuthContext> {
  const [found, limit] = await Promise.all([findKeyByHash(env.DB, key.digest), countRequest(env, key)]);
  key.checked = true;
  const auth = await acceptKey(env, found, key.at, ctx);
  assertWithinRateLimit(limit);
  return auth;
}

/** Resolves `Authorization: Bearer <key>` to a workspace, or throws 401 (or 429 past the rate limit). */
export async function authenticate(env: AppEnv["Bindings"], header: string | undefined, ctx?: WaitUntil): Promise<AuthContext> {
  return checkKey(env, await presentedKey(header), ctx);
}

/** Checks the key now and records the caller; an ApiError becomes the response. */
async function checkKeyAfterwards(c: Context<AppEnv>, key: PresentedKey): Promise<void> {
  try {
    c.set("auth", await checkKey(c.env, key, optionalExecutionCtx(c)));
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    c.res = respondError(c, err);
  }
}

/**
 * Every /api/v1 request: a key of the right shape, looked up, within its rate limit. A read whose handler
 * checks the key in its own D1 batch (key-in-query.ts) gets the key unchecked; should that route end
 * without having checked it (a 400 from validation, an error before its batch, a handler that never ran
 * one), the key is checked here afterwards and a 401 or 429 replaces whatever the route answered, so the
 * key decides first on every route and no answer leaves without a checked key.
 */
export const requireApiKey = createMiddleware<AppEnv>(async (c, next) => {
  const key = await presentedKey(c.req.header("authorization"));
  if (!checksKeyInQuery(c)) {
    c.set("auth", await checkKey(c.env, key, optionalExecutionCtx(c)));
    return next();
  }
  c.set("presentedKey", key);
  await next();
  if (!key.checked) await checkKeyAfterwards(c, key);
});

/** A write needs a read_write key. Checked here at the router, and again by services that write. */
export function assertScope(auth: AuthContext, scope: KeyScope): void {
  if (scope === "read_write" && auth.scope !== "read_write") {
    throw new ApiError("forbidden", "this API key is read-only; a read_write key is needed for this operation");
  }
}

export const requireScope = (scope: KeyScope) =>
  createMiddleware<AppEnv>(async (c, next) => {
    assertScope(c.get("auth"), scope);
    await next();
  });

export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  const token = bearerToken(c.req.header("authorization"));
  const expected = c.env.ADMIN_TOKEN;
  if (!expected) throw new ApiError("unauthorized", "admin API is disabled: ADMIN_TOKEN is not configured");
  if (!token || !(await timingSafeEqualStrings(token, expected))) throw new ApiError("unauthorized", "invalid admin token");
  await next();
});
