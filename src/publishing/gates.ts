// The gates (docs/publishing.md, "Gates") a person confirms before approving a synced post for the forum, each open
// or closed with a reason a person can act on. The web console's review page shows them (its Approve button
// is disabled while one is closed) and its approval refuses while one is closed (approveReviewedPost), so
// both read the same rules: the post, the destination, the config (active, publish_immediately), the persona
// (approved for the customer, active, signed in, browser-ready) and the workspace's browser (no other
// browser job running, from the workspace coordinator's slot).
import { getConfigRow, type SyncConfigRow } from "../db/blog-sync-configs";
import { getSyncedPost, type SyncedPostRow } from "../db/blog-sync-posts";
import type { WorkspaceDb } from "../db/client";
import { coordinatorFor } from "../durable/workspace-coordinator";
import type { Env } from "../env";
import { notFound } from "../lib/domain-errors";
import { choosePersona } from "./destination";

export type ApprovalGateName = "post" | "destination" | "active" | "publish_immediately" | "persona" | "browser";

export interface ApprovalGate {
  name: ApprovalGateName;
  open: boolean;
  reason: string;
  /** The browser gate, closed: when the running job's slot ends at the latest (seconds, 1..60). */
  retryAfterSeconds?: number;
}

function postGate(post: SyncedPostRow): ApprovalGate {
  const approvable = post.state === "draft" || post.state === "queued";
  return {
    name: "post",
    open: approvable,
    reason: approvable
      ? `the post is ${post.state}${post.approvedAt ? " and already approved" : ""}`
      : post.state === "published"
        ? "the post is already published"
        : `the post failed${post.error ? `: ${post.error}` : ""}; ${
            post.submitAttemptedAt
              ? "a submission of it went unanswered, so it may be on the forum already and is not published again"
              : `editing it (PATCH .../items/${post.id}) makes it a draft again`
          }`,
  };
}

async function personaGate(w: WorkspaceDb, config: SyncConfigRow): Promise<ApprovalGate> {
  const choice = await choosePersona(w, config);
  if (!choice.persona) return { name: "persona", open: false, reason: choice.reason };
  const who = `persona u/${choice.persona.username}`;
  if (!choice.persona.approved)
    return {
      name: "persona",
      open: false,
      reason: `${who} is not approved for the customer: an operator approves it (npm run admin -- personas approve)`,
    };
  if (!choice.ready) return { name: "persona", open: false, reason: choice.reason ?? `${who} is not ready` };
  return {
    name: "persona",
    open: true,
    reason: `${who} publishes it: approved for the customer, signed in and browser-ready${config.personaId === null ? " (chosen automatically: the config names none)" : ""}`,
  };
}

async function browserGate(env: Pick<Env, "WORKSPACE">, workspaceId: number): Promise<ApprovalGate> {
  const { holder } = await coordinatorFor(env, workspaceId).browserStatus();
  if (!holder) return { name: "browser", open: true, reason: "no other browser job of the workspace is running" };
  const retryAfterSeconds = Math.min(60, Math.max(1, Math.ceil((holder.deadline - Date.now()) / 1000)));
  return {
    name: "browser",
    open: false,
    reason: `another browser job of the workspace is running (${holder.operation}); try again in ${retryAfterSeconds} s`,
    retryAfterSeconds,
  };
}

/** The gates of one post of one config, in the order a person reads them. */
export async function approvalGatesOf(
  env: Pick<Env, "WORKSPACE">,
  w: WorkspaceDb,
  config: SyncConfigRow,
  post: SyncedPostRow,
): Promise<ApprovalGate[]> {
  const [persona, browser] = await Promise.all([personaGate(w, config), browserGate(env, w.workspaceId)]);
  return [
    postGate(post),
    { name: "destination", open: true, reason: `it goes to r/${config.subreddit}; check this is the right subreddit` },
    {
      name: "active",
      open: config.active,
      reason: config.active ? "the sync is active" : "the sync is not active: turn on Active in its settings",
    },
    {
      name: "publish_immediately",
      open: config.publishImmediately,
      reason: config.publishImmediately
        ? "the sync queues posts for publishing"
        : "the sync does not publish: turn on “Queue new drafts for publishing” in its settings",
    },
    persona,
    browser,
  ];
}

/** The gates of a synced post by ids (another workspace's or unknown ids: not found). */
export async function approvalGates(
  env: Pick<Env, "WORKSPACE">,
  w: WorkspaceDb,
  configId: number,
  syncedPostId: number,
): Promise<{ config: SyncConfigRow; post: SyncedPostRow; gates: ApprovalGate[] }> {
  const config = await getConfigRow(w, configId);
  if (!config) throw notFound("sync config");
  const post = await getSyncedPost(w, syncedPostId);
  if (!post || post.configId !== config.id) throw notFound("synced post");
  return { config, post, gates: await approvalGatesOf(env, w, config, post) };
}

/** The gates that keep an approved post from being published (the browser only makes it wait its turn). */
const PUBLISHING_GATES: ApprovalGateName[] = ["active", "publish_immediately", "persona"];

/**
 * What happens now to an approved post, in words: `queued for publishing`, or the gates that keep it from
 * publishing (a draft of a config that does not publish stays a draft; a queued post waits in the queue).
 */
export function nextStep(post: Pick<SyncedPostRow, "state">, gates: ApprovalGate[]): string {
  const closed = gates.filter((g) => PUBLISHING_GATES.includes(g.name) && !g.open).map((g) => g.reason);
  if (post.state === "queued")
    return closed.length === 0
      ? "queued for publishing"
      : `queued, but not published while a gate is closed: ${closed.join("; ")}`;
  if (closed.length === 0) return "stays a draft: it is queued by the next run of the sync";
  return `stays a draft: not published while a gate is closed: ${closed.join("; ")}`;
}
