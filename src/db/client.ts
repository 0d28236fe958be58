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

/**
 * Where workspaces live when not in DB (docs/scaling.md): `WORKSPACE_SHARDS` lists `workspace id:binding`
 * pairs, comma-separated (e.g. "17:DB_SHARD_1"). A workspace listed there reads and writes all its data
 * (keywords, competitors, posts, personas, syncs, runs) in that database; the directory (workspaces, API
 * keys) stays in DB. An unknown binding name is a configuration error, never a silent fallback to DB.
 */
export interface ShardedEnv {
  DB: D1Database;
  DB_SHARD_1?: D1Database;
  WORKSPACE_SHARDS?: string;
}

const SHARD_BINDINGS = ["DB_SHARD_1"] as const;

function shardOf(env: ShardedEnv, workspaceId: number): D1Database {
  if (!env.WORKSPACE_SHARDS) return env.DB;
  for (const entry of env.WORKSPACE_SHARDS.split(",")) {
    const [id, binding] = entry.split(":").map((part) => part.trim());
    if (Number(id) !== workspaceId) continue;
    const d1 = SHARD_BINDINGS.find((name) => name === binding)
      ? env[binding as (typeof SHARD_BINDINGS)[number]]
      : undefined;
    if (!d1) throw new Error(`WORKSPACE_SHARDS names the binding "${binding}", which this Worker does not have`);
    return d1;
  }
  return env.DB;
}

export function workspaceDb(env: ShardedEnv, workspaceId: number): WorkspaceDb {
  const d1 = shardOf(env, workspaceId);
  return { db: drizzle(d1, { schema }), d1, workspaceId };
}

/**
 * The directory: workspaces and API keys, looked up before a workspace is known (a key identifies its
 * workspace). Only src/auth, the admin routes and the OAuth states of forum connections use it.
 */
export function directoryDb(env: { DB: D1Database }): Database {
  return drizzle(env.DB, { schema });
}

export const nowIso = () => new Date().toISOString();

/** A write refused by a UNIQUE index (drizzle wraps the driver's error; the cause says what failed). */
export const isUniqueViolation = (err: unknown): boolean =>
  /UNIQUE constraint failed/i.test(String((err as Error)?.message ?? err) + String((err as Error)?.cause ?? ""));
