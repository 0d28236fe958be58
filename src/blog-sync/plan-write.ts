// The planning step of a run: given what is stored for a source post and what it renders to now, whether
// the run creates, updates, leaves or skips it, and the state it ends in.
import type { SyncedPostRow, SyncedPostState } from "../db/blog-sync-posts";
import type { Rendered } from "./render-post";
import type { PlannedWrite } from "./sinks";

export const PUBLISHED = "already published: never updated or posted again";
const EDITED_SOURCE_CHANGED =
  "the source changed since this draft was edited; the edit is kept (edit the draft again to take the new text)";

/** A write for the sink, or what the run reports without writing; either may carry a warning. */
export type Plan = (PlannedWrite & { warning?: string }) | { action: "unchanged" | "skip"; warning?: string };

/**
 * Decides what happens to one source post given what is stored for it. Drafts follow their source;
 * queued and failed posts are left for the publishing side. Published posts never get here: the walk skips
 * them before fetching.
 */
export function plan(existing: SyncedPostRow | undefined, rendered: Rendered, queueing: boolean): Plan {
  const target: SyncedPostState = queueing ? "queued" : "draft";
  if (!existing) return { action: "create", to: target };
  const changed = existing.contentHash !== rendered.contentHash;
  if (existing.state === "draft" && existing.editedAt) {
    // A person's edit is never overwritten; a changed source is reported instead.
    const warning = changed ? EDITED_SOURCE_CHANGED : undefined;
    return queueing ? { action: "unchanged", to: "queued", warning } : { action: "unchanged", warning };
  }
  if (existing.state === "draft") {
    if (changed) return { action: "update", to: target };
    return queueing ? { action: "unchanged", to: "queued" } : { action: "unchanged" };
  }
  if (!changed) return { action: "unchanged" };
  return { action: "skip", warning: `source changed, but the post is ${existing.state}; it is not updated` };
}
