import { createApp } from "./app";
import type { Env } from "./env";
import { runScheduled } from "./jobs/cron";
import { handleQueueBatch } from "./jobs/queue";

export { ForumIngester } from "./durable/forum-ingester";
export { ForumQuota } from "./durable/forum-quota";
export { WorkspaceCoordinator } from "./durable/workspace-coordinator";

const { app } = createApp();

export default {
  fetch: app.fetch,
  async scheduled(controller, env, ctx) {
    ctx.waitUntil(runScheduled(controller.cron, env, controller.scheduledTime));
  },
  async queue(batch, env) {
    await handleQueueBatch(batch, env);
  },
} satisfies ExportedHandler<Env>;
