import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { authenticate, bearerToken, type Credentials } from "../auth/check";
import { type AuthContext, hasScope, type KeyScope } from "../auth/keys";
import { type Access, assertAccess, type Grant } from "../auth/roles";
import { ApiError } from "../errors";
import { timingSafeEqualStrings } from "../lib/crypto";
import { optionalExecutionCtx } from "./context";
import type { AppEnv } from "./hono-env";

/** The address a request came from, as Cloudflare reports it (what failed authentications count against). */
export const clientAddressOf = (c: Context): string | undefined => c.req.header("cf-connecting-ip");

/** The request's key and client address, as check.ts reads them. */
export const credentialsOf = (c: Context<AppEnv>): Credentials => ({
  authorization: c.req.header("authorization"),
  clientAddress: clientAddressOf(c),
});

/**
 * Every /api/v1 request, before anything else of the route runs (validation included): a key of the right
 * shape, live, within its rate limit. So no query of a workspace's data runs for a caller without a valid
 * key, and a bad key outranks every other error of a route.
 */
export const requireApiKey = createMiddleware<AppEnv>(async (c, next) => {
  c.set("auth", await authenticate(c.env, credentialsOf(c), { countRequest: true }, optionalExecutionCtx(c)));
  await next();
});

/** The 403 of a key without the scope an operation needs. */
export const missingScope = () =>
  new ApiError("forbidden", "this API key is read-only; a read_write key is needed for this operation");

/** A write needs a read_write key. Checked here at the router, and again by services that write. */
export function assertScope(auth: AuthContext, scope: KeyScope): void {
  if (!hasScope(auth, scope)) throw missingScope();
}

/** The caller as the roles table judges it (src/auth/roles.ts). */
export const grantOf = (auth: AuthContext): Grant => ({
  scope: auth.scope,
  role: auth.role,
  person: auth.actor.type === "person",
});

/** The operation's entry of the roles table: its scope and its role, else 403 `forbidden`. */
export const requireAccess = (access: Access) =>
  createMiddleware<AppEnv>(async (c, next) => {
    assertAccess(access, grantOf(c.get("auth")));
    await next();
  });

export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  const token = bearerToken(c.req.header("authorization"));
  const expected = c.env.ADMIN_TOKEN;
  if (!expected) throw new ApiError("unauthorized", "admin API is disabled: ADMIN_TOKEN is not configured");
  if (!token || !(await timingSafeEqualStrings(token, expected)))
    throw new ApiError("unauthorized", "invalid admin token");
  await next();
});
