// Monitoring's weekly cron only enqueues: the stale keywords' metrics in batches. (The 10-minute cron makes sure
// the forum ingester runs: src/monitor/ingester.ts.)

import type { MonitorMessage, MonitorMetricsMessage } from "../contracts/queue-messages";
import { directoryDb } from "../db/client";
import { staleKeywords } from "../db/monitor";
import type { Env } from "../env";
import { metricsProvider } from "../monitor/keyword-metrics";

/** Queues.sendBatch takes at most 100 messages. */
const SEND_BATCH = 100;
/** Keywords measured per metrics message. */
export const METRICS_BATCH = 20;
/** Keywords whose metrics are older than this (or missing) are measured again. */
export const METRICS_MAX_AGE_MS = 7 * 24 * 3_600_000;
/** At most this many keywords a week (the provider charges per keyword). */
const METRICS_PER_RUN = 5_000;

async function sendAll(env: Env, bodies: MonitorMessage[]): Promise<void> {
  for (let i = 0; i < bodies.length; i += SEND_BATCH)
    await env.MONITOR_QUEUE.sendBatch(bodies.slice(i, i + SEND_BATCH).map((body) => ({ body })));
}

export async function enqueueStaleKeywordMetrics(env: Env, scheduledTime: number): Promise<number> {
  if (!metricsProvider(env)) return 0;
  const before = new Date(scheduledTime - METRICS_MAX_AGE_MS).toISOString();
  const stale = await staleKeywords(directoryDb(env), before, METRICS_PER_RUN);
  const messages: MonitorMetricsMessage[] = [];
  let current: MonitorMetricsMessage | undefined;
  for (const k of stale) {
    if (!current || current.workspace_id !== k.workspaceId || current.keyword_ids.length >= METRICS_BATCH) {
      current = { type: "monitor.metrics", workspace_id: k.workspaceId, keyword_ids: [] };
      messages.push(current);
    }
    current.keyword_ids.push(k.id);
  }
  await sendAll(env, messages);
  return stale.length;
}
