// Creating and updating sync configs (upsert rules: docs/blog-sync.md, "The config"). A change is written to D1 first and then told
// to the workspace coordinator, so a run that is active for the config aborts before its next write.
import {
  type ConfigSettings,
  configView,
  findConfigByTarget,
  getConfigRow,
  insertConfig,
  type SyncConfigRow,
  type SyncConfigView,
  serializeConfig,
  updateConfig,
} from "../db/blog-sync-configs";
import type { WorkspaceDb } from "../db/client";
import { coordinatorFor } from "../durable/workspace-coordinator";
import type { Env } from "../env";
import { notFound } from "../lib/domain-errors";
import { allowPrivateFetch, checkBlogUrl, configFingerprint, normalizeSubreddit } from "./config-rules";

/** The body of POST /actions/blog-subreddit-syncs (already schema-checked). */
export interface ConfigInput {
  id?: number;
  blog_url?: string;
  subreddit?: string;
  persona_id?: number | null;
  include_media?: boolean;
  active?: boolean;
  publish_immediately?: boolean;
  max_posts?: number;
}

/** Defaults of a new config: active for the daily run, but nothing is queued for publishing unless asked. */
const DEFAULTS = {
  personaId: null as number | null,
  includeMedia: false,
  active: true,
  publishImmediately: false,
  maxPosts: 5,
};

async function settingsFor(
  input: ConfigInput,
  base: SyncConfigRow | undefined,
  blogUrl: string | undefined,
): Promise<ConfigSettings> {
  // Without a base, the schema guarantees blog_url and subreddit.
  const current = base ?? { ...DEFAULTS, blogUrl: blogUrl!, subreddit: input.subreddit! };
  const fields = {
    blogUrl: blogUrl ?? current.blogUrl,
    subreddit: normalizeSubreddit(input.subreddit ?? current.subreddit),
    personaId: input.persona_id !== undefined ? input.persona_id : current.personaId,
    includeMedia: input.include_media ?? current.includeMedia,
    active: input.active ?? current.active,
    publishImmediately: input.publish_immediately ?? current.publishImmediately,
    maxPosts: input.max_posts ?? current.maxPosts,
  };
  return { ...fields, fingerprint: await configFingerprint(fields) };
}

async function announce(env: Env, w: WorkspaceDb, row: SyncConfigRow): Promise<void> {
  await coordinatorFor(env, w.workspaceId).configChanged({
    workspaceId: w.workspaceId,
    configId: row.id,
    revision: row.revision,
    fingerprint: row.fingerprint,
  });
}

async function update(env: Env, w: WorkspaceDb, id: number, settings: ConfigSettings): Promise<SyncConfigView> {
  const row = await updateConfig(w, id, settings);
  if (!row) throw notFound("sync config");
  await announce(env, w, row);
  return configView(w, row);
}

/**
 * With `id`: updates that config. Otherwise updates the workspace's config with the same normalized
 * blog URL and subreddit, or creates one. Fields not given keep their stored values (or the defaults).
 */
export async function saveConfig(
  env: Env,
  w: WorkspaceDb,
  input: ConfigInput,
): Promise<{ config: SyncConfigView; created: boolean }> {
  const blogUrl = input.blog_url !== undefined ? checkBlogUrl(input.blog_url, allowPrivateFetch(env)) : undefined;
  if (input.id !== undefined) {
    const base = await getConfigRow(w, input.id);
    if (!base) throw notFound("sync config");
    return { config: await update(env, w, base.id, await settingsFor(input, base, blogUrl)), created: false };
  }
  // Without an id, the schema guarantees blog_url and subreddit.
  const subreddit = normalizeSubreddit(input.subreddit!);
  const existing = await findConfigByTarget(w, blogUrl!, subreddit);
  if (existing)
    return { config: await update(env, w, existing.id, await settingsFor(input, existing, blogUrl)), created: false };
  const settings = await settingsFor(input, undefined, blogUrl);
  const row = await insertConfig(w, settings);
  if (row) return { config: serializeConfig(row), created: true };
  // Lost a race with a concurrent create of the same target: that one exists now; update it.
  const winner = await findConfigByTarget(w, blogUrl!, subreddit);
  if (!winner) throw new Error("sync config insert conflicted, but no config with that target exists");
  return { config: await update(env, w, winner.id, await settingsFor(input, winner, blogUrl)), created: false };
}
