// Publish preflight (docs/publishing.md, "Publish preflight"): every check a submission of one synced post would make,
// and the exact form it would send, without submitting and without uploading. Also what the console's review page
// shows.
import { getConfigRow } from "../db/blog-sync-configs";
import { getSyncedPost } from "../db/blog-sync-posts";
import type { WorkspaceDb } from "../db/client";
import type { Env } from "../env";
import { isForumError } from "../forum/errors";
import type { Submission } from "../forum/persona-client";
import { ForumClient } from "../forum/persona-client";
import { notFound } from "../lib/domain-errors";
import { inBrowserTurn, unreachableError } from "../personas/browser-operation";
import { reasonOf } from "../personas/personas";
import { checkDestination, choosePersona, visibleCheck } from "./destination";
import { buildSubmission, type Check, forumLimitChecks, requirementChecks, sourceLinkCheck } from "./submission";

export interface PublishPreflightResult {
  ok: boolean;
  checks: Check[];
  submission: Submission;
}

export async function publishPreflight(
  env: Env,
  w: WorkspaceDb,
  configId: number,
  syncedPostId: number,
): Promise<PublishPreflightResult> {
  const config = await getConfigRow(w, configId);
  if (!config) throw notFound("sync config");
  const post = await getSyncedPost(w, syncedPostId);
  if (!post || post.configId !== config.id) throw notFound("synced post");
  // Media are uploaded only when the post is published; here images keep their links (asset ids unknown).
  let submission = buildSubmission(config, post);
  const checks: Check[] = [
    post.state === "draft" || post.state === "queued"
      ? { name: "state", ok: true, reason: null }
      : { name: "state", ok: false, reason: `the post is ${post.state}; only drafts and queued posts are published` },
    ...forumLimitChecks(submission),
  ];
  const choice = await choosePersona(w, config);
  if (!choice.persona || !choice.ready) {
    checks.push({ name: "persona", ok: false, reason: choice.reason });
    return { ok: false, checks, submission };
  }
  const persona = choice.persona;
  checks.push({ name: "persona", ok: true, reason: null });
  await inBrowserTurn(env, w.workspaceId, `publish preflight of post ${post.id}`, async (browser) => {
    try {
      checks.push(await visibleCheck(env, browser, persona));
      const destination = await checkDestination(new ForumClient(env, w, persona), persona, config);
      checks.push(...destination.checks);
      if (!destination.requirements) return;
      // What would be sent once the destination's rules are known: without a source line they forbid.
      submission = buildSubmission(config, post, {}, destination.requirements);
      const sourceLine = sourceLinkCheck(config, post.sourceUrl, destination.requirements);
      if (sourceLine) checks.push(sourceLine);
      checks.push(...requirementChecks(submission, destination.requirements));
    } catch (err) {
      const outside = unreachableError(err);
      if (outside || !isForumError(err)) throw outside ?? err;
      checks.push({ name: "identity", ok: false, reason: reasonOf(err) });
    }
  });
  return { ok: checks.every((c) => c.ok), checks, submission };
}
