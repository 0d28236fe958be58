import { env } from "cloudflare:workers";
import { workspaceDb } from "../../src/db/client";
import { activeTerms } from "../../src/db/monitor";
import { type ForumComment, matchAndStoreComments } from "../../src/monitor/comments";
import { trackedTerms } from "../../src/monitor/decide";
import { nowSeconds } from "./monitor";

/** A forum comment (the `data` of a `t1` thing, as /api/info gives it) about `body`, `agoSeconds` old. */
export function forumComment(id: string, body: string, options: Partial<ForumComment> & { agoSeconds?: number } = {}) {
  const { agoSeconds = 60, ...rest } = options;
  const post = rest.link_id ?? "t3_thread1";
  const subreddit = rest.subreddit ?? "testing";
  return {
    id,
    link_id: post,
    body,
    author: "someone",
    subreddit,
    permalink: `/r/${subreddit}/comments/${post.replace(/^t3_/, "")}/a_thread/${id}/`,
    score: 1,
    created_utc: nowSeconds() - agoSeconds,
    ...rest,
  } satisfies ForumComment;
}

/**
 * Decides and stores comments for the workspace as the ingester does (decideMatch with the workspace's rules, then
 * storeMatchedComments): the store function the ingester calls, with the workspace's current terms and exclusions.
 */
export async function ingestComments(workspaceId: number, comments: ForumComment[], now = Date.now()) {
  const w = workspaceDb(env, workspaceId);
  const { keywords, competitors, exclusions } = await activeTerms(w);
  return matchAndStoreComments(env, w, trackedTerms(keywords, competitors, exclusions), comments, now);
}
