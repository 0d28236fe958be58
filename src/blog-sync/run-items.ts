// What a run reports for each post it considered: the stored post as it is, or what the source renders to.
import type { SyncedPostRow, SyncedPostState } from "../db/blog-sync-posts";
import type { Rendered } from "./render-post";

export type ItemAction = "create" | "update" | "unchanged" | "skip" | "error";

export interface RunItem {
  synced_post_id: number | null;
  source_url: string;
  title: string | null;
  action: ItemAction;
  state: SyncedPostState | null;
  body_markdown: string | null;
  images: SyncedPostRow["images"];
  warnings: string[];
  error: string | null;
}

export function itemOf(
  url: string,
  stored: SyncedPostRow | undefined,
  action: ItemAction,
  state: SyncedPostState | null,
  warnings: string[],
): RunItem {
  return {
    synced_post_id: stored?.id ?? null,
    source_url: url,
    title: stored?.title ?? null,
    action,
    state,
    body_markdown: stored?.bodyMarkdown ?? null,
    images: stored?.images ?? [],
    warnings,
    error: null,
  };
}

export function renderedItem(
  url: string,
  id: number | null,
  action: ItemAction,
  state: SyncedPostState | null,
  r: Rendered,
  warnings: string[],
): RunItem {
  return {
    synced_post_id: id,
    source_url: url,
    title: r.title,
    action,
    state,
    body_markdown: r.bodyMarkdown,
    images: r.images,
    warnings,
    error: null,
  };
}
