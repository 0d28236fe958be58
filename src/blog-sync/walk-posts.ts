// The pipeline dry and real runs share: discovery of the blog's posts, then for each post in turn
// extraction and rendering, the plan, and the write through the run's sink, with a checkpoint before each
// post so a run stops as soon as its config changes.
import { type DiscoveredPost, type Discovery, discoverPosts, type FetchPolicy } from "../articles";
import type { SyncConfigRow } from "../db/blog-sync-configs";
import { findSyncedPostsByUrl, type SyncedPostRow } from "../db/blog-sync-posts";
import type { WorkspaceDb } from "../db/client";
import { messageOf } from "../lib/log";
import { PUBLISHED, plan } from "./plan-write";
import { type Rendered, renderPost } from "./render-post";
import { itemOf, type RunItem, renderedItem } from "./run-items";
import type { AbortReason, Sink } from "./sinks";
import { withSource } from "./source-line";
import { type PostStep, writePost } from "./write-post";

export interface RunContext {
  /** The fetch policy of this run: its requests count against the workspace's budget and renew its lease. */
  policy: FetchPolicy;
  w: WorkspaceDb;
  config: SyncConfigRow;
  publish: boolean;
  maxPosts: number;
  sink: Sink;
}

export interface Tally {
  discovery: Discovery | null;
  items: RunItem[];
  error: string | null;
  aborted: AbortReason | null;
}

/** The pipeline shared by dry and real runs. Engine failures become item or run errors; ours propagate. */
export async function walk(ctx: RunContext): Promise<Tally> {
  const { w, config, sink } = ctx;
  const tally: Tally = { discovery: null, items: [], error: null, aborted: null };
  try {
    tally.discovery = await discoverPosts(config.blogUrl, { policy: ctx.policy, maxPosts: ctx.maxPosts });
  } catch (err) {
    tally.error = `discovery failed: ${messageOf(err)}`;
    return tally;
  }
  // Discovery already returns at most maxPosts, newest first.
  const candidates = tally.discovery.posts;
  const existing = await findSyncedPostsByUrl(
    w,
    config.id,
    candidates.map((p) => p.url),
  );
  const queueing = ctx.publish && config.active && config.publishImmediately;

  for (const candidate of candidates) {
    // Before each post, not only before writes: a run whose posts are all unchanged keeps its claim alive
    // and still stops when the config changes.
    const stop = await sink.checkpoint();
    if (stop) {
      tally.aborted = stop;
      return tally;
    }
    const step = await syncPost(ctx, candidate, existing.get(candidate.url), queueing);
    tally.items.push(step.item);
    if (step.aborted) {
      tally.aborted = step.aborted;
      break;
    }
  }
  // A change after the last write still means this run's results were worked out under old settings.
  if (!tally.aborted) tally.aborted = await sink.checkpoint();
  return tally;
}

/** One post: a published one is left untouched; any other is rendered, planned and, if planned, written. */
async function syncPost(
  ctx: RunContext,
  candidate: DiscoveredPost,
  stored: SyncedPostRow | undefined,
  queueing: boolean,
): Promise<PostStep> {
  // Never touched, not even fetched again.
  if (stored?.state === "published") return { item: itemOf(candidate.url, stored, "skip", stored.state, [PUBLISHED]) };
  let rendered: Rendered;
  try {
    rendered = await withSource(await renderPost(candidate.url, ctx.config, ctx.policy), ctx.config, candidate.url);
  } catch (err) {
    return {
      item: {
        ...itemOf(candidate.url, stored, "error", stored?.state ?? null, []),
        title: candidate.title ?? stored?.title ?? null,
        error: messageOf(err),
      },
    };
  }
  // An edited draft is shown as edited: its text is the person's, not the source's.
  if (stored?.editedAt)
    rendered = { ...rendered, title: stored.title, bodyMarkdown: stored.bodyMarkdown, images: stored.images };
  const decision = plan(stored, rendered, queueing);
  if (!("to" in decision)) {
    const warnings = decision.warning ? [...rendered.warnings, decision.warning] : rendered.warnings;
    return {
      item: renderedItem(candidate.url, stored?.id ?? null, decision.action, stored?.state ?? null, rendered, warnings),
    };
  }
  if (decision.warning) rendered = { ...rendered, warnings: [...rendered.warnings, decision.warning] };
  return writePost(ctx.sink, candidate.url, stored, decision, rendered);
}
