// Re-matching a workspace's stored posts after a tracked term was added or changed (docs/monitoring.md, "Matching"):
// the posts' matched keywords, mentioned competitors and score follow the current active terms, in bounded
// batches (one queue message each), so a large workspace never holds one long job.
import type { WorkspaceDb } from "../db/client";
import { activeTerms, postsForRematch, replacePostMatches } from "../db/monitor";
import { ingestLink, trackedTerms } from "./pass";
import { scorePost } from "./score";

/** Posts read and re-matched per batch (one queue message). */
export const REMATCH_BATCH = 200;

const same = (a: number[], b: number[]) => a.length === b.length && a.every((v, i) => v === b[i]);

/** Re-matches one batch after `afterPostId`; returns where the next batch starts, or null when done. */
export async function rematchBatch(
  w: WorkspaceDb,
  afterPostId: number,
  now = Date.now(),
  batch = REMATCH_BATCH,
): Promise<{ next: number | null; changed: number }> {
  const { keywords, competitors } = await activeTerms(w);
  const tracked = trackedTerms(keywords, competitors);
  const stored = await postsForRematch(w, afterPostId, batch);
  const changes = [];
  for (const p of stored) {
    const result = ingestLink(p, tracked, now);
    const keywordIds = result?.match.keywordIds ?? [];
    const competitorIds = result?.match.competitorIds ?? [];
    if (same(keywordIds, p.keywordIds) && same(competitorIds, p.competitorIds)) continue;
    // A post that no longer matches anything stays (it may be triaged); its score loses the term signals.
    const scored = result?.scored ?? scorePost({ ...p, keywords: [], competitors: [] }, now);
    changes.push({
      forumId: p.forumId,
      keywordIds,
      competitorIds,
      priority: scored.priority,
      urgency: scored.urgency,
      scoreReasons: scored.reasons,
    });
  }
  await replacePostMatches(w, changes);
  const last = stored[stored.length - 1];
  return { next: stored.length === batch && last ? last.id : null, changed: changes.length };
}
