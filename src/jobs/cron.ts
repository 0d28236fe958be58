import { deleteExpiredKeys } from "../db/api-keys";
import { directoryDb } from "../db/client";
import { pruneAlertHistory } from "../db/webhooks";
import type { Env } from "../env";
import { log } from "../lib/log";
import { ensureIngester } from "../monitor/ingester";
import { enqueueDailySyncs } from "./daily-sync";
import { enqueueStaleKeywordMetrics } from "./monitor-fanout";

export const CRON_DAILY_SYNC = "0 6 * * *";
export const CRON_HOURLY_MAINTENANCE = "0 * * * *";
export const CRON_MONITOR = "*/10 * * * *";
export const CRON_WEEKLY_METRICS = "30 3 * * 1";

/** Webhook deliveries and their attempts older than this are deleted by the daily cron. */
export const ALERT_RETENTION_MS = 30 * 24 * 3_600_000;

/** Cron handlers only fan out or do small housekeeping; queue consumers do the heavy work. */
export async function runScheduled(cron: string, env: Env, scheduledTime = Date.now()): Promise<void> {
  switch (cron) {
    case CRON_HOURLY_MAINTENANCE: {
      const deleted = await deleteExpiredKeys(directoryDb(env));
      log("info", "expired temporary keys deleted", { deleted });
      return;
    }
    case CRON_DAILY_SYNC: {
      const queued = await enqueueDailySyncs(env, scheduledTime);
      log("info", "daily blog syncs queued", { queued });
      // Alert history is kept 30 days (docs/alerts.md, "Retention").
      const pruned = await pruneAlertHistory(
        directoryDb(env),
        new Date(scheduledTime - ALERT_RETENTION_MS).toISOString(),
      );
      log("info", "alert history pruned", pruned);
      return;
    }
    case CRON_MONITOR: {
      await ensureIngester(env);
      return;
    }
    case CRON_WEEKLY_METRICS: {
      const queued = await enqueueStaleKeywordMetrics(env, scheduledTime);
      log("info", "keyword metrics refreshes queued", { queued });
      return;
    }
    default:
      log("warn", "unknown cron", { cron });
  }
}
