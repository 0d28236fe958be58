// Monitoring's queue messages: a pass, a batch of re-matching, a batch of keyword metrics. Each is safe
// under repeated delivery (a pass resumes from its cursors; re-matching and metrics rewrite the same rows).

import type { MonitorMessage, MonitorRematchMessage, QueueMessage } from "../contracts/queue-messages";
import { workspaceDb } from "../db/client";
import type { Env } from "../env";
import { isDomainError } from "../lib/domain-errors";
import { refreshKeywordMetrics } from "../monitor/keyword-metrics";
import { monitoringEnabled, runMonitorPass } from "../monitor/pass";
import { rematchBatch, rematchCommentsBatch } from "../monitor/rematch";
import type { Verdict } from "./blog-sync-consumers";

export const isMonitorMessage = (m: QueueMessage): m is MonitorMessage => m.type.startsWith("monitor.");

export async function consumeMonitorMessage(message: MonitorMessage, env: Env): Promise<Verdict> {
  const w = workspaceDb(env, message.workspace_id);
  switch (message.type) {
    case "monitor.pass": {
      if (!monitoringEnabled(env)) return { outcome: "ack", note: "monitoring is off (no REDDIT_CLIENT_ID)" };
      try {
        const run = await runMonitorPass(env, w, { trigger: "schedule" });
        return { outcome: "ack", note: `pass ${run.status}: ${run.created} created, ${run.updated} updated` };
      } catch (err) {
        // Another pass of the workspace is running: this one is not needed, the next cron comes in 10 minutes.
        if (isDomainError(err, "run_in_progress"))
          return { outcome: "ack", note: "a pass of the workspace is running" };
        throw err;
      }
    }
    case "monitor.rematch":
      return rematchStep(env, message);
    case "monitor.metrics": {
      const measured = await refreshKeywordMetrics(env, w, message.keyword_ids);
      return { outcome: "ack", note: `keyword metrics measured: ${measured}` };
    }
  }
}

/** One batch of a re-match: posts first, then comments; the next batch is queued. */
async function rematchStep(env: Env, message: MonitorRematchMessage): Promise<Verdict> {
  const w = workspaceDb(env, message.workspace_id);
  const base = { type: "monitor.rematch" as const, workspace_id: message.workspace_id };
  if (message.after_comment_id === undefined) {
    const { next, changed } = await rematchBatch(w, message.after_post_id);
    await env.MONITOR_QUEUE.send(
      next !== null ? { ...base, after_post_id: next } : { ...base, after_post_id: 0, after_comment_id: 0 },
    );
    return { outcome: "ack", note: `re-matched posts after ${message.after_post_id}: ${changed} changed` };
  }
  const { next, changed } = await rematchCommentsBatch(w, message.after_comment_id);
  if (next !== null) await env.MONITOR_QUEUE.send({ ...base, after_post_id: 0, after_comment_id: next });
  return { outcome: "ack", note: `re-matched comments after ${message.after_comment_id}: ${changed} changed` };
}

/** A monitoring message given up on is only logged: the next pass, change or weekly run does the work again. */
export function consumeMonitorDeadLetter(message: MonitorMessage, attempts: number): Verdict {
  return { outcome: "ack", note: `${message.type} dead-lettered after ${attempts} deliveries; the next run redoes it` };
}
