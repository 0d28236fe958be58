import { type DrizzleD1Database, drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

export type Database = DrizzleD1Database<typeof schema>;

/**
 * The one door to a workspace's data. Every query function in src/db takes this first and filters on
 * `workspaceId`. Which database holds a workspace is decided here alone, so moving a large workspace to a
 * database of its own (growth: docs/architecture.md) changes this function and no route. The caller's key has been
 * checked (src/auth) before a WorkspaceDb is made for its workspace.
 */
export interface WorkspaceDb {
  readonly db: Database;
  readonly d1: D1Database;
  readonly workspaceId: number;
}

export function workspaceDb(env: { DB: D1Database }, workspaceId: number): WorkspaceDb {
  return { db: drizzle(env.DB, { schema }), d1: env.DB, workspaceId };
}

/**
 * The directory: workspaces and API keys, looked up before a workspace is known (a key identifies its
 * workspace). Only src/auth and the admin routes use it.
 */
export function directoryDb(env: { DB: D1Database }): Database {
  return drizzle(env.DB, { schema });
}

export const nowIso = () => new Date().toISOString();

/** A write refused by a UNIQUE index (drizzle wraps the driver's error; the cause says what failed). */
export const isUniqueViolation = (err: unknown): boolean =>
  /UNIQUE constraint failed/i.test(String((err as Error)?.message ?? err) + String((err as Error)?.cause ?? ""));
