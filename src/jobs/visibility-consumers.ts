// A visibility check of a published post (docs/publishing.md, "Visibility"), from the publish queue. Safe
// under repeated delivery: a check already done (the post's visibility_checks_done counts it) does nothing; a message early for its moment is sent on; a check whose forum or browser could not
// be reached is retried with backoff, and one given up on still schedules the next.

import type { VisibilityCheckMessage } from "../contracts/queue-messages";
import { workspaceDb } from "../db/client";
import type { Env } from "../env";
import { isDomainError } from "../lib/domain-errors";
import { publishedPost, scheduleNextCheck, sendCheck, storeFinding } from "../publishing/visibility";
import { checkVisibility, isUnreachable } from "../publishing/visibility-read";
import type { Verdict } from "./blog-sync-consumers";

/** A message this early for its moment is sent on (the queue's own delays are not to the second). */
const EARLY_MS = 2_000;

export async function consumeVisibilityCheck(message: VisibilityCheckMessage, env: Env): Promise<Verdict> {
  const due = Date.parse(message.due_at);
  if (due - Date.now() > EARLY_MS) {
    await sendCheck(env, message);
    return { outcome: "ack", note: `visibility check ${message.check} not due until ${message.due_at}: sent on` };
  }
  const w = workspaceDb(env, message.workspace_id);
  const target = await publishedPost(w, message.synced_post_id);
  if ("skip" in target) return { outcome: "ack", note: target.skip };
  const { post, publishedAt } = target;
  const done = () => ({ outcome: "ack" as const, note: `visibility check ${message.check} already done` });
  if (post.visibilityChecksDone > message.check) return done();
  let finding: Awaited<ReturnType<typeof checkVisibility>>;
  try {
    finding = await checkVisibility(env, w, post);
  } catch (err) {
    if (isDomainError(err, "browser_busy"))
      return { outcome: "retry", note: `browser busy: ${err.message}`, delaySeconds: err.retryAfterSeconds ?? 60 };
    if (isUnreachable(err)) return { outcome: "retry", note: `visibility not read: ${(err as Error).message}` };
    throw err;
  }
  const alerts = await storeFinding(env, w, post.id, finding, message.check);
  // Another delivery of this check stored its finding meanwhile, and schedules the next.
  if (alerts === null) return done();
  const more = await scheduleNextCheck(env, message, publishedAt);
  return {
    outcome: "ack",
    note: `visibility ${finding.visibility}${alerts > 0 ? `; ${alerts} alert deliveries queued` : ""}${more ? "; next check scheduled" : ""}`,
  };
}

/** A check given up on after every retry: the post keeps what it had, and the next check still comes. */
export async function consumeVisibilityDeadLetter(message: VisibilityCheckMessage, env: Env): Promise<Verdict> {
  const target = await publishedPost(workspaceDb(env, message.workspace_id), message.synced_post_id);
  const more = "skip" in target ? false : await scheduleNextCheck(env, message, target.publishedAt);
  return {
    outcome: "ack",
    note: `visibility check ${message.check} dead-lettered${more ? "; next check scheduled" : ""}`,
  };
}
