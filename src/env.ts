import type { WorkspaceCoordinator } from "./durable/workspace-coordinator";

/** Bindings and vars of the Worker (wrangler.toml) and its secrets (.dev.vars.example). */
export interface Env {
  DB: D1Database;
  WORKSPACE: DurableObjectNamespace<WorkspaceCoordinator>;
  SYNC_QUEUE: Queue<unknown>;
  PUBLISH_QUEUE: Queue<unknown>;
  RATE_LIMITER: RateLimit;
  BROWSER: Fetcher;
  FORUM_BASE_URL: string;
  ALLOW_PRIVATE_FETCH: string;
  ADMIN_TOKEN?: string;
  SESSION_KEY?: string;
}
