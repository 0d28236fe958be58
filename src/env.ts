import type {
  AlertDeliverMessage,
  MonitorMessage,
  PublishQueueMessage,
  SyncRunMessage,
} from "./contracts/queue-messages";

/**
 * Bindings and vars of the Worker and its secrets. `WorkerBindings` is generated from wrangler.toml and
 * .dev.vars.example by `npm run types` (worker-configuration.d.ts, checked in; `npm test` fails when it no
 * longer matches wrangler.toml). Refined here: each queue carries its own message type, and the secrets
 * may be unset (the admin API is then disabled).
 */
export interface Env
  extends Omit<
    WorkerBindings,
    "SYNC_QUEUE" | "PUBLISH_QUEUE" | "MONITOR_QUEUE" | "ALERT_QUEUE" | "ADMIN_TOKEN" | "SESSION_KEY"
  > {
  SYNC_QUEUE: Queue<SyncRunMessage>;
  PUBLISH_QUEUE: Queue<PublishQueueMessage>;
  ADMIN_TOKEN?: string;
  SESSION_KEY?: string;
  // Monitoring (docs/monitoring.md): the monitor queue (FORUM_QUOTA, the deployment-wide quota, is
  // generated), the forum API client's settings (no client id: monitoring is off) and the metrics provider.
  MONITOR_QUEUE: Queue<MonitorMessage>;
  REDDIT_CLIENT_ID?: string;
  REDDIT_CLIENT_SECRET?: string;
  REDDIT_USER_AGENT?: string;
  REDDIT_AUTH_URL?: string;
  REDDIT_API_BASE_URL?: string;
  // Personas (docs/publishing.md, "Connecting"): where the forum sends a person back after consent; unset, the
  // Worker's own origin + /oauth/forum/callback.
  REDDIT_REDIRECT_URI?: string;
  MONITOR_PASS_BUDGET_MS?: string;
  DATAFORSEO_LOGIN?: string;
  DATAFORSEO_PASSWORD?: string;
  DATAFORSEO_BASE_URL?: string;
  // Alerts (docs/alerts.md): the delivery queue, and two settings tests shorten (production uses
  // the defaults: retries 30 s doubling, a 10 s timeout).
  ALERT_QUEUE: Queue<AlertDeliverMessage>;
  ALERT_RETRY_BASE_SECONDS?: string;
  ALERT_TIMEOUT_MS?: string;
}
