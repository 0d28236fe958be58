// Approval (docs/publishing.md, "Approval"): the explicit human approval of one synced post. Called by the
// REST route and by the web console's Approve button; never a tool (a person approves, not an agent). It
// records who approved and the hash of the content approved, moves a draft of a config that publishes into
// the queue at once, sends the publish task of a queued post, and says what happens next.

import type { PublishPostMessage } from "../contracts/queue-messages";
import type { SyncConfigRow } from "../db/blog-sync-configs";
import {
  getSyncedPost,
  type SyncedPostRow,
  type SyncedPostView,
  serializeSyncedPost,
  transitionSyncedPost,
} from "../db/blog-sync-posts";
import type { WorkspaceDb } from "../db/client";
import { keyNameById } from "../db/key-by-id";
import { approvePost } from "../db/publishing";
import type { Approver } from "../db/schema";
import type { Env } from "../env";
import { sha256Hex } from "../lib/crypto";
import { DomainError, invalidState, notFound } from "../lib/domain-errors";
import { type ApprovalGate, approvalGates, nextStep } from "./gates";

export type { Approver };

export type ApprovalResult = SyncedPostView & { next: string };

/** SHA-256 hex of what would be published: title, markdown, rich text and images, as JSON in that order. */
export async function contentHashOf(
  post: Pick<SyncedPostRow, "title" | "bodyMarkdown" | "bodyRichtext" | "images">,
): Promise<string> {
  return sha256Hex(JSON.stringify([post.title, post.bodyMarkdown, post.bodyRichtext ?? null, post.images]));
}

/**
 * The approver of a request: the person of a person's console session, else the request's API key (a key a
 * person made included: the key approved, and its maker is not the one who asked).
 */
export async function approverOf(
  env: Pick<Env, "DB">,
  auth: { keyId: number | null; personId: number | null; actor: { type: string; name: string } },
): Promise<Approver> {
  if (auth.actor.type === "person" && auth.personId !== null)
    return { type: "person", id: auth.personId, name: auth.actor.name };
  if (auth.keyId === null) throw new Error("a request with neither a person nor a key cannot approve");
  return { type: "key", id: auth.keyId, name: (await keyNameById(env.DB, auth.keyId)) ?? `key ${auth.keyId}` };
}

const notApprovable = (post: SyncedPostRow) =>
  invalidState(`the post is ${post.state}; only drafts and queued posts can be approved`);

/** A draft of an active config that publishes immediately goes into the queue when it is approved. */
const queues = (config: SyncConfigRow) => config.active && config.publishImmediately;

/**
 * Tries the approval's write a few times: a post written meanwhile (its task noting an error) is read again.
 * The approver is the audit event's actor; approving an approved post again records nothing.
 */
async function recordApproval(
  w: WorkspaceDb,
  config: SyncConfigRow,
  first: SyncedPostRow,
  approver: Approver,
): Promise<SyncedPostRow> {
  let post = first;
  for (let attempt = 0; attempt < 3; attempt++) {
    if (post.state === "published" || post.state === "failed") throw notApprovable(post);
    if (post.approvedAt) {
      // Approved already: the approval stays as it was; a draft whose config now publishes is queued.
      if (post.state === "draft" && queues(config) && (await transitionSyncedPost(w, post.id, "draft", "queued")))
        return { ...post, state: "queued" };
      return post;
    }
    const contentHash = await contentHashOf(post);
    const approved = await approvePost(w, post.id, {
      approver,
      contentHash,
      readAt: post.updatedAt,
      queue: queues(config),
      event: {
        actor: { type: approver.type, id: String(approver.id), name: approver.name },
        action: "synced_post.approved",
        target: { type: "synced_post", id: post.id },
        details: { sync_config_id: config.id, title: post.title, content_hash: contentHash },
      },
    });
    if (approved) return approved;
    const again = await getSyncedPost(w, post.id);
    if (!again) throw notFound("synced post");
    post = again;
  }
  throw invalidState("the post changed while it was being approved; review it again");
}

/**
 * Approves a draft or queued post (published or failed: invalid_state). Approving again leaves the approval
 * as it was; a queued post gets its publish task (again: submission is at most once), so a post whose gate
 * was closed is retried.
 */
export async function approveSyncedPost(
  env: Pick<Env, "PUBLISH_QUEUE" | "WORKSPACE">,
  w: WorkspaceDb,
  configId: number,
  syncedPostId: number,
  approver: Approver,
  known?: { config: SyncConfigRow; post: SyncedPostRow; gates: ApprovalGate[] },
): Promise<ApprovalResult> {
  const { config, post, gates } = known ?? (await approvalGates(env, w, configId, syncedPostId));
  const approved = await recordApproval(w, config, post, approver);
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
  // The gates of the config and persona; the post's own gate is the approval just written.
  return { ...serializeSyncedPost(approved), next: nextStep(approved, gates) };
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
  approver: Approver,
): Promise<ApprovalResult> {
  const known = await approvalGates(env, w, configId, syncedPostId);
  const closed = known.gates.filter((g) => !g.open);
  const others = closed.filter((g) => g.name !== "browser");
  if (others.length > 0)
    throw invalidState(`not approved: a gate is closed: ${others.map((g) => g.reason).join("; ")}`);
  const browser = closed.find((g) => g.name === "browser");
  if (browser)
    throw new DomainError("browser_busy", "not approved: the workspace's browser is in use", {
      retryAfterSeconds: browser.retryAfterSeconds,
    });
  return approveSyncedPost(env, w, configId, syncedPostId, approver, known);
}
