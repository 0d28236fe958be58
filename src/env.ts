import type { ForumQuota } from "./durable/forum-quota";
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
  // Monitoring (SPEC 10, docs/monitoring.md): the forum API's deployment-wide quota, the monitor queue, the
  // forum API client's settings (no client id: monitoring is off) and the keyword-metrics provider.
  FORUM_QUOTA: DurableObjectNamespace<ForumQuota>;
  MONITOR_QUEUE: Queue<unknown>;
  REDDIT_CLIENT_ID?: string;
  REDDIT_CLIENT_SECRET?: string;
  REDDIT_USER_AGENT?: string;
  REDDIT_AUTH_URL?: string;
  REDDIT_API_BASE_URL?: string;
  MONITOR_PASS_BUDGET_MS?: string;
  DATAFORSEO_LOGIN?: string;
  DATAFORSEO_PASSWORD?: string;
  DATAFORSEO_BASE_URL?: string;
}
