// The writing step of a run: a planned post handed to the sink, and what the sink answered turned into the
// run's item for it (written, stopped because the run must stop, or left because the post moved meanwhile).
import type { SyncedPostRow } from "../db/blog-sync-posts";
import type { Rendered } from "./render-post";
import { type RunItem, renderedItem } from "./run-items";
import type { AbortReason, PlannedWrite, Sink } from "./sinks";

const ABORTED_BEFORE_WRITE = "not written: the run stopped (see run.error)";
const ABORTED_BEFORE_QUEUE = "written as a draft but not queued: the run stopped (see run.error)";

/** The item of one post, and why the run must stop after it, if it must. */
export interface PostStep {
  item: RunItem;
  aborted?: AbortReason;
}

export async function writePost(
  sink: Sink,
  url: string,
  stored: SyncedPostRow | undefined,
  decision: PlannedWrite & { warning?: string },
  rendered: Rendered,
): Promise<PostStep> {
  const { warnings: _warnings, ...content } = rendered;
  const outcome = await sink.write({ ...decision, url, existing: stored, content: { sourceUrl: url, ...content } });
  if (outcome.kind === "aborted") {
    const item =
      outcome.draftId === undefined
        ? renderedItem(url, stored?.id ?? null, "skip", stored?.state ?? null, rendered, [
            ...rendered.warnings,
            ABORTED_BEFORE_WRITE,
          ])
        : renderedItem(url, outcome.draftId, decision.action, "draft", rendered, [
            ...rendered.warnings,
            ABORTED_BEFORE_QUEUE,
          ]);
    return { item, aborted: outcome.reason };
  }
  if (outcome.kind === "moved")
    return {
      item: renderedItem(url, stored?.id ?? null, "skip", outcome.state, rendered, [
        ...rendered.warnings,
        outcome.edited && outcome.state === "draft"
          ? "not written: a person edited the post while the run was working; the edit is kept"
          : `not written: the post became ${outcome.state} while the run was working`,
      ]),
    };
  return { item: renderedItem(url, outcome.id, decision.action, outcome.state, rendered, rendered.warnings) };
}
