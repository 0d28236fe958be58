// Synced posts: what a blog sync wrote for a config, keyed by config + canonical source URL (docs/blog-sync.md).
import { and, count, desc, eq, inArray, isNull, or } from "drizzle-orm";
import { nowIso, type WorkspaceDb } from "./client";
import { syncedPosts } from "./schema";

export type SyncedPostRow = typeof syncedPosts.$inferSelect;
export type SyncedPostState = SyncedPostRow["state"];

export function serializeSyncedPost(row: SyncedPostRow) {
  return {
    id: row.id,
    config_id: row.configId,
    source_url: row.sourceUrl,
    title: row.title,
    body_markdown: row.bodyMarkdown,
    body_richtext: row.bodyRichtext ?? null,
    images: row.images,
    state: row.state,
    approved_at: row.approvedAt,
    approved_by: row.approvedBy ?? null,
    approved_content_hash: row.approvedContentHash ?? null,
    forum_post_id: row.forumPostId,
    permalink: row.permalink,
    error: row.error,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    published_at: row.publishedAt,
    edited: row.editedAt !== null,
    edited_at: row.editedAt,
    visibility: row.visibility ?? null,
    visibility_checked_at: row.visibilityCheckedAt ?? null,
    visibility_reason: row.visibilityReason ?? null,
  };
}

export type SyncedPostView = ReturnType<typeof serializeSyncedPost>;

/** Every change of a post's content clears its approval: it was given for the content before. */
const NO_APPROVAL = { approvedAt: null, approvedBy: null, approvedContentHash: null } as const;

/** What a run renders for one source post; written as a whole. */
export interface SyncedContent {
  sourceUrl: string;
  title: string;
  bodyMarkdown: string;
  bodyRichtext: unknown;
  images: SyncedPostRow["images"];
  contentHash: string;
}

const ofConfig = (w: WorkspaceDb, configId: number) =>
  and(eq(syncedPosts.workspaceId, w.workspaceId), eq(syncedPosts.configId, configId));

export async function listSyncedPosts(
  w: WorkspaceDb,
  configId: number,
  filter: { state?: SyncedPostState; limit: number; offset: number },
): Promise<{ data: SyncedPostView[]; count: number }> {
  const where = and(ofConfig(w, configId), filter.state ? eq(syncedPosts.state, filter.state) : undefined);
  const [rows, total] = await w.db.batch([
    w.db
      .select()
      .from(syncedPosts)
      .where(where)
      .orderBy(desc(syncedPosts.id))
      .limit(filter.limit)
      .offset(filter.offset),
    w.db.select({ n: count() }).from(syncedPosts).where(where),
  ]);
  return { data: rows.map(serializeSyncedPost), count: total[0]?.n ?? 0 };
}

export async function getSyncedPost(w: WorkspaceDb, id: number): Promise<SyncedPostRow | undefined> {
  return w.db
    .select()
    .from(syncedPosts)
    .where(and(eq(syncedPosts.workspaceId, w.workspaceId), eq(syncedPosts.id, id)))
    .get();
}

/** D1 binds at most 100 parameters per statement; two go to the workspace and config. */
const URL_CHUNK = 90;

/** The config's synced posts for these canonical source URLs, by URL. */
export async function findSyncedPostsByUrl(
  w: WorkspaceDb,
  configId: number,
  urls: string[],
): Promise<Map<string, SyncedPostRow>> {
  const found = new Map<string, SyncedPostRow>();
  for (let i = 0; i < urls.length; i += URL_CHUNK) {
    const chunk = urls.slice(i, i + URL_CHUNK);
    const rows = await w.db
      .select()
      .from(syncedPosts)
      .where(and(ofConfig(w, configId), inArray(syncedPosts.sourceUrl, chunk)))
      .all();
    for (const row of rows) found.set(row.sourceUrl, row);
  }
  return found;
}

export async function insertSyncedPost(
  w: WorkspaceDb,
  configId: number,
  content: SyncedContent,
  state: SyncedPostState,
): Promise<SyncedPostRow> {
  return w.db
    .insert(syncedPosts)
    .values({ workspaceId: w.workspaceId, configId, ...content, state })
    .returning()
    .get();
}

/**
 * Replaces the content of a post that is still in `from` state (a draft: published posts are never touched)
 * and that no person has edited (an edit is never overwritten, also one made while the run worked). Its
 * approval is cleared: it was given for the old text. `undefined` when the post left that state or was
 * edited meanwhile.
 */
export async function updateSyncedContent(
  w: WorkspaceDb,
  id: number,
  content: SyncedContent,
  from: SyncedPostState,
  to: SyncedPostState,
): Promise<SyncedPostRow | undefined> {
  return w.db
    .update(syncedPosts)
    .set({ ...content, state: to, ...NO_APPROVAL, updatedAt: nowIso() })
    .where(
      and(
        eq(syncedPosts.workspaceId, w.workspaceId),
        eq(syncedPosts.id, id),
        eq(syncedPosts.state, from),
        isNull(syncedPosts.editedAt),
      ),
    )
    .returning()
    .get();
}

/** Moves a post from one state to another; false when it is no longer in `from`. `error` is kept with it. */
export async function transitionSyncedPost(
  w: WorkspaceDb,
  id: number,
  from: SyncedPostState,
  to: SyncedPostState,
  error?: string,
): Promise<boolean> {
  const row = await w.db
    .update(syncedPosts)
    .set({ state: to, updatedAt: nowIso(), ...(error !== undefined ? { error } : {}) })
    .where(and(eq(syncedPosts.workspaceId, w.workspaceId), eq(syncedPosts.id, id), eq(syncedPosts.state, from)))
    .returning({ id: syncedPosts.id })
    .get();
  return row !== undefined;
}

/** A person's edit of a draft or queued post (other states are left alone: `undefined`). */
export interface DraftEdit {
  title: string;
  bodyMarkdown: string;
  bodyRichtext: unknown;
  images: SyncedPostRow["images"];
}

/**
 * Stores an edit: the post becomes (or stays) a draft, marked edited, its approval and error cleared.
 * `content_hash` keeps the hash of the source rendering, so a later run can tell the source changed since.
 * `undefined` when the post is not a draft, queued or failed post of this config, or is queued or failed with
 * a submission whose answer never came.
 */
export async function saveDraftEdit(
  w: WorkspaceDb,
  configId: number,
  id: number,
  edit: DraftEdit,
): Promise<SyncedPostRow | undefined> {
  const at = nowIso();
  return w.db
    .update(syncedPosts)
    .set({ ...edit, state: "draft", ...NO_APPROVAL, error: null, editedAt: at, updatedAt: at })
    .where(
      and(
        ofConfig(w, configId),
        eq(syncedPosts.id, id),
        or(
          eq(syncedPosts.state, "draft"),
          and(inArray(syncedPosts.state, ["queued", "failed"]), isNull(syncedPosts.submitAttemptedAt)),
        ),
      ),
    )
    .returning()
    .get();
}
