// Monitoring's queue messages: a backfill of new terms, a batch of re-matching, a batch of keyword metrics. Each
// is safe under repeated delivery (a backfill searches only terms not searched yet; the others rewrite the same
// rows).

import type { MonitorMessage, MonitorRematchMessage, QueueMessage } from "../contracts/queue-messages";
import { workspaceDb } from "../db/client";
import type { Env } from "../env";
import { isDomainError } from "../lib/domain-errors";
import { refreshKeywordMetrics } from "../monitor/keyword-metrics";
import { hasNewTerms, monitoringEnabled, runMonitorPass } from "../monitor/pass";
import { rematchBatch, rematchCommentsBatch } from "../monitor/rematch";
import type { Verdict } from "./blog-sync-consumers";

/** A backfill that meets a running one is delivered again this much later. */
const BUSY_RETRY_SECONDS = 30;

export const isMonitorMessage = (m: QueueMessage): m is MonitorMessage => m.type.startsWith("monitor.");

export async function consumeMonitorMessage(message: MonitorMessage, env: Env): Promise<Verdict> {
  const w = workspaceDb(env, message.workspace_id);
  switch (message.type) {
    case "monitor.pass": {
      if (!monitoringEnabled(env)) return { outcome: "ack", note: "monitoring is off (no REDDIT_CLIENT_ID)" };
      if (!(await hasNewTerms(w))) return { outcome: "ack", note: "no term left to backfill" };
      try {
        const run = await runMonitorPass(env, w, { trigger: "schedule", onlyNew: true });
        return { outcome: "ack", note: `backfill ${run.status}: ${run.created} created, ${run.updated} updated` };
      } catch (err) {
        // A backfill of the workspace is running with the terms it read when it started: this one comes after it.
        if (isDomainError(err, "run_in_progress"))
          return { outcome: "retry", note: "a backfill of the workspace is running", delaySeconds: BUSY_RETRY_SECONDS };
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
