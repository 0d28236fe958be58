// Publishing one approved, queued synced post (docs/publishing.md, "Gates"). Every gate is checked before
// the browser slot is asked for and again inside the workspace's browser turn (so no other browser job runs
// while it submits); the forum calls themselves go from the Worker with the persona's bearer token. A post is submitted at most once: the moment of a submission is written before it is
// sent, and a later attempt that finds it looks for the post in the account's submitted list first.

import { getConfigRow, type SyncConfigRow } from "../db/blog-sync-configs";
import { getSyncedPost, type SyncedPostRow, transitionSyncedPost } from "../db/blog-sync-posts";
import type { WorkspaceDb } from "../db/client";
import { type PersonaRow, updatePersona } from "../db/personas";
import { failQueuedPost, markPublished, markSubmitAttempt, noteQueuedError } from "../db/publishing";
import type { Env } from "../env";
import { isForumError } from "../forum/errors";
import { ForumClient, type SubmittedPost } from "../forum/persona-client";
import { isDomainError } from "../lib/domain-errors";
import { SYSTEM_ACTOR } from "../lib/role";
import { forumBase, inBrowserTurn } from "../personas/browser-operation";
import { checkDestination, choosePersona } from "./destination";
import { uploadPostImages } from "./media-upload";
import { buildSubmission, forumLimitChecks, requirementChecks, uploadableImages } from "./submission";
import { scheduleVisibilityChecks } from "./visibility";

export type PublishOutcome =
  | { kind: "done"; note: string }
  /** Send the task again after `delaySeconds` (a rate limit, a busy browser); the post stays queued. */
  | { kind: "reschedule"; note: string; delaySeconds: number }
  /** Retry with backoff (the forum did not answer: the submitted list decides next time). */
  | { kind: "retry"; note: string };

const done = (note: string): PublishOutcome => ({ kind: "done", note });

/** The first closed gate of docs/publishing.md, "Gates" (the fingerprint gate is the consumer's), or null. */
export function closedGate(
  post: SyncedPostRow,
  config: SyncConfigRow,
  persona: { persona: PersonaRow | null; ready?: boolean; reason: string | null },
): string | null {
  if (!post.approvedAt) return "the post is not approved (POST .../items/:item_id/approve)";
  if (!config.active) return "the config is not active";
  if (!config.publishImmediately) return "the config's publish_immediately is off";
  if (!persona.persona) return persona.reason;
  if (!persona.persona.approved) return `persona u/${persona.persona.username} is not approved for the customer`;
  if (!persona.ready) return persona.reason;
  return null;
}

const gateError = (gate: string) => `not published: gate closed: ${gate}`;

/** The earlier submission of this post in the account's submitted list (same subreddit and title). */
function findEarlier(list: SubmittedPost[], sr: string, title: string): SubmittedPost | undefined {
  return list.find((p) => p.subreddit.toLowerCase() === sr.toLowerCase() && p.title === title);
}

/** The forum's permalink as a path (`/r/.../comments/...`), whatever base URL the forum answered with. */
function permalinkOf(env: Env, url: string | null, fallback: string): string {
  if (!url) return fallback;
  try {
    const path = new URL(url).pathname;
    const prefix = new URL(forumBase(env)).pathname.replace(/\/$/, "");
    return prefix && path.startsWith(prefix) ? path.slice(prefix.length) : path;
  } catch {
    return fallback;
  }
}

/**
 * Publishes a queued post whose task carries `fingerprint`, the config's fingerprint when it was queued. When
 * the config's is another (the destination changed before publishing: docs/blog-sync.md, "States"), the post
 * goes back to `draft` and nothing is submitted; asked before the wait for the browser and again inside the
 * turn.
 */
export async function publishQueuedPost(
  env: Env,
  w: WorkspaceDb,
  postId: number,
  fingerprint: string,
  options: { waitMs?: number } = {},
): Promise<PublishOutcome> {
  // Gates before waiting for the browser: a closed one costs no browser turn.
  const before = await gatesOf(w, postId, fingerprint);
  if ("outcome" in before) return before.outcome;
  try {
    return await inBrowserTurn(
      env,
      w.workspaceId,
      `publishing post ${postId}`,
      () => publishInTurn(env, w, postId, fingerprint),
      options,
    );
  } catch (err) {
    if (isDomainError(err, "browser_busy")) {
      const delaySeconds = err.retryAfterSeconds ?? 60;
      return { kind: "reschedule", note: `browser busy: ${err.message}`, delaySeconds };
    }
    throw err;
  }
}

async function gatesOf(
  w: WorkspaceDb,
  postId: number,
  fingerprint: string,
): Promise<{ outcome: PublishOutcome } | { post: SyncedPostRow; config: SyncConfigRow; persona: PersonaRow }> {
  const post = await getSyncedPost(w, postId);
  if (!post) return { outcome: done("synced post no longer exists") };
  if (post.state !== "queued") return { outcome: done(`post is ${post.state}, not queued: nothing to do`) };
  const config = await getConfigRow(w, post.configId);
  if (!config) return { outcome: done("config no longer exists") };
  if (config.fingerprint !== fingerprint) {
    const moved = await transitionSyncedPost(w, post.id, "queued", "draft");
    return {
      outcome: done(
        moved
          ? "config changed since the post was queued: back to draft, task skipped"
          : "post left the queue meanwhile",
      ),
    };
  }
  const choice = await choosePersona(w, config);
  const gate = closedGate(post, config, choice);
  if (gate || !choice.persona) {
    await noteQueuedError(w, post.id, gateError(gate ?? "no persona"));
    return { outcome: done(`gate closed: ${gate}`) };
  }
  return { post, config, persona: choice.persona };
}

async function publishInTurn(env: Env, w: WorkspaceDb, postId: number, fingerprint: string): Promise<PublishOutcome> {
  // Re-read inside the turn: a duplicate delivery that waited for this turn finds the post published, and a
  // config changed while the task waited sends the post back to draft.
  const state = await gatesOf(w, postId, fingerprint);
  if ("outcome" in state) return state.outcome;
  const { post, config, persona } = state;
  try {
    return await submitOnce(env, w, new ForumClient(env, w, persona), post, config, persona);
  } catch (err) {
    if (isForumError(err, "unreachable") || isForumError(err, "uncertain")) return { kind: "retry", note: err.message };
    if (isForumError(err, "quota")) {
      const delaySeconds = err.options.retryAfterSeconds ?? 60;
      await noteQueuedError(w, post.id, `the forum API quota is used up; retrying in ${delaySeconds} s`);
      return { kind: "reschedule", note: err.message, delaySeconds };
    }
    if (isForumError(err) || (err as Error)?.name === "SessionKeyError") {
      await noteQueuedError(w, post.id, gateError((err as Error).message));
      return done(`not published: ${(err as Error).message}`);
    }
    throw err;
  }
}

/** The forum's asset id of each image uploaded for a rich-text post with media (image URL → asset id). */
async function uploadedAssets(
  env: Env,
  forum: ForumClient,
  config: SyncConfigRow,
  post: SyncedPostRow,
): Promise<Record<string, string>> {
  if (!(config.includeMedia && uploadableImages(post).length > 0 && post.bodyRichtext)) return {};
  const uploaded = await uploadPostImages(env, forum, { ...post, images: uploadableImages(post) });
  return Object.fromEntries(
    uploaded.flatMap((m) =>
      m.ok && m.asset_id ? [[post.images.find((i) => i.url === m.url)?.url ?? m.url, m.asset_id]] : [],
    ),
  );
}

/**
 * Records the post as published, with its `synced_post.submitted` event (by the service, naming the approver,
 * the persona and the destination), and schedules its visibility checks (docs/publishing.md, "Visibility").
 */
async function published(
  env: Env,
  w: WorkspaceDb,
  post: SyncedPostRow,
  config: SyncConfigRow,
  at: { forumPostId: string; permalink: string },
  persona: PersonaRow,
): Promise<void> {
  const publishedAt = await markPublished(
    w,
    post.id,
    { ...at, publishedPersonaId: persona.id },
    {
      actor: SYSTEM_ACTOR,
      action: "synced_post.submitted",
      target: { type: "synced_post", id: post.id },
      details: {
        sync_config_id: config.id,
        subreddit: config.subreddit,
        approved_by: post.approvedBy ?? null,
        persona: { id: persona.id, username: persona.username },
        forum_post_id: at.forumPostId,
        permalink: at.permalink,
      },
    },
  );
  if (publishedAt) await scheduleVisibilityChecks(env, w, post.id, publishedAt);
}

async function submitOnce(
  env: Env,
  w: WorkspaceDb,
  forum: ForumClient,
  post: SyncedPostRow,
  config: SyncConfigRow,
  persona: PersonaRow,
): Promise<PublishOutcome> {
  const destination = await checkDestination(forum, persona, config);
  if (!destination.sessionOk) {
    const reason = destination.checks.find((c) => !c.ok)?.reason ?? "the grant is not the persona's";
    await updatePersona(w, persona.id, { authCompleted: false, lastError: reason });
    await noteQueuedError(w, post.id, gateError(`persona u/${persona.username}: ${reason}`));
    return done(`identity check failed: ${reason}`);
  }
  const draft = buildSubmission(config, post);

  // An earlier attempt may have reached the forum (a crash, a lost answer): look before posting again.
  if (post.submitAttemptedAt) {
    const earlier = findEarlier(await forum.submitted(persona.username, 100), draft.sr, draft.title);
    if (earlier) {
      await published(env, w, post, config, { forumPostId: earlier.id, permalink: earlier.permalink }, persona);
      return done(`found the earlier submission ${earlier.id} in the submitted list: recorded, not posted again`);
    }
  }

  const closed = destination.checks.find((c) => !c.ok && c.name !== "flair");
  if (closed) {
    await noteQueuedError(w, post.id, gateError(`destination r/${config.subreddit}: ${closed.reason}`));
    return done(`destination check ${closed.name} failed`);
  }

  const submission = buildSubmission(
    config,
    post,
    await uploadedAssets(env, forum, config, post),
    destination.requirements,
  );
  const rules = [
    ...forumLimitChecks(submission),
    ...(destination.requirements ? requirementChecks(submission, destination.requirements) : []),
    ...destination.checks.filter((c) => c.name === "flair"),
  ].filter((c) => !c.ok);
  if (rules.length > 0) {
    const reason = rules.map((c) => `${c.name}: ${c.reason}`).join("; ");
    await failQueuedPost(w, post.id, `the subreddit's rules refuse this post: ${reason}`);
    return done(`refused by the rules: ${reason}`);
  }

  if (!(await markSubmitAttempt(w, post.id, new Date().toISOString()))) return done("post left the queue meanwhile");
  try {
    const created = await forum.submit(submission);
    const permalink = permalinkOf(env, created.url, `/r/${config.subreddit}/comments/${created.id}/`);
    await published(env, w, post, config, { forumPostId: created.id, permalink }, persona);
    return done(`published as ${created.id}`);
  } catch (err) {
    if (isForumError(err, "ratelimit")) {
      const delaySeconds = err.options.retryAfterSeconds ?? 60;
      await markSubmitAttempt(w, post.id, null);
      const at = new Date(Date.now() + delaySeconds * 1000).toISOString();
      await noteQueuedError(w, post.id, `rate limited by the forum; retrying at ${at}`);
      return { kind: "reschedule", note: `RATELIMIT: retrying in ${delaySeconds} s`, delaySeconds };
    }
    if (isForumError(err, "refused")) {
      await failQueuedPost(w, post.id, err.message);
      return done(`refused: ${err.message}`);
    }
    if (isForumError(err, "grant")) {
      // The forum refused the token before it took the post: nothing was submitted.
      await markSubmitAttempt(w, post.id, null);
      await updatePersona(w, persona.id, { authCompleted: false, lastError: err.message });
      await noteQueuedError(w, post.id, gateError(`persona u/${persona.username}: ${err.message}`));
      return done(`grant refused: ${err.message}`);
    }
    // Uncertain: the marker stays; the next attempt checks the submitted list before posting.
    throw err;
  }
}
