import type { PublishPostMessage, SyncRunMessage } from "./jobs/messages";

/**
 * Bindings and vars of the Worker and its secrets. `WorkerBindings` is generated from wrangler.toml and
 * .dev.vars.example by `npm run types` (worker-configuration.d.ts, checked in; `npm test` fails when it no
 * longer matches wrangler.toml). Refined here: each queue carries its own message type, and the secrets
 * may be unset (the admin API is then disabled).
 */
export interface Env extends Omit<WorkerBindings, "SYNC_QUEUE" | "PUBLISH_QUEUE" | "ADMIN_TOKEN" | "SESSION_KEY"> {
  SYNC_QUEUE: Queue<SyncRunMessage>;
  PUBLISH_QUEUE: Queue<PublishPostMessage>;
  ADMIN_TOKEN?: string;
  SESSION_KEY?: string;
}
