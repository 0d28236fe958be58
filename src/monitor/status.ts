// GET /actions/monitoring: whether monitoring is on, the workspace's last pass, and the shared quota.
import type { WorkspaceDb } from "../db/client";
import { lastMonitorRun } from "../db/monitor";
import type { Env } from "../env";
import { forumApiConfig, quotaStatus } from "../forum/app-client";

export async function monitoringStatus(env: Env, w: WorkspaceDb) {
  const config = forumApiConfig(env);
  const [lastRun, quota] = await Promise.all([lastMonitorRun(w), config ? quotaStatus(env, config) : null]);
  return { enabled: config !== null, last_run: lastRun, quota };
}
