import type { Context, ExecutionContext } from "hono";
import { type WorkspaceDb, workspaceDb } from "../db/client";
import type { AppEnv } from "./hono-env";

/** The caller's workspace data accessor, from the authenticated key. */
export const callerDb = (c: Context<AppEnv>): WorkspaceDb => workspaceDb(c.env, c.get("auth").workspaceId);

/** The request's execution context, or undefined where the caller has none (Hono throws on access then). */
export function optionalExecutionCtx(c: { executionCtx: ExecutionContext }): ExecutionContext | undefined {
  try {
    return c.executionCtx;
  } catch {
    return undefined;
  }
}
