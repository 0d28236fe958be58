// Approval (docs/publishing.md, "Approval"): the explicit human approval of one synced post. Called by the
// REST route and by the web console's Approve button; never a tool (a person approves, not an agent).

import type { PublishPostMessage } from "../contracts/queue-messages";
import { getConfigRow } from "../db/blog-sync-configs";
import { getSyncedPost, type SyncedPostView, serializeSyncedPost } from "../db/blog-sync-posts";
import type { WorkspaceDb } from "../db/client";
import { approvePost } from "../db/publishing";
import type { Env } from "../env";
import { DomainError, invalidState, notFound } from "../lib/domain-errors";
import { approvalGates } from "./gates";

/**
 * Approves a draft or queued post (published or failed: invalid_state). Approving again is a no-op for
 * approved_at; a queued post gets its publish task (again), so a post whose gate was closed is retried.
 */
export async function approveSyncedPost(
  env: Pick<Env, "PUBLISH_QUEUE">,
  w: WorkspaceDb,
  configId: number,
  syncedPostId: number,
): Promise<SyncedPostView> {
  const config = await getConfigRow(w, configId);
  if (!config) throw notFound("sync config");
  const post = await getSyncedPost(w, syncedPostId);
  if (!post || post.configId !== config.id) throw notFound("synced post");
  if (post.state === "published" || post.state === "failed")
    throw invalidState(`the post is ${post.state}; only drafts and queued posts can be approved`);
  const approved = await approvePost(w, post.id);
  if (!approved) throw notFound("synced post");
  if (approved.state === "published" || approved.state === "failed")
    throw invalidState(`the post is ${approved.state}; only drafts and queued posts can be approved`);
  if (approved.state === "queued") {
    // The task carries the config as the person saw it when approving.
    const message: PublishPostMessage = {
      type: "publish.post",
      workspace_id: w.workspaceId,
      config_id: config.id,
      synced_post_id: approved.id,
      fingerprint: config.fingerprint,
    };
    await env.PUBLISH_QUEUE.send(message);
  }
  return serializeSyncedPost(approved);
}

/**
 * The web console's approval: the same approval, refused while any gate (docs/publishing.md, "Gates") is closed
 * (gates.ts), whatever the page showed. Another browser job running: DomainError `browser_busy`
 * with its retry-after; any other closed gate: `invalid_state` naming every closed gate.
 */
export async function approveReviewedPost(
  env: Pick<Env, "PUBLISH_QUEUE" | "WORKSPACE">,
  w: WorkspaceDb,
  configId: number,
  syncedPostId: number,
): Promise<SyncedPostView> {
  const { gates } = await approvalGates(env, w, configId, syncedPostId);
  const closed = gates.filter((g) => !g.open);
  const others = closed.filter((g) => g.name !== "browser");
  if (others.length > 0)
    throw invalidState(`not approved: a gate is closed: ${others.map((g) => g.reason).join("; ")}`);
  const browser = closed.find((g) => g.name === "browser");
  if (browser)
    throw new DomainError("browser_busy", "not approved: the workspace's browser is in use", {
      retryAfterSeconds: browser.retryAfterSeconds,
    });
  return approveSyncedPost(env, w, configId, syncedPostId);
}
