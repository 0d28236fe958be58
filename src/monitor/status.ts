// GET /actions/monitoring: whether monitoring is on, the workspace's last backfill, the shared quota and the
// ingester's walks.
import type { WorkspaceDb } from "../db/client";
import { lastMonitorRun } from "../db/monitor";
import type { Env } from "../env";
import { type ForumApiConfig, forumApiConfig, quotaStatus } from "../forum/app-client";
import { ingestStatus } from "./ingester";

export async function monitoringStatus(env: Env, w: WorkspaceDb, config: ForumApiConfig | null = forumApiConfig(env)) {
  const [lastRun, quota, ingest] = await Promise.all([
    lastMonitorRun(w),
    config ? quotaStatus(env, config) : null,
    config ? ingestStatus(env, config) : null,
  ]);
  return { enabled: config !== null, last_run: lastRun, quota, ingest };
}
