import type { Context } from "hono";
import { matchedRoutes } from "hono/route";
import type { AppEnv } from "../app-env";
import { findKeyByHash, keyLookupStatement, type ResolvedKey } from "../db/api-keys";
import { liveKeyWorkspace } from "../db/key-sql";
import type { Workspace } from "../db/posts-query";
import { optionalExecutionCtx } from "../lib/context";
import { type AuthContext, acceptKey, assertWithinRateLimit, countRequest } from "./check";

// A read that is one D1 batch anyway can carry the key check in that batch: the key lookup goes first, and
// the read's own statements select `workspace_id = <the workspace of this key, if live>`, so they return
// nothing for a dead key whatever the code after them does. One round trip to the database instead of two;
// the rate limit is counted at the same time. Only for GET (a write must know its caller before it starts),
// and only where keys and the workspace's data share a database (today: always; see WorkspaceDb).

const KEY_IN_QUERY = Symbol("checks the API key in its own D1 batch");

type Handler = (...args: never[]) => unknown;

/** Marks a GET handler that checks the caller's key itself, with `batchWithKey`, instead of before it runs. */
export function checkingKeyInQuery<H extends Handler>(handler: H): H {
  return Object.assign(handler, { [KEY_IN_QUERY]: true });
}

type MaybeMarked = { [KEY_IN_QUERY]?: boolean; __COMPOSED_HANDLER?: MaybeMarked };

/** Whether the request is a GET whose route handler was marked by `checkingKeyInQuery`. */
export function checksKeyInQuery(c: Context<AppEnv>): boolean {
  if (c.req.method !== "GET" && c.req.method !== "HEAD") return false;
  // The last matched entry is the route's handler (Hono wraps a sub-app's handler when it has its own
  // error handler and keeps the original under __COMPOSED_HANDLER).
  let handler = matchedRoutes(c).at(-1)?.handler as MaybeMarked | undefined;
  while (handler && !handler[KEY_IN_QUERY] && handler.__COMPOSED_HANDLER) handler = handler.__COMPOSED_HANDLER;
  return handler?.[KEY_IN_QUERY] === true;
}

/**
 * Runs the statements `build` makes for the caller's workspace in one D1 batch together with the key check
 * (or, when the middleware already checked the key, for the known workspace). Throws 401/429 like the
 * middleware; on success the caller is recorded on the context as on every other route.
 */
export async function batchWithKey(
  c: Context<AppEnv>,
  build: (workspace: Workspace) => D1PreparedStatement[],
): Promise<{ auth: AuthContext; results: D1Result[] }> {
  const db = c.env.DB;
  const key = c.get("presentedKey");
  if (!key || key.checked) {
    const auth = c.get("auth");
    return { auth, results: await db.batch(build(auth.workspaceId)) };
  }
  const [limit, batch] = await Promise.allSettled([
    countRequest(c.env, key),
    db.batch([keyLookupStatement(db, key.digest), ...build(liveKeyWorkspace(key.digest, key.at.toISOString()))]),
  ]);
  if (limit.status === "rejected") throw limit.reason;
  // When the batch failed (a malformed search, say), the key still decides first: looked up on its own.
  const found = batch.status === "fulfilled" ? batch.value[0]?.results[0] : await findKeyByHash(db, key.digest);
  key.checked = true;
  const auth = await acceptKey(c.env, (found as ResolvedKey | undefined) ?? undefined, key.at, optionalExecutionCtx(c));
  c.set("auth", auth);
  assertWithinRateLimit(limit.value);
  if (batch.status === "rejected") throw batch.reason;
  return { auth, results: batch.value.slice(1) };
}
