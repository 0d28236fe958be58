// The gates of interface-spec 8.2 a person checks before approving a synced post for the forum, as far as
// this build's data can answer them. Each gate is open or closed with a reason a person can act on.
import type { SyncConfigView } from "../db/blog-sync-configs";
import type { SyncedPostView } from "../db/blog-sync-posts";

export interface Gate {
  name: string;
  open: boolean;
  reason: string;
}

export function reviewGates(config: SyncConfigView, post: SyncedPostView): Gate[] {
  const approvable = post.state === "draft" || post.state === "queued";
  return [
    {
      name: "post",
      open: approvable,
      reason: approvable
        ? `the post is ${post.state}${post.approved_at ? " and already approved" : ""}`
        : post.state === "published"
          ? "the post is already published"
          : `the post failed${post.error ? `: ${post.error}` : ""}; run the sync again to make it a draft`,
    },
    {
      name: "destination",
      open: true,
      reason: `it goes to r/${config.subreddit}; check this is the right subreddit`,
    },
    {
      name: "active",
      open: config.active,
      reason: config.active ? "the sync is active" : "the sync is not active: turn on Active in its settings",
    },
    {
      name: "publish_immediately",
      open: config.publish_immediately,
      reason: config.publish_immediately
        ? "the sync queues posts for publishing"
        : "the sync does not publish: turn on “Queue new drafts for publishing” in its settings",
    },
    {
      name: "persona",
      open: true,
      reason:
        config.persona_id === null
          ? "no persona is named: an active, signed-in persona of the workspace is chosen when publishing, which checks it is approved"
          : `persona ${config.persona_id} publishes it; publishing checks it is approved and ready`,
    },
  ];
}
