import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env";
import { directoryDb } from "../db/client";
import { findKeyByHash, touchKey } from "../db/api-keys";
import { ApiError } from "../errors";
import { optionalExecutionCtx } from "../lib/context";
import { KEY_PATTERN, sha256Hex, timingSafeEqualStrings, type KeyScope } from "./keys";
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

/** Resolves `Authorization: Bearer <key>` to a workspace, or throws 401. */
export async function authenticate(env: AppEnv["Bindings"], header: string | undefined, ctx?: { waitUntil(promise: Promise<unknown>): void }): Promise<AuthContext> {
  const token = bearerToken(header);
  if (!token) throw new ApiError("unauthorized", "missing API key: send Authorization: Bearer <key>");
  if (!KEY_PATTERN.test(token)) throw new ApiError("unauthorized", "malformed API key");
  const db = directoryDb(env);
  const key = await findKeyByHash(db, await sha256Hex(token));
  const now = new Date();
  if (!key) throw new ApiError("unauthorized", "unknown API key");
  if (key.revokedAt) throw new ApiError("unauthorized", "API key has been revoked");
  if (key.expiresAt && new Date(key.expiresAt) <= now) throw new ApiError("unauthorized", "API key has expired");
  if (!key.lastUsedAt || now.getTime() - new Date(key.lastUsedAt).getTime() > LAST_USED_RESOLUTION_MS) {
    // Off the hot path: the response does not wait for this write.
    const write = touchKey(db, key.keyId, now.toISOString()).catch((err: unknown) =>
      log("warn", "last_used_at update failed", { error: messageOf(err) }),
    );
    if (ctx) ctx.waitUntil(write);
    else await write;
  }
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
