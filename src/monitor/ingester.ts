// The forum ingester's handle for the rest of the Worker (docs/monitoring.md, "The ingester"): start it, read
// its status. One ingester per forum API client id, as the quota.
import type { Env } from "../env";
import { type ForumApiConfig, forumApiConfig } from "../forum/app-client";
import { log, messageOf } from "../lib/log";
import type { ItemKind } from "./forum-ids";

/** A stored item due for its next re-read, and which workspaces store it. */
export interface RefreshEntry {
  kind: ItemKind;
  id: string;
  createdMs: number;
  stage: number;
  workspaces: number[];
}

export const ingesterOf = (env: Env, config: ForumApiConfig) =>
  env.FORUM_INGESTER.get(env.FORUM_INGESTER.idFromName(config.clientId));

/**
 * Makes sure the ingester runs (a term changed, POST /actions/monitoring/run, the 10-minute cron). A failure
 * is logged, not raised: the term is saved, and the next of these starts it.
 */
export async function ensureIngester(env: Env): Promise<void> {
  const config = forumApiConfig(env);
  if (!config) return;
  try {
    await ingesterOf(env, config).ensureRunning();
  } catch (err) {
    log("error", "could not start the forum ingester", { error: messageOf(err) });
  }
}

/**
 * Enters posts a backfill stored in the ingester's refresh schedule, so they are re-read at 1, 6, 24 and 72
 * hours as the walk's are. A failure is logged: the posts stay stored, only their refreshes are missed.
 */
export async function scheduleRefresh(env: Env, config: ForumApiConfig, entries: RefreshEntry[], now: number) {
  try {
    await ingesterOf(env, config).stored(entries, now);
  } catch (err) {
    log("warn", "backfilled posts not scheduled for refresh", { posts: entries.length, error: messageOf(err) });
  }
}

/** What GET /actions/monitoring shows of the ingester: its walks and the client's requests of the last minute. */
export async function ingestStatus(env: Env, config: ForumApiConfig, now = Date.now()) {
  const quota = env.FORUM_QUOTA.get(env.FORUM_QUOTA.idFromName(config.clientId));
  const [walks, requests] = await Promise.all([ingesterOf(env, config).status(now), quota.lastMinute(now)]);
  return { posts: walks.posts, comments: walks.comments, requests_last_minute: requests };
}
