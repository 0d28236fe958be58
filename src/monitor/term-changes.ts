// What follows a change to the tracked terms: the workspace's stored posts are re-matched in the background,
// and a new or renamed keyword is measured soon after (when a metrics provider is configured).
import type { Env } from "../env";
import type { MonitorMetricsMessage, MonitorRematchMessage } from "../jobs/messages";
import { log, messageOf } from "../lib/log";
import { metricsProvider } from "./keyword-metrics";

/** "Soon after it is created": the keyword is measured this many seconds later, off the request. */
export const NEW_KEYWORD_METRICS_DELAY_SECONDS = 5;

/**
 * Queues the re-match (and the new keyword's measurement). The term itself is already saved: a queue that
 * cannot be reached is logged, not turned into a failed request (the next change re-matches everything).
 */
export async function trackedTermsChanged(env: Env, workspaceId: number, measureKeywordId?: number): Promise<void> {
  try {
    const rematch: MonitorRematchMessage = { type: "monitor.rematch", workspace_id: workspaceId, after_post_id: 0 };
    await env.MONITOR_QUEUE.send(rematch);
    if (measureKeywordId !== undefined && metricsProvider(env)) {
      const metrics: MonitorMetricsMessage = {
        type: "monitor.metrics",
        workspace_id: workspaceId,
        keyword_ids: [measureKeywordId],
      };
      await env.MONITOR_QUEUE.send(metrics, { delaySeconds: NEW_KEYWORD_METRICS_DELAY_SECONDS });
    }
  } catch (err) {
    log("error", "could not queue the re-match of stored posts", { workspaceId, error: messageOf(err) });
  }
}
