import type { Context } from "hono";
import type { AppEnv } from "../app-env";
import { workspaceDb, type WorkspaceDb } from "../db/client";

/** The caller's workspace data accessor, from the authenticated key. */
export const callerDb = (c: Context<AppEnv>): WorkspaceDb => workspaceDb(c.env, c.get("auth").workspaceId);
