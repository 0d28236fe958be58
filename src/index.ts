import { createApp } from "./app";
import type { Env } from "./env";
import { runScheduled } from "./jobs/cron";

export { WorkspaceCoordinator } from "./durable/workspace-coordinator";

const { app } = createApp();

export default {
  fetch: app.fetch,
  async scheduled(controller, env, ctx) {
    ctx.waitUntil(runScheduled(controller.cron, env));
  },
  async queue(batch, _env) {
    // Consumers are added with the sync and publish jobs; until then nothing is acknowledged silently.
    for (const message of batch.messages) message.retry();
  },
} satisfies ExportedHandler<Env>;
