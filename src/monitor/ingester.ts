// The forum ingester's handle for the rest of the Worker (docs/monitoring.md, "The ingester"): start it, read
// its status. One ingester per forum API client id, as the quota.
import type { Env } from "../env";
import { type ForumApiConfig, forumApiConfig } from "../forum/app-client";
import { log, messageOf } from "../lib/log";

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

/** What GET /actions/monitoring shows of the ingester: its walks and the client's requests of the last minute. */
export async function ingestStatus(env: Env, config: ForumApiConfig, now = Date.now()) {
  const quota = env.FORUM_QUOTA.get(env.FORUM_QUOTA.idFromName(config.clientId));
  const [walks, requests] = await Promise.all([ingesterOf(env, config).status(now), quota.lastMinute(now)]);
  return { posts: walks.posts, comments: walks.comments, requests_last_minute: requests };
}
