// What follows a change to the tracked terms: the workspace's stored posts are re-matched in the background, its
// new terms searched over the last week (a backfill), the ingester started, and a new or renamed keyword is
// measured soon after (when a metrics provider is configured). The writes that make such a change are here
// too, so that the API and the console cannot differ in what follows.

import type { MonitorMetricsMessage, MonitorPassMessage, MonitorRematchMessage } from "../contracts/queue-messages";
import type { WorkspaceDb } from "../db/client";
import { type ExclusionsView, putExclusions } from "../db/exclusions";
import {
  type CompetitorInput,
  type CompetitorView,
  createCompetitor,
  createKeyword,
  deleteCompetitor,
  deleteKeyword,
  foldAliases,
  type KeywordInput,
  type KeywordView,
  subredditList,
  updateCompetitor,
  updateKeyword,
} from "../db/tracking";
import type { Env } from "../env";
import { log, messageOf } from "../lib/log";
import { ensureIngester } from "./ingester";
import { metricsProvider } from "./keyword-metrics";

/** "Soon after it is created": the keyword is measured this many seconds later, off the request. */
export const NEW_KEYWORD_METRICS_DELAY_SECONDS = 5;

/** What follows a change besides the re-match: a keyword to measure, and whether new terms may need a backfill. */
export interface ChangeFollowUp {
  measureKeywordId?: number;
  /** False when the change adds no term (the exclusions): there is nothing new to search. Default true. */
  backfill?: boolean;
}

/**
 * Queues the re-match (the backfill of new terms, and the new keyword's measurement). The term itself is
 * already saved: a queue that cannot be reached is logged, not turned into a failed request (the next change
 * re-matches everything).
 */
export async function trackedTermsChanged(env: Env, workspaceId: number, follow: ChangeFollowUp = {}): Promise<void> {
  const { measureKeywordId, backfill = true } = follow;
  try {
    const rematch: MonitorRematchMessage = { type: "monitor.rematch", workspace_id: workspaceId, after_post_id: 0 };
    const pass: MonitorPassMessage = { type: "monitor.pass", workspace_id: workspaceId };
    if (backfill) await env.MONITOR_QUEUE.sendBatch([{ body: rematch }, { body: pass }]);
    else await env.MONITOR_QUEUE.send(rematch);
    if (measureKeywordId !== undefined && metricsProvider(env)) {
      const metrics: MonitorMetricsMessage = {
        type: "monitor.metrics",
        workspace_id: workspaceId,
        keyword_ids: [measureKeywordId],
      };
      await env.MONITOR_QUEUE.send(metrics, { delaySeconds: NEW_KEYWORD_METRICS_DELAY_SECONDS });
    }
  } catch (err) {
    log("error", "could not queue the re-match of stored posts", { workspaceId, error: messageOf(err) });
  }
  await ensureIngester(env);
}

/**
 * The writes of tracked terms that every front door makes (the API's routes, and through them MCP, and the
 * console's forms): the term is saved, then what follows a change is queued. Keeping the two steps in one
 * place means no door can save a term without its posts being re-matched.
 */
export async function createTrackedKeyword(env: Env, w: WorkspaceDb, input: KeywordInput): Promise<KeywordView> {
  const keyword = await createKeyword(w, input);
  return followed(env, w, keyword, keyword.id);
}

/**
 * Undefined: no such keyword in the workspace (nothing is queued). Only a text that differs from the stored
 * one is measured again: the console's edit form always sends the text, and switching a keyword off there
 * must not buy a measurement that the API's `{"active": false}` does not.
 */
export async function updateTrackedKeyword(
  env: Env,
  w: WorkspaceDb,
  id: number,
  patch: Partial<KeywordInput>,
): Promise<KeywordView | undefined> {
  const updated = await updateKeyword(w, id, patch);
  return (await followed(env, w, updated, updated?.renamed ? id : undefined))?.keyword;
}

export async function createTrackedCompetitor(
  env: Env,
  w: WorkspaceDb,
  input: CompetitorInput,
): Promise<CompetitorView> {
  return followed(env, w, await createCompetitor(w, input));
}

/** Undefined: no such competitor in the workspace (nothing is queued). */
export async function updateTrackedCompetitor(
  env: Env,
  w: WorkspaceDb,
  id: number,
  patch: Partial<CompetitorInput>,
): Promise<CompetitorView | undefined> {
  return followed(env, w, await updateCompetitor(w, id, patch));
}

/**
 * False: no such keyword in the workspace (nothing is queued). The links go at once (ON DELETE CASCADE); the
 * re-match then drops an ambiguous term that had its context from this keyword, and re-scores those posts.
 */
export async function deleteTrackedKeyword(env: Env, w: WorkspaceDb, id: number): Promise<boolean> {
  return followed(env, w, await deleteKeyword(w, id));
}

/** False: no such competitor in the workspace (nothing is queued). As a deleted keyword, re-matched. */
export async function deleteTrackedCompetitor(env: Env, w: WorkspaceDb, id: number): Promise<boolean> {
  return followed(env, w, await deleteCompetitor(w, id));
}

/**
 * Replaces the workspace's exclusions (names without `r/` and `u/`, duplicates folded, terms as given) and,
 * when they changed, re-matches its stored posts and comments: an item they now exclude becomes skipped.
 */
export async function replaceExclusions(env: Env, w: WorkspaceDb, input: ExclusionsView): Promise<ExclusionsView> {
  const folded = {
    terms: foldAliases(input.terms.map((t) => t.trim())),
    subreddits: subredditList(input.subreddits),
    authors: foldAliases(input.authors.map((a) => a.trim().replace(/^\/?u\//i, ""))),
  };
  const { exclusions, changed } = await putExclusions(w, folded);
  if (changed) await trackedTermsChanged(env, w.workspaceId, { backfill: false });
  return exclusions;
}

/** What a write of tracked terms returned, once what follows is queued; nothing is when it found no term. */
async function followed<T>(env: Env, w: WorkspaceDb, written: T, measureKeywordId?: number): Promise<T> {
  if (written) await trackedTermsChanged(env, w.workspaceId, { measureKeywordId });
  return written;
}
