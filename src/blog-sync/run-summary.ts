// The report of a run: its status and error worked out from what happened to each post, its counts, and
// the view the API, the console and the run history show.
import type { SourceKind } from "../articles";
import type { SyncConfigRow } from "../db/blog-sync-configs";
import type { FinalRunStatus, RunCounts } from "../db/blog-sync-runs";
import type { ItemAction, RunItem } from "./run-items";
import type { Tally } from "./walk-posts";

export interface RunView extends RunCounts {
  id: number | null;
  config_id: number;
  status: FinalRunStatus;
  dry_run: boolean;
  publish: boolean;
  max_posts: number;
  source_kind: SourceKind | null;
  source_url: string | null;
  started_at: string;
  finished_at: string;
  error: string | null;
}

export interface RunResult {
  run: RunView;
  items: RunItem[];
}

/** How the run was asked for, as its report says. */
export interface RunFlags {
  dryRun: boolean;
  publish: boolean;
}

function summarize(tally: Tally, queued: number) {
  const count = (action: ItemAction) => tally.items.filter((i) => i.action === action).length;
  const failed = count("error");
  const handled = tally.items.length;
  const firstError = tally.items.find((i) => i.error)?.error;
  let status: FinalRunStatus;
  let error = tally.error;
  if (tally.aborted) {
    status = "aborted";
    error =
      tally.aborted === "config_changed"
        ? "the config changed while the run was active; the run stopped before writing further posts"
        : "the run's claim on the config expired (it was silent past its deadline); it stopped before writing further posts";
  } else if (tally.error) status = "failed";
  else if (tally.discovery?.posts.length === 0) {
    // Nothing to sync is a wrong blog address far more often than an empty blog: say what discovery saw.
    status = "failed";
    const { warnings, sourceUrl } = tally.discovery;
    const seen = warnings.filter((w) => !w.startsWith("no posts found at")).slice(-3);
    error = `no posts found at ${sourceUrl}${seen.length ? ` (${seen.join("; ")})` : ""}`;
  } else if (failed > 0 && failed === handled) {
    status = "failed";
    error = `all ${failed} posts failed; first error: ${firstError}`;
  } else if (failed > 0) {
    status = "partial";
    error = `${failed} of ${handled} posts failed; first error: ${firstError}`;
  } else status = "completed";
  return {
    status,
    error,
    counts: {
      discovered: tally.discovery?.posts.length ?? 0,
      created: count("create"),
      updated: count("update"),
      unchanged: count("unchanged"),
      queued,
      failed,
    },
  };
}

export function respond(
  id: number | null,
  config: SyncConfigRow,
  options: RunFlags,
  maxPosts: number,
  tally: Tally,
  queued: number,
  startedAt: string,
  finishedAt: string,
): RunResult {
  const { status, error, counts } = summarize(tally, queued);
  return {
    run: {
      id,
      config_id: config.id,
      status,
      dry_run: options.dryRun,
      publish: options.publish,
      max_posts: maxPosts,
      source_kind: tally.discovery?.sourceKind ?? null,
      source_url: tally.discovery?.sourceUrl ?? null,
      ...counts,
      started_at: startedAt,
      finished_at: finishedAt,
      error,
    },
    items: tally.items,
  };
}
