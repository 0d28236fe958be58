// Re-matching a workspace's stored posts and comments after a tracked term or an exclusion was added or changed
// (docs/monitoring.md, "Matching", "Exclusions"): their matched keywords, mentioned competitors and score follow the
// current active terms, and an item the exclusions now keep out becomes skipped (never deleted), in bounded
// batches (one queue message each), so a large workspace never holds one long job.
import type { WorkspaceDb } from "../db/client";
import { commentsForRematch } from "../db/comments";
import { type MatchChange, replaceMatches } from "../db/matched-items";
import { activeTerms, postsForRematch } from "../db/monitor";
import { decideMatch, excludedBy, ingestLink, NO_EXCLUSIONS, scoreMatchedComment, trackedTerms } from "./decide";
import { scoreComment, scorePost } from "./score";

/** Items read and re-matched per batch (one queue message). */
export const REMATCH_BATCH = 200;

const same = (a: number[], b: number[]) => a.length === b.length && a.every((v, i) => v === b[i]);

type Rules = ReturnType<typeof trackedTerms>;

/** The workspace's rules, and the same terms with no exclusions (what an item mentions, excluded or not). */
async function rulesOf(w: WorkspaceDb): Promise<{ rules: Rules; unexcluded: Rules }> {
  const { keywords, competitors, exclusions } = await activeTerms(w);
  return {
    rules: trackedTerms(keywords, competitors, exclusions),
    unexcluded: trackedTerms(keywords, competitors, NO_EXCLUSIONS),
  };
}

/** Re-matches one batch of posts after `afterPostId`; returns where the next batch starts, or null when done. */
export async function rematchBatch(
  w: WorkspaceDb,
  afterPostId: number,
  now = Date.now(),
  batch = REMATCH_BATCH,
): Promise<{ next: number | null; changed: number }> {
  const { rules, unexcluded } = await rulesOf(w);
  const stored = await postsForRematch(w, afterPostId, batch);
  const changes: MatchChange[] = [];
  for (const p of stored) {
    // The links say what the post mentions; the exclusions decide only whether it is skipped.
    const result = ingestLink(p, unexcluded, now);
    const keywordIds = result?.match.keywordIds ?? [];
    const competitorIds = result?.match.competitorIds ?? [];
    const item = { subreddit: p.subreddit, author: p.author, title: p.title, body: p.selftext };
    const skip = !p.skipped && excludedBy(item, rules.exclusions) !== null;
    if (!skip && same(keywordIds, p.keywordIds) && same(competitorIds, p.competitorIds)) continue;
    // A post that no longer matches anything stays (it may be triaged); its score loses the term signals.
    const scored = result?.scored ?? scorePost({ ...p, keywords: [], competitors: [] }, now);
    changes.push({
      forumId: p.forumId,
      keywordIds,
      competitorIds,
      priority: scored.priority,
      urgency: scored.urgency,
      scoreReasons: scored.reasons,
      skip,
    });
  }
  await replaceMatches(w, changes);
  const last = stored[stored.length - 1];
  return { next: stored.length === batch && last ? last.id : null, changed: changes.length };
}

/** As rematchBatch, for the workspace's comments after `afterCommentId`. */
export async function rematchCommentsBatch(
  w: WorkspaceDb,
  afterCommentId: number,
  now = Date.now(),
  batch = REMATCH_BATCH,
): Promise<{ next: number | null; changed: number }> {
  const { rules, unexcluded } = await rulesOf(w);
  const stored = await commentsForRematch(w, afterCommentId, batch);
  const changes: MatchChange[] = [];
  for (const c of stored) {
    const item = { subreddit: c.subreddit, author: c.author, title: "", body: c.body };
    const decision = decideMatch(item, unexcluded);
    const match = decision.stored ? decision.match : { keywordIds: [], competitorIds: [], terms: [] };
    const skip = !c.skipped && excludedBy(item, rules.exclusions) !== null;
    if (!skip && same(match.keywordIds, c.keywordIds) && same(match.competitorIds, c.competitorIds)) continue;
    const scored = decision.stored
      ? scoreMatchedComment(c, match, unexcluded, now)
      : scoreComment({ ...c, threadPermalink: "", keywords: [], competitors: [] }, now);
    changes.push({
      forumId: c.forumId,
      keywordIds: match.keywordIds,
      competitorIds: match.competitorIds,
      priority: scored.priority,
      urgency: scored.urgency,
      scoreReasons: scored.reasons,
      skip,
    });
  }
  await replaceMatches(w, changes, "comments");
  const last = stored[stored.length - 1];
  return { next: stored.length === batch && last ? last.id : null, changed: changes.length };
}
