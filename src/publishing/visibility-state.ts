// What a published post's state on the forum means for its `visibility` (docs/publishing.md, "Visibility"):
// the author's view through /api/info (the persona's bearer token) and a logged-out visitor's view of the
// permalink (its `.json`, opened in the browser), read together. Pure: no bindings, no I/O.
//
// The forum's fields, as its sources have them (docs/publishing.md, "Visibility", names file and line):
// - `removed_by_category` is null on a live post. The author's own view of a post the spam filter holds
//   says "reddit" with the text intact (a recorded session); a moderator's removal says "moderator"; a post
//   its author deleted says "deleted". No primary source lists the other values (automod_filtered,
//   anti_evil_ops, ...): any other value is read as a removal, its reason naming it.
// - `banned_by` is shown to the subreddit's moderators only: a moderator's name when one removed it, `true`
//   when the spam filter did; `removed` and `spam` (newer than the open-source code) likewise.
// - A deleted post shows author and selftext "[deleted]"; a visitor sees a spam-filtered or removed post's
//   selftext as "[removed]"; a post that is not out (yet, or ever) is the forum's not-found answer.

export type Visibility = "live" | "removed" | "spam_filtered" | "deleted";

/** The fields of an /api/info link the reading uses (the forum's names). */
export interface ForumLinkState {
  author?: string | null;
  selftext?: string | null;
  removed_by_category?: string | null;
  removed?: boolean | null;
  spam?: boolean | null;
  banned_by?: string | boolean | null;
}

/** What the visitor's browser found at the permalink. */
export type VisitorPost = { found: true; link: ForumLinkState } | { found: false };

export interface VisibilityFinding {
  visibility: Visibility;
  reason: string;
}

const DELETED = "[deleted]";
const REMOVED = "[removed]";

function fromAuthorsView(link: ForumLinkState, sr: string): VisibilityFinding | null {
  const category = link.removed_by_category ?? null;
  if (category === "deleted" || category === "author" || link.author === DELETED)
    return { visibility: "deleted", reason: "the post was deleted on the forum (by its author or with the account)" };
  if (category === "reddit")
    return {
      visibility: "spam_filtered",
      reason:
        "the forum's spam filter holds the post: only its author sees it (removed_by_category: reddit); the subreddit's moderators can approve it",
    };
  if (category === "moderator")
    return {
      visibility: "removed",
      reason: `the moderators of r/${sr} removed the post (removed_by_category: moderator)`,
    };
  if (category !== null)
    return { visibility: "removed", reason: `the post was removed on the forum (removed_by_category: ${category})` };
  if (link.banned_by === true || link.spam === true)
    return {
      visibility: "spam_filtered",
      reason: "the forum's spam filter holds the post (banned_by: true): only its author and the moderators see it",
    };
  if (link.banned_by || link.removed)
    return {
      visibility: "removed",
      reason: `the moderators of r/${sr} removed the post${typeof link.banned_by === "string" ? ` (banned_by: ${link.banned_by})` : ""}`,
    };
  return null;
}

/**
 * The post's visibility from the author's view (null: /api/info did not list it) and the visitor's. The author's
 * view names the cause when the forum gives one; the visitor's view decides what a reader of the subreddit sees.
 */
export function visibilityOf(
  author: ForumLinkState | null,
  visitor: VisitorPost,
  subreddit: string,
): VisibilityFinding {
  if (author === null)
    return {
      visibility: "deleted",
      reason: "the forum no longer lists the post (/api/info does not return it to its author)",
    };
  const named = fromAuthorsView(author, subreddit);
  if (named) return named;
  if (!visitor.found)
    return {
      visibility: "spam_filtered",
      reason:
        "its author sees the post, but a logged-out visitor gets the forum's not-found page at its permalink: it is visible to its author only",
    };
  const text = visitor.link.selftext ?? "";
  if (text === DELETED && visitor.link.author === DELETED)
    return { visibility: "deleted", reason: "a logged-out visitor sees the post as [deleted]" };
  if (text === REMOVED || text === DELETED)
    return {
      visibility: "spam_filtered",
      reason: `its author sees the post, but a logged-out visitor sees it as ${text}: it is visible to its author only`,
    };
  return { visibility: "live", reason: "a logged-out visitor sees the post at its permalink" };
}
