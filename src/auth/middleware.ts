import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env";
import { ApiError, respondError } from "../errors";
import { optionalExecutionCtx } from "../lib/context";
import { type AuthContext, bearerToken, checkKey, type PresentedKey, presentedKey } from "./check";
import { checksKeyInQuery } from "./key-in-query";
import { type KeyScope, timingSafeEqualStrings } from "./keys";

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
  if (!token || !(await timingSafeEqualStrings(token, expected)))
    throw new ApiError("unauthorized", "invalid admin token");
  await next();
});
