// Editing a synced post before it is published (docs/blog-sync.md, "Editing a draft"): a person rewrites the title or
// the markdown; the rich text is rendered again from the markdown, the forum's limits are checked again, the post is
// marked edited (later runs never overwrite it) and, if it was queued or failed, it goes back to draft with its
// approval and its error cleared: an approval was given for the old text, and the error told of the old attempt.
// Editing is the way back from `failed` (a refusal by the forum or the subreddit's rules): nothing else leaves it.

import { checkEdit, renderEditedDraft } from "../articles";
import { getConfigRow } from "../db/blog-sync-configs";
import {
  getSyncedPost,
  type SyncedPostRow,
  type SyncedPostView,
  saveDraftEdit,
  serializeSyncedPost,
} from "../db/blog-sync-posts";
import type { WorkspaceDb } from "../db/client";
import { type DomainError, invalidInput, invalidState, notFound } from "../lib/domain-errors";

export interface DraftEditInput {
  title?: string;
  body_markdown?: string;
}

/**
 * A submission of the post was sent and its outcome is not known yet: the publish task's retry looks for it
 * in the account's submitted list by its title, so an edit now could make the forum get it twice.
 */
const beingSubmitted = (postId: number) =>
  invalidState(
    `synced post ${postId} is being submitted to the forum: a submission was sent and its answer is not in yet (the publish task's retry settles it); it cannot be edited now`,
  );

/**
 * A post that failed while a submission's answer was not in (its task given up on): it may be on the forum, and
 * publishing it again could post it twice, so it stays failed; a refusal clears the marker when it fails the post.
 */
const unsettled = (postId: number) =>
  invalidState(
    `synced post ${postId} failed while a submission of it was unanswered: it may be on the forum already, so it cannot be edited and published again`,
  );

/** Why `post` cannot be edited, or null when it can (saveDraftEdit's condition, asked first to say why). */
function editRefusal(post: SyncedPostRow): DomainError | null {
  if (post.state === "published")
    return invalidState(`synced post ${post.id} is published; only draft, queued and failed posts can be edited`);
  if (post.state !== "draft" && post.submitAttemptedAt)
    return post.state === "queued" ? beingSubmitted(post.id) : unsettled(post.id);
  return null;
}

export async function editSyncedPost(
  w: WorkspaceDb,
  configId: number,
  postId: number,
  input: DraftEditInput,
): Promise<SyncedPostView> {
  const config = await getConfigRow(w, configId);
  if (!config) throw notFound("sync config");
  const post = await getSyncedPost(w, postId);
  if (!post || post.configId !== configId) throw notFound("synced post");
  const refusal = editRefusal(post);
  if (refusal) throw refusal;
  const title = input.title ?? post.title;
  const markdown = input.body_markdown ?? post.bodyMarkdown;
  const problems = checkEdit(title, markdown);
  if (problems.length) throw invalidInput(problems.map((p) => ({ path: `body.${p.field}`, message: p.message })));
  const edited = renderEditedDraft({
    title,
    markdown,
    includeMedia: config.includeMedia,
    images: post.images,
    sourceUrl: post.sourceUrl,
  });
  const row = await saveDraftEdit(w, configId, postId, {
    title: edited.title,
    bodyMarkdown: edited.markdown,
    bodyRichtext: edited.richtext,
    images: edited.images,
  });
  if (!row) {
    const now = await getSyncedPost(w, postId);
    throw (
      (now && editRefusal(now)) ??
      invalidState(`synced post ${postId} became ${now?.state ?? "deleted"} meanwhile; it was not edited`)
    );
  }
  return serializeSyncedPost(row);
}
