// The console's two doors to publishing: a post's publish preflight report and its approval. Both are the
// publishing service's (src/publishing/preflight.ts and src/publishing/approval.ts), the same functions
// the REST routes call, under the same key scope as those routes (read_write); the console adds only how a
// refusal reads on the page.
import { type AuthContext, hasScope } from "../auth/keys";
import type { WorkspaceDb } from "../db/client";
import type { Env } from "../env";
import { isDomainError } from "../lib/domain-errors";
import { type ApprovalResult, approveReviewedPost, approverOf } from "../publishing/approval";
import { publishPreflight } from "../publishing/preflight";

export interface PreflightCheck {
  name: string;
  ok: boolean;
  reason: string | null;
}

/**
 * The publish preflight of one synced post, or why there is none now: the session's key is a read key (the
 * API's scope rule for POST .../publish-preflight: it signs in to the forum as the persona in the workspace's
 * browser, which a read key may not make happen), or the workspace's browser is busy with another operation
 * (the page says to reload later) rather than the page waiting on it.
 */
export async function preflightFor(
  env: Env,
  auth: AuthContext,
  w: WorkspaceDb,
  configId: number,
  syncedPostId: number,
): Promise<{ available: false; reason: string } | { available: true; ok: boolean; checks: PreflightCheck[] }> {
  if (!hasScope(auth, "read_write"))
    return {
      available: false,
      reason:
        "The publish preflight signs in to the forum as the persona, which needs a read_write key; this session is read-only.",
    };
  try {
    const report = await publishPreflight(env, w, configId, syncedPostId);
    return { available: true, ok: report.ok, checks: report.checks };
  } catch (err) {
    if (isDomainError(err, "browser_busy"))
      return { available: false, reason: `${err.message}. Reload the page in a minute to run the preflight.` };
    throw err;
  }
}

/**
 * Approves one synced post for publishing: the approval of POST .../items/:item_id/approve, refused by the
 * service while a gate (docs/publishing.md, "Gates") is closed (a forged POST past a disabled button included).
 * The approver is the session's person, or its API key (as for the API), and the audit event's actor.
 */
export async function approveForPublishing(
  env: Env,
  auth: AuthContext,
  w: WorkspaceDb,
  configId: number,
  syncedPostId: number,
): Promise<ApprovalResult> {
  return approveReviewedPost(env, w, configId, syncedPostId, await approverOf(env, auth));
}
