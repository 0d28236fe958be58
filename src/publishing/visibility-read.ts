// Reading a published post's visibility (docs/publishing.md, "Visibility"), in the workspace's browser turn:
// its state through /api/info with the bearer token of the persona that published it (the author's view),
// then its permalink's `.json` opened in the browser as a logged-out visitor. visibility-state.ts reads the
// two together.

import { BrowserError, withForumPage } from "../browser/forum-browser";
import { getConfigRow } from "../db/blog-sync-configs";
import type { SyncedPostRow } from "../db/blog-sync-posts";
import type { WorkspaceDb } from "../db/client";
import { getPersonaRow } from "../db/personas";
import type { Env } from "../env";
import { ForumError, isForumError } from "../forum/errors";
import { ForumClient } from "../forum/persona-client";
import { forumBase, inBrowserTurn } from "../personas/browser-operation";
import { type ForumLinkState, type VisibilityFinding, type VisitorPost, visibilityOf } from "./visibility-state";

/** Whether a failed check said nothing about the post (the forum or the browser could not be reached). */
export const isUnreachable = (err: unknown) =>
  err instanceof BrowserError || isForumError(err, "unreachable") || isForumError(err, "quota");

/** The permalink's JSON on the public site: `/r/<sr>/comments/<id>/<slug>.json`. */
export const permalinkJson = (env: Pick<Env, "FORUM_BASE_URL">, permalink: string) =>
  `${forumBase(env)}${permalink.replace(/\/+$/, "")}.json`;

/** The visitor's page: the forum's link listing, its not-found answer, or (anything else) unreachable. */
function visitorPost(page: { status: number; text: string }, address: string): VisitorPost {
  let body: unknown;
  try {
    body = JSON.parse(page.text);
  } catch {
    body = undefined;
  }
  if (page.status === 404 && (body as { error?: unknown } | undefined)?.error === 404) return { found: false };
  const link = Array.isArray(body)
    ? (body[0] as { data?: { children?: { kind?: string; data?: ForumLinkState }[] } } | undefined)?.data?.children?.[0]
    : undefined;
  if (page.status === 200 && link?.kind === "t3" && link.data) return { found: true, link: link.data };
  throw new ForumError(
    "unreachable",
    `the forum's public site did not show ${address} to the browser (HTTP ${page.status}${page.status === 200 ? ", not the post's page: a block page or a challenge" : ""}); the check is tried again`,
    { status: page.status, address },
  );
}

/** The author's view through /api/info; null when the forum does not list the post. */
async function authorsView(env: Env, w: WorkspaceDb, post: SyncedPostRow): Promise<ForumLinkState | null> {
  const persona = post.publishedPersonaId ? await getPersonaRow(w, post.publishedPersonaId) : undefined;
  if (!persona)
    throw new ForumError(
      "grant",
      "the persona that published the post is gone: its state cannot be read as its author",
    );
  const fullname = `t3_${post.forumPostId}`;
  const links = await new ForumClient(env, w, persona).info([fullname]);
  return links.find((l) => l.name === fullname) ?? null;
}

/**
 * Reads the post's visibility in the workspace's browser turn. Without the author's view (the persona gone
 * or its grant revoked) the visitor's view alone decides, and the reason says so.
 */
export async function checkVisibility(env: Env, w: WorkspaceDb, post: SyncedPostRow): Promise<VisibilityFinding> {
  const config = await getConfigRow(w, post.configId);
  const subreddit = config?.subreddit ?? "";
  let author: ForumLinkState | null | undefined;
  let without: string | undefined;
  try {
    author = await authorsView(env, w, post);
  } catch (err) {
    if (!isForumError(err, "grant")) throw err;
    without = err.message;
  }
  const address = permalinkJson(env, post.permalink ?? "");
  const visitor = await inBrowserTurn(env, w.workspaceId, `visibility check of post ${post.id}`, (browser) =>
    withForumPage(env.BROWSER, { landingUrl: address, reuse: browser }, async (session) =>
      visitorPost(session.landing, address),
    ),
  );
  if (author !== undefined) return visibilityOf(author, visitor, subreddit);
  // The visitor's view only: the fields a visitor is shown decide; a post a visitor cannot open at all is
  // read as visible to its author only, the cause unknown.
  const found: VisibilityFinding = visitor.found
    ? visibilityOf(visitor.link, visitor, subreddit)
    : { visibility: "spam_filtered", reason: "a logged-out visitor gets the forum's not-found page at its permalink" };
  return { ...found, reason: `${found.reason} (read as a visitor only: ${without})` };
}
