import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env";
import { directoryDb, type Database } from "../db/client";
import { findKeyByHash, touchKey, type ResolvedKey } from "../db/api-keys";
import { ApiError } from "../errors";
import { optionalExecutionCtx } from "../lib/context";
import { KEY_PATTERN, sha256Hex, timingSafeEqualStrings, type KeyScope } from "./keys";

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

type Waiter = { waitUntil(promise: Promise<unknown>): void };

/**
 * Resolved permanent keys, kept in this isolate's memory for at most KEY_CACHE_TTL_MS so a request need not
 * wait for the key lookup in D1 (the lead's decision: revocation takes effect everywhere within 5 seconds).
 * Only positive results of keys without an expiry are kept; temporary keys are looked up on every request.
 * A hit is served at once and checked again against D1 after the response (stale-while-revalidate), which
 * also keeps last_used_at right; the admin API's revoke evicts the key from the isolate that served it.
 */
const KEY_CACHE_TTL_MS = 5_000;
const KEY_CACHE_MAX_ENTRIES = 10_000;
const keyCache = new Map<string, { key: ResolvedKey; cachedAt: number }>();

function cacheKey(keyHash: string, key: ResolvedKey, at: number): void {
  keyCache.delete(keyHash);
  if (key.revokedAt || key.expiresAt) return;
  if (keyCache.size >= KEY_CACHE_MAX_ENTRIES) keyCache.delete(keyCache.keys().next().value!);
  keyCache.set(keyHash, { key, cachedAt: at });
}

/** Drops a key from this isolate's cache (called when the admin API revokes it). */
export function evictCachedKey(keyId: number): void {
  for (const [hash, entry] of keyCache) if (entry.key.keyId === keyId) keyCache.delete(hash);
}

function warn(msg: string) {
  return (err: unknown) => console.error(JSON.stringify({ level: "warn", msg, error: String(err) }));
}

/** Writes last_used_at when it is older than LAST_USED_RESOLUTION_MS (off the response's path when it can). */
async function touchWhenStale(db: Database, key: ResolvedKey, now: Date, ctx?: Waiter): Promise<void> {
  if (key.lastUsedAt && now.getTime() - new Date(key.lastUsedAt).getTime() <= LAST_USED_RESOLUTION_MS) return;
  const write = touchKey(db, key.keyId, now.toISOString()).catch(warn("last_used_at update failed"));
  if (ctx) ctx.waitUntil(write);
  else await write;
}

/** The key row for `keyHash`, from D1 (and into the cache when it may be kept). */
async function lookUpKey(db: Database, keyHash: string, now: Date, ctx?: Waiter): Promise<ResolvedKey | undefined> {
  const key = await findKeyByHash(db, keyHash);
  if (!key) {
    keyCache.delete(keyHash);
    return undefined;
  }
  cacheKey(keyHash, key, now.getTime());
  if (!key.revokedAt && !(key.expiresAt && new Date(key.expiresAt) <= now)) await touchWhenStale(db, key, now, ctx);
  return key;
}

/** Resolves `Authorization: Bearer <key>` to a workspace, or throws 401. */
export async function authenticate(env: AppEnv["Bindings"], header: string | undefined, ctx?: Waiter): Promise<AuthContext> {
  const token = bearerToken(header);
  if (!token) throw new ApiError("unauthorized", "missing API key: send Authorization: Bearer <key>");
  if (!KEY_PATTERN.test(token)) throw new ApiError("unauthorized", "malformed API key");
  const db = directoryDb(env);
  const keyHash = await sha256Hex(token);
  const now = new Date();
  const cached = keyCache.get(keyHash);
  let key: ResolvedKey | undefined;
  if (ctx && cached && now.getTime() - cached.cachedAt < KEY_CACHE_TTL_MS) {
    key = cached.key;
    ctx.waitUntil(lookUpKey(db, keyHash, now, ctx).catch(warn("API key revalidation failed")));
  } else {
    key = await lookUpKey(db, keyHash, now, ctx);
  }
  if (!key) throw new ApiError("unauthorized", "unknown API key");
  if (key.revokedAt) throw new ApiError("unauthorized", "API key has been revoked");
  if (key.expiresAt && new Date(key.expiresAt) <= now) throw new ApiError("unauthorized", "API key has expired");
  return { keyId: key.keyId, workspaceId: key.workspaceId, scope: key.scope };
}

export const requireApiKey = createMiddleware<AppEnv>(async (c, next) => {
  const auth = await authenticate(c.env, c.req.header("authorization"), optionalExecutionCtx(c));
  c.set("auth", auth);
  const { success } = await c.env.RATE_LIMITER.limit({ key: `key:${auth.keyId}` });
  if (!success) {
    throw new ApiError("rate_limited", "rate limit reached for this API key; retry later", { headers: { "retry-after": "60" } });
  }
  await next();
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
