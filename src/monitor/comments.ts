// Storing a workspace's matched forum comments (docs/monitoring.md, "Comments"): the ingester walks the forum's
// comment ids, decides for each workspace with decideMatch (decide.ts), and hands the comments a workspace keeps to
// storeMatchedComments, which scores them, stores them (unique by workspace and forum id) and announces the newly
// stored ones as `comment.created` (docs/alerts.md).
import { alertNewComments } from "../alerts/post-alerts";
import type { WorkspaceDb } from "../db/client";
import { storedThreadTitles } from "../db/comments";
import { type IngestedComment, upsertCommentsOfWorkspaces, type WorkspaceItems } from "../db/matched-items";
import { workspacesWithActiveWebhooks } from "../db/webhooks";
import type { Env } from "../env";
import { log, messageOf } from "../lib/log";
import { decideMatch, scoreMatchedComment, type WorkspaceRules } from "./decide";
import type { MatchResult } from "./match";

/** Comments older than this are never stored (as posts). */
export const COMMENT_MAX_AGE_MS = 7 * 24 * 3_600_000;

/**
 * A comment as the forum's `/api/info` and listings give it (`kind: "t1"`, its `data`): `link_id` is the
 * thread's full name (`t3_...`); `link_title` comes only in listings (`/r/all/comments`, a user's comments),
 * not in `/api/info` or a thread's tree.
 */
export interface ForumComment {
  id: string;
  link_id: string;
  link_title?: string | null;
  body?: string | null;
  author?: string | null;
  subreddit: string;
  permalink: string;
  score: number;
  created_utc: number;
}

export interface CommentToStore {
  comment: ForumComment;
  /** The workspace's decision's matches (decideMatch's `match`). */
  match: MatchResult;
  /** The thread's title when the caller knows it (read with its post); else link_title, a stored post's, or ''. */
  threadTitle?: string;
}

const withoutPrefix = (fullName: string, prefix: string) =>
  fullName.startsWith(prefix) ? fullName.slice(prefix.length) : fullName;

// Whole seconds, as the forum gives them, like a post's created_utc.
const createdIso = (c: ForumComment) => new Date(Math.floor(c.created_utc) * 1000).toISOString();

function toRow(item: CommentToStore, rules: WorkspaceRules, now: number, storedTitle?: string): IngestedComment {
  const { comment: c, match } = item;
  const fields = {
    body: c.body ?? "",
    permalink: c.permalink,
    score: c.score,
    createdUtc: createdIso(c),
  };
  const scored = scoreMatchedComment(fields, match, rules, now);
  return {
    ...fields,
    forumId: withoutPrefix(c.id, "t1_"),
    postForumId: withoutPrefix(c.link_id, "t3_"),
    subreddit: c.subreddit,
    threadTitle: item.threadTitle || c.link_title || storedTitle || "",
    // The forum names a removed account "[deleted]"; an author it leaves out is written the same way.
    author: c.author ?? "[deleted]",
    priority: scored.priority,
    urgency: scored.urgency,
    scoreReasons: scored.reasons,
    keywordIds: match.keywordIds,
    competitorIds: match.competitorIds,
  };
}

/** One workspace's comments its decision kept, with its rules (storeCommentsOfWorkspaces). */
export interface WorkspaceComments {
  w: WorkspaceDb;
  rules: WorkspaceRules;
  items: CommentToStore[];
  /** The comments are stored already (a refresh): a title not given keeps the stored one, none is looked up. */
  stored?: boolean;
}

/** Queues `comment.created` for newly stored comments; a failure is logged and does not undo the storing. */
async function announceNewComments(env: Env, w: WorkspaceDb, forumIds: string[]): Promise<void> {
  try {
    await alertNewComments(env, w, forumIds);
  } catch (err) {
    log("error", "alerts of new comments could not be queued", {
      workspaceId: w.workspaceId,
      comments: forumIds.length,
      error: messageOf(err),
    });
  }
}

/**
 * Scores and stores comments each workspace's decision kept, and announces the newly stored ones (a re-seen
 * comment is updated and never announced again): the workspaces' writes share batches (upsertItemsOfWorkspaces)
 * and only workspaces with an active webhook are asked for their hooks. Comments older than 7 days are left out.
 */
export async function storeCommentsOfWorkspaces(
  env: Env,
  sets: WorkspaceComments[],
  now = Date.now(),
): Promise<{ created: number; updated: number }> {
  const rows: WorkspaceItems<IngestedComment>[] = [];
  for (const { w, rules, items, stored } of sets) {
    const young = items.filter((i) => now - i.comment.created_utc * 1000 <= COMMENT_MAX_AGE_MS);
    const untitled = stored ? [] : young.filter((i) => !i.threadTitle && !i.comment.link_title);
    const titles = untitled.length
      ? await storedThreadTitles(
          w,
          untitled.map((i) => withoutPrefix(i.comment.link_id, "t3_")),
        )
      : new Map<string, string>();
    rows.push({
      w,
      rows: young.map((i) => toRow(i, rules, now, titles.get(withoutPrefix(i.comment.link_id, "t3_")))),
    });
  }
  const hooked = await workspacesWithActiveWebhooks(rows.filter((r) => r.rows.length > 0).map((r) => r.w));
  return upsertCommentsOfWorkspaces(rows, async (w, forumIds) => {
    if (hooked.has(w.workspaceId)) await announceNewComments(env, w, forumIds);
  });
}

/** One workspace's comments (storeCommentsOfWorkspaces). */
export const storeMatchedComments = (
  env: Env,
  w: WorkspaceDb,
  rules: WorkspaceRules,
  items: CommentToStore[],
  now = Date.now(),
): Promise<{ created: number; updated: number }> => storeCommentsOfWorkspaces(env, [{ w, rules, items }], now);

/** One comment (storeMatchedComments of one). */
export async function storeMatchedComment(
  env: Env,
  w: WorkspaceDb,
  rules: WorkspaceRules,
  item: CommentToStore,
  now = Date.now(),
): Promise<{ created: boolean }> {
  const { created } = await storeMatchedComments(env, w, rules, [item], now);
  return { created: created === 1 };
}

/**
 * Decides each comment for the workspace (decideMatch, on its body) and stores the ones it keeps: for a
 * caller that has not matched them yet (a backfill, a refresh). Returns how many were kept and stored.
 */
export async function matchAndStoreComments(
  env: Env,
  w: WorkspaceDb,
  rules: WorkspaceRules,
  comments: ForumComment[],
  now = Date.now(),
): Promise<{ matched: number; created: number; updated: number }> {
  const items: CommentToStore[] = [];
  for (const comment of comments) {
    const decision = decideMatch(
      { subreddit: comment.subreddit, author: comment.author ?? "[deleted]", title: "", body: comment.body ?? "" },
      rules,
    );
    if (decision.stored) items.push({ comment, match: decision.match });
  }
  return { matched: items.length, ...(await storeMatchedComments(env, w, rules, items, now)) };
}
