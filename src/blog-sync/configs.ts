// Creating and updating sync configs (upsert rules: docs/blog-sync.md, "The config"). A change is written to D1 first and then told
// to the workspace coordinator, so a run that is active for the config aborts before its next write.
import {
  type ConfigSettings,
  configView,
  deleteConfigUnlessQueued,
  findConfigByTarget,
  getConfigRow,
  insertConfig,
  type SyncConfigRow,
  type SyncConfigView,
  serializeConfig,
  updateConfig,
} from "../db/blog-sync-configs";
import type { WorkspaceDb } from "../db/client";
import { getPersonaRow } from "../db/personas";
import { coordinatorFor } from "../durable/workspace-coordinator";
import type { Env } from "../env";
import { notFound as domainNotFound, invalidInput, invalidState, notFound } from "../lib/domain-errors";
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
  flair_id?: string | null;
  source_link?: boolean;
}

/** Defaults of a new config: active for the daily run, but nothing is queued for publishing unless asked. */
const DEFAULTS = {
  personaId: null as number | null,
  includeMedia: false,
  active: true,
  publishImmediately: false,
  maxPosts: 5,
  flairId: null as string | null,
  sourceLink: true,
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
  const flairId = input.flair_id !== undefined ? input.flair_id : current.flairId;
  const sourceLink = input.source_link ?? current.sourceLink;
  return { ...fields, flairId, sourceLink, fingerprint: await configFingerprint(fields) };
}

async function announce(env: Env, w: WorkspaceDb, row: SyncConfigRow): Promise<void> {
  await coordinatorFor(env, w.workspaceId).configChanged({
    workspaceId: w.workspaceId,
    configId: row.id,
    revision: row.revision,
    fingerprint: row.fingerprint,
  });
}

/** How often an update is worked out again when other updates of the config keep coming first. */
const UPDATE_ATTEMPTS = 10;

/**
 * Applies `input` to the config as stored: the settings are worked out from the row read and written only if
 * no other update came in between, else worked out again from the newer row, so concurrent updates of
 * different fields each keep the other's change (a partial update replaces the whole row).
 */
async function update(
  env: Env,
  w: WorkspaceDb,
  base: SyncConfigRow,
  input: ConfigInput,
  blogUrl: string | undefined,
): Promise<SyncConfigView> {
  let current = base;
  for (let attempt = 1; ; attempt++) {
    const row = await updateConfig(w, current.id, current.revision, await settingsFor(input, current, blogUrl));
    if (row) {
      await announce(env, w, row);
      return configView(w, row);
    }
    const newer = await getConfigRow(w, current.id);
    if (!newer) throw notFound("sync config");
    if (attempt >= UPDATE_ATTEMPTS)
      throw invalidState(`sync config ${current.id} is being changed by other requests; retry the update`);
    current = newer;
  }
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
  // persona_id is a reference (migration 0020): a persona of this workspace.
  if (typeof input.persona_id === "number" && !(await getPersonaRow(w, input.persona_id)))
    throw invalidInput([{ path: "body.persona_id", message: "no persona with this id in the workspace" }]);
  if (input.id !== undefined) {
    const base = await getConfigRow(w, input.id);
    if (!base) throw notFound("sync config");
    return { config: await update(env, w, base, input, blogUrl), created: false };
  }
  // Without an id, the schema guarantees blog_url and subreddit.
  const subreddit = normalizeSubreddit(input.subreddit!);
  const existing = await findConfigByTarget(w, blogUrl!, subreddit);
  if (existing) return { config: await update(env, w, existing, input, blogUrl), created: false };
  const settings = await settingsFor(input, undefined, blogUrl);
  const row = await insertConfig(w, settings);
  if (row) return { config: serializeConfig(row), created: true };
  // Lost a race with a concurrent create of the same target: that one exists now; update it.
  const winner = await findConfigByTarget(w, blogUrl!, subreddit);
  if (!winner) throw new Error("sync config insert conflicted, but no config with that target exists");
  return { config: await update(env, w, winner, input, blogUrl), created: false };
}

/**
 * Deletes a config with its drafts, failed posts, published-post records and run history. Refused
 * (`invalid_state`) while a run of it is active or one of its posts is queued for publishing. The workspace
 * coordinator is told first, so no run can start on it meanwhile; if the deletion is then refused, runs are
 * allowed again.
 */
export async function deleteConfig(env: Env, w: WorkspaceDb, id: number): Promise<void> {
  if (!(await getConfigRow(w, id))) throw domainNotFound("sync config");
  const coordinator = coordinatorFor(env, w.workspaceId);
  if (!(await coordinator.retireConfig(id)))
    throw invalidState(`a run of sync config ${id} is active; delete it after the run has finished`);
  const outcome = await deleteConfigUnlessQueued(w, id);
  if (outcome === "deleted") return;
  await coordinator.restoreConfig(id);
  if (outcome === "not_found") throw domainNotFound("sync config");
  throw invalidState(
    `sync config ${id} has posts queued for publishing; wait until they are published, or put them back to draft by editing them, then delete it`,
  );
}
