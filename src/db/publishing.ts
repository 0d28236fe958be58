// Writes of approval and publishing on synced posts (docs/blog-sync.md, "States"). Each is conditional on the post's
// state, so a repeated or late call changes nothing it should not.
import { and, desc, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import { type AuditEventInput, auditStatementWhen } from "./audit-events";
import type { SyncedPostRow } from "./blog-sync-posts";
import { nowIso, type WorkspaceDb } from "./client";
import { type Approver, syncedPosts } from "./schema";

const post = (w: WorkspaceDb, id: number) => and(eq(syncedPosts.workspaceId, w.workspaceId), eq(syncedPosts.id, id));

export interface ApprovalRecord {
  approver: Approver;
  /** The hash of the content as the approver saw it. */
  contentHash: string;
  /** The post's updated_at when it was read: a post changed since then is not approved (undefined answer). */
  readAt: string;
  /** A draft becomes queued in the same write (an active config that publishes immediately). */
  queue: boolean;
  /** The approval's audit event (`synced_post.approved`), appended in the same write. */
  event: AuditEventInput;
}

/**
 * Approves a draft or queued post that has no approval and has not changed since it was read: who, what
 * and when, with its audit event, in one write (an earlier error of its task is cleared; a draft may become
 * queued). The post
 * as it is afterwards, or undefined when nothing was written.
 */
export async function approvePost(w: WorkspaceDb, id: number, a: ApprovalRecord): Promise<SyncedPostRow | undefined> {
  const now = nowIso();
  const approvable = and(
    post(w, id),
    inArray(syncedPosts.state, ["draft", "queued"]),
    isNull(syncedPosts.approvedAt),
    eq(syncedPosts.updatedAt, a.readAt),
  )!;
  const update = w.db
    .update(syncedPosts)
    .set({
      approvedAt: now,
      approvedBy: a.approver,
      approvedContentHash: a.contentHash,
      error: null,
      updatedAt: now,
      ...(a.queue
        ? { state: sql`CASE WHEN ${syncedPosts.state} = 'draft' THEN 'queued' ELSE ${syncedPosts.state} END` }
        : {}),
    })
    .where(approvable)
    .returning();
  const [, rows] = await w.db.batch([auditStatementWhen(w, a.event, syncedPosts, approvable), update]);
  return rows[0];
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

/**
 * queued → published with the forum's id and permalink (and the persona that published it), and its audit
 * event (`synced_post.submitted`) in the same write; its published_at, or null when it was not queued.
 */
export async function markPublished(
  w: WorkspaceDb,
  id: number,
  published: { forumPostId: string; permalink: string; publishedPersonaId?: number },
  event: AuditEventInput,
): Promise<string | null> {
  const now = nowIso();
  const queued = and(post(w, id), eq(syncedPosts.state, "queued"))!;
  const [, rows] = await w.db.batch([
    auditStatementWhen(w, event, syncedPosts, queued),
    w.db
      .update(syncedPosts)
      .set({ state: "published", ...published, error: null, publishedAt: now, updatedAt: now })
      .where(queued)
      .returning({ publishedAt: syncedPosts.publishedAt }),
  ]);
  return rows[0]?.publishedAt ?? null;
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

/**
 * Stores what visibility check `check` (0, 1, ...) found on a published post; the visibility it had before, or
 * undefined when the post is not (or no longer) published or that check (or a later one) is done already. One
 * batch: two deliveries of a check at once, one of them writes; a post found gone for the first time gets its
 * `removal` audit event in the same write.
 */
export async function recordVisibility(
  w: WorkspaceDb,
  id: number,
  found: { visibility: NonNullable<SyncedPostRow["visibility"]>; reason: string },
  check: number,
  removal: AuditEventInput,
): Promise<{ before: SyncedPostRow["visibility"]; row: SyncedPostRow } | undefined> {
  const published = and(post(w, id), eq(syncedPosts.state, "published"), lte(syncedPosts.visibilityChecksDone, check));
  // `removal` is recorded when the post is found gone for the first time: it was live or not checked yet.
  const goneNow =
    found.visibility === "live"
      ? sql`false`
      : and(published, or(isNull(syncedPosts.visibility), eq(syncedPosts.visibility, "live")))!;
  const [before, , after] = await w.db.batch([
    w.db.select({ visibility: syncedPosts.visibility }).from(syncedPosts).where(published),
    auditStatementWhen(w, removal, syncedPosts, goneNow),
    w.db
      .update(syncedPosts)
      .set({
        visibility: found.visibility,
        visibilityReason: found.reason,
        visibilityCheckedAt: nowIso(),
        visibilityChecksDone: check + 1,
      })
      .where(published)
      .returning(),
  ]);
  const row = after[0];
  return row ? { before: before[0]?.visibility ?? null, row } : undefined;
}
