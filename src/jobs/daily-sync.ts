// The daily cron's only job: one sync.run message per active config of every workspace.

import type { SyncRunMessage } from "../contracts/queue-messages";
import { listActiveConfigsOfAllWorkspaces } from "../db/blog-sync-configs";
import { directoryDb } from "../db/client";
import type { Env } from "../env";

/** Queues.sendBatch takes at most 100 messages. */
const SEND_BATCH = 100;

export const scheduleKeyOf = (scheduledTime: number) => new Date(scheduledTime).toISOString().slice(0, 10);

export async function enqueueDailySyncs(env: Env, scheduledTime: number): Promise<number> {
  const scheduleKey = scheduleKeyOf(scheduledTime);
  const messages: SyncRunMessage[] = (await listActiveConfigsOfAllWorkspaces(directoryDb(env))).map((config) => ({
    type: "sync.run",
    workspace_id: config.workspaceId,
    config_id: config.id,
    schedule_key: scheduleKey,
  }));
  for (let i = 0; i < messages.length; i += SEND_BATCH) {
    await env.SYNC_QUEUE.sendBatch(messages.slice(i, i + SEND_BATCH).map((body) => ({ body })));
  }
  return messages.length;
}
