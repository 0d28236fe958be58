// Writes of approval and publishing on synced posts (docs/blog-sync.md, "States"). Each is conditional on the post's
// state, so a repeated or late call changes nothing it should not.
import { and, desc, eq, inArray, isNull } from "drizzle-orm";
import type { SyncedPostRow } from "./blog-sync-posts";
import { nowIso, type WorkspaceDb } from "./client";
import { syncedPosts } from "./schema";

const post = (w: WorkspaceDb, id: number) => and(eq(syncedPosts.workspaceId, w.workspaceId), eq(syncedPosts.id, id));

/** Sets approved_at on a draft or queued post that has none; the post as it is afterwards. */
export async function approvePost(w: WorkspaceDb, id: number): Promise<SyncedPostRow | undefined> {
  const now = nowIso();
  await w.db
    .update(syncedPosts)
    .set({ approvedAt: now, updatedAt: now })
    .where(and(post(w, id), inArray(syncedPosts.state, ["draft", "queued"]), isNull(syncedPosts.approvedAt)))
    .run();
  return w.db.select().from(syncedPosts).where(post(w, id)).get();
}

/** Records (or clears) the moment a submission is about to be sent, while the post is queued. */
export async function markSubmitAttempt(w: WorkspaceDb, id: number, at: string | null): Promise<boolean> {
  const row = await w.db
    .update(syncedPosts)
    .set({ submitAttemptedAt: at, updatedAt: nowIso() })
    .where(and(post(w, id), eq(syncedPosts.state, "queued")))
    .returning({ id: syncedPosts.id })
    .get();
  return row !== undefined;
}

/** queued → published with the forum's id and permalink. */
export async function markPublished(
  w: WorkspaceDb,
  id: number,
  published: { forumPostId: string; permalink: string },
): Promise<boolean> {
  const now = nowIso();
  const row = await w.db
    .update(syncedPosts)
    .set({ state: "published", ...published, error: null, publishedAt: now, updatedAt: now })
    .where(and(post(w, id), eq(syncedPosts.state, "queued")))
    .returning({ id: syncedPosts.id })
    .get();
  return row !== undefined;
}

/** The reason a queued post was not submitted this time (a closed gate, a rate limit); it stays queued. */
export async function noteQueuedError(w: WorkspaceDb, id: number, error: string): Promise<boolean> {
  const row = await w.db
    .update(syncedPosts)
    .set({ error, updatedAt: nowIso() })
    .where(and(post(w, id), eq(syncedPosts.state, "queued")))
    .returning({ id: syncedPosts.id })
    .get();
  return row !== undefined;
}

/** queued → failed with its reason (a refusal retrying cannot fix); the submit marker is cleared. */
export async function failQueuedPost(w: WorkspaceDb, id: number, error: string): Promise<boolean> {
  const row = await w.db
    .update(syncedPosts)
    .set({ state: "failed", error, submitAttemptedAt: null, updatedAt: nowIso() })
    .where(and(post(w, id), eq(syncedPosts.state, "queued")))
    .returning({ id: syncedPosts.id })
    .get();
  return row !== undefined;
}

/** Drafts and queued posts of a config that carry images, newest first (readiness media checks). */
export async function postsWithImages(w: WorkspaceDb, configId: number, limit: number): Promise<SyncedPostRow[]> {
  const rows = await w.db
    .select()
    .from(syncedPosts)
    .where(
      and(
        eq(syncedPosts.workspaceId, w.workspaceId),
        eq(syncedPosts.configId, configId),
        inArray(syncedPosts.state, ["draft", "queued"]),
      ),
    )
    .orderBy(desc(syncedPosts.id))
    .limit(limit)
    .all();
  return rows.filter((r) => r.images.length > 0);
}
