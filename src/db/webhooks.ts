// Alerts (docs/alerts.md): a workspace's webhooks, their deliveries and every attempt. The sealed signing secret is
// read only by the alerts service, which opens it to sign; serializeWebhook never includes it.
import { and, desc, eq, inArray, like, lt, or, sql } from "drizzle-orm";
import type { Database, WorkspaceDb } from "./client";
import { nowIso } from "./client";
import { type PostRow, type PostView, serializePost } from "./posts";
import { POST_COLUMNS } from "./posts-query";
import { webhookAttempts, webhookDeliveries, webhooks } from "./schema";

export type WebhookRow = typeof webhooks.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;

export const serializeWebhook = (r: WebhookRow) => ({
  id: r.id,
  url: r.url,
  format: r.format,
  min_priority: r.minPriority,
  active: r.active,
  disabled_reason: r.disabledReason,
  events: r.events,
  created_at: r.createdAt,
});
export type WebhookView = ReturnType<typeof serializeWebhook>;

export const serializeDelivery = (r: DeliveryRow) => ({
  id: r.id,
  event_id: r.eventId,
  type: r.type,
  status: r.status,
  attempts: r.attempts,
  last_status_code: r.lastStatusCode,
  last_error: r.lastError,
  created_at: r.createdAt,
  last_attempt_at: r.lastAttemptAt,
  delivered_at: r.deliveredAt,
});
export type DeliveryView = ReturnType<typeof serializeDelivery>;

/** Bound parameters stay under D1's 100 per statement. */
const IDS_PER_STATEMENT = 90;

const hookInWorkspace = (w: WorkspaceDb, id: number) =>
  and(eq(webhooks.workspaceId, w.workspaceId), eq(webhooks.id, id));

export async function insertWebhook(
  w: WorkspaceDb,
  values: Pick<WebhookRow, "url" | "format" | "minPriority" | "events" | "secretSealed">,
): Promise<WebhookRow> {
  return w.db
    .insert(webhooks)
    .values({ workspaceId: w.workspaceId, ...values, createdAt: nowIso() })
    .returning()
    .get();
}

export async function listWebhookRows(w: WorkspaceDb): Promise<WebhookRow[]> {
  return w.db.select().from(webhooks).where(eq(webhooks.workspaceId, w.workspaceId)).orderBy(webhooks.id).all();
}

export async function getWebhookRow(w: WorkspaceDb, id: number): Promise<WebhookRow | undefined> {
  return w.db.select().from(webhooks).where(hookInWorkspace(w, id)).get();
}

export async function activeWebhookRows(w: WorkspaceDb): Promise<WebhookRow[]> {
  return w.db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.workspaceId, w.workspaceId), eq(webhooks.active, true)))
    .orderBy(webhooks.id)
    .all();
}

/**
 * Which of these workspaces have an active webhook: one read per database and IDS_PER_STATEMENT workspaces, so a
 * writer of many workspaces' items (the ingester) asks only those for their hooks.
 */
export async function workspacesWithActiveWebhooks(list: WorkspaceDb[]): Promise<Set<number>> {
  const byDatabase = new Map<D1Database, number[]>();
  for (const w of list) byDatabase.set(w.d1, [...(byDatabase.get(w.d1) ?? []), w.workspaceId]);
  const found = new Set<number>();
  for (const [d1, ids] of byDatabase)
    for (let i = 0; i < ids.length; i += IDS_PER_STATEMENT) {
      const chunk = ids.slice(i, i + IDS_PER_STATEMENT);
      const { results } = await d1
        .prepare(
          `SELECT DISTINCT workspace_id FROM webhooks WHERE active = 1 AND workspace_id IN (${chunk.map(() => "?").join(", ")})`,
        )
        .bind(...chunk)
        .all<{ workspace_id: number }>();
      for (const r of results) found.add(r.workspace_id);
    }
  return found;
}

/** Deletes the webhook with its deliveries and their attempts (pending ones are dropped); false when unknown. */
export async function deleteWebhook(w: WorkspaceDb, id: number): Promise<boolean> {
  const [, , removed] = await w.db.batch([
    w.db
      .delete(webhookAttempts)
      .where(
        and(
          eq(webhookAttempts.workspaceId, w.workspaceId),
          sql`${webhookAttempts.deliveryId} IN (SELECT id FROM webhook_deliveries WHERE workspace_id = ${w.workspaceId} AND webhook_id = ${id})`,
        ),
      ),
    w.db
      .delete(webhookDeliveries)
      .where(and(eq(webhookDeliveries.workspaceId, w.workspaceId), eq(webhookDeliveries.webhookId, id))),
    w.db.delete(webhooks).where(hookInWorkspace(w, id)).returning({ id: webhooks.id }),
  ]);
  return removed.length > 0;
}

/** The error of a delivery not sent because its webhook is disabled. */
const UNSENT_TO_DISABLED = "not sent: the webhook is disabled (";
export const unsentToDisabled = (reason: string | null) => `${UNSENT_TO_DISABLED}${reason ?? "no reason"})`;

/**
 * A receiver answered 410 Gone: the webhook stops (`active: false`) with the reason, and its pending deliveries
 * (those waiting for a retry included) fail now, unsent, in the same batch.
 */
export async function disableWebhook(w: WorkspaceDb, id: number, reason: string): Promise<void> {
  await w.db.batch([
    w.db.update(webhooks).set({ active: false, disabledReason: reason }).where(hookInWorkspace(w, id)),
    w.db
      .update(webhookDeliveries)
      .set({ status: "failed", lastError: unsentToDisabled(reason) })
      .where(
        and(
          eq(webhookDeliveries.workspaceId, w.workspaceId),
          eq(webhookDeliveries.webhookId, id),
          eq(webhookDeliveries.status, "pending"),
        ),
      ),
  ]);
}

/** The posts with these forum ids, as GET /posts shows them. */
export async function postViewsByForumIds(w: WorkspaceDb, forumIds: string[]): Promise<PostView[]> {
  const views: PostView[] = [];
  for (let i = 0; i < forumIds.length; i += IDS_PER_STATEMENT) {
    const chunk = forumIds.slice(i, i + IDS_PER_STATEMENT);
    const { results } = await w.d1
      .prepare(
        `SELECT ${POST_COLUMNS} FROM posts p WHERE p.workspace_id = ? AND p.forum_id IN (${chunk.map(() => "?").join(", ")})
         ORDER BY p.id`,
      )
      .bind(w.workspaceId, ...chunk)
      .all<PostRow>();
    views.push(...results.map(serializePost));
  }
  return views;
}

export interface NewDelivery {
  webhookId: number;
  eventId: string;
  type: DeliveryRow["type"];
  postId: number | null;
  /** A `synced_post.removed` delivery's synced post. */
  syncedPostId?: number;
  /** The comment a `comment.created` delivery announces (null for other events). */
  commentId?: number | null;
  payload: string;
}

/**
 * Stores pending deliveries; a post (or a removed synced post) already delivered, or being delivered, to a
 * webhook is skipped by the unique indexes, so it is never announced twice. Returns the ids of the rows written.
 */
export async function insertDeliveries(w: WorkspaceDb, rows: NewDelivery[]): Promise<number[]> {
  if (rows.length === 0) return [];
  const now = nowIso();
  const statements = rows.map((r) =>
    w.d1
      .prepare(
        `INSERT INTO webhook_deliveries (workspace_id, webhook_id, event_id, type, post_id, synced_post_id, comment_id, payload, status, created_at)
         SELECT ?, id, ?, ?, ?, ?, ?, ?, 'pending', ? FROM webhooks WHERE workspace_id = ? AND id = ? AND active = 1
         ON CONFLICT DO NOTHING RETURNING id`,
      )
      .bind(
        w.workspaceId,
        r.eventId,
        r.type,
        r.postId,
        r.syncedPostId ?? null,
        r.commentId ?? null,
        r.payload,
        now,
        w.workspaceId,
        r.webhookId,
      ),
  );
  const ids: number[] = [];
  for (let i = 0; i < statements.length; i += 50) {
    const results = await w.d1.batch<{ id: number }>(statements.slice(i, i + 50));
    for (const result of results) for (const row of result.results) ids.push(row.id);
  }
  return ids;
}

export async function getDeliveryRow(w: WorkspaceDb, id: number): Promise<DeliveryRow | undefined> {
  return w.db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.workspaceId, w.workspaceId), eq(webhookDeliveries.id, id)))
    .get();
}

export interface AttemptRecord {
  attempt: number;
  outcome: AttemptRow["outcome"];
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  at: string;
}

/**
 * Logs one attempt and moves the delivery on in one batch: `delivered`, `failed`, or still `pending` (a
 * retry follows). Only a pending delivery moves, and one a 410 to another of its webhook's deliveries failed
 * as not sent while this attempt was already under way: it was sent, so it records what the receiver said
 * (`delivered`, or `failed`: its webhook takes no retry). Returns false when the delivery had left those states.
 */
export async function recordAttempt(w: WorkspaceDb, deliveryId: number, a: AttemptRecord): Promise<boolean> {
  const status = a.outcome === "retry" ? "pending" : a.outcome;
  const settled = a.outcome === "delivered" ? "delivered" : "failed";
  const [, updated] = await w.db.batch([
    w.db.insert(webhookAttempts).values({
      workspaceId: w.workspaceId,
      deliveryId,
      attempt: a.attempt,
      outcome: a.outcome,
      statusCode: a.statusCode,
      durationMs: a.durationMs,
      error: a.error,
      attemptedAt: a.at,
    }),
    w.db
      .update(webhookDeliveries)
      .set({
        status: sql`CASE WHEN ${webhookDeliveries.status} = 'pending' THEN ${status} ELSE ${settled} END`,
        attempts: sql`${webhookDeliveries.attempts} + 1`,
        lastStatusCode: a.statusCode,
        lastError: a.error,
        lastAttemptAt: a.at,
        deliveredAt: a.outcome === "delivered" ? a.at : null,
      })
      .where(
        and(
          eq(webhookDeliveries.workspaceId, w.workspaceId),
          eq(webhookDeliveries.id, deliveryId),
          or(
            eq(webhookDeliveries.status, "pending"),
            and(
              eq(webhookDeliveries.status, "failed"),
              eq(webhookDeliveries.attempts, a.attempt - 1),
              like(webhookDeliveries.lastError, `${UNSENT_TO_DISABLED}%`),
            ),
          ),
        ),
      )
      .returning({ id: webhookDeliveries.id }),
  ]);
  return updated.length > 0;
}

/** A pending delivery that will not be attempted again becomes `failed` (its last error kept unless given). */
export async function failDelivery(w: WorkspaceDb, deliveryId: number, error?: string): Promise<boolean> {
  return (await failDeliveries(w, [deliveryId], error)) > 0;
}

/** failDelivery for many deliveries, in one batch; returns how many were pending and are failed now. */
export async function failDeliveries(w: WorkspaceDb, deliveryIds: number[], error?: string): Promise<number> {
  const statements = [];
  for (let i = 0; i < deliveryIds.length; i += IDS_PER_STATEMENT)
    statements.push(
      w.db
        .update(webhookDeliveries)
        .set({ status: "failed", ...(error === undefined ? {} : { lastError: error }) })
        .where(
          and(
            eq(webhookDeliveries.workspaceId, w.workspaceId),
            inArray(webhookDeliveries.id, deliveryIds.slice(i, i + IDS_PER_STATEMENT)),
            eq(webhookDeliveries.status, "pending"),
          ),
        )
        .returning({ id: webhookDeliveries.id }),
    );
  const [first, ...rest] = statements;
  // One batch: all of them fail, or none does (a delivery left pending is never attempted).
  if (!first) return 0;
  const results = await w.db.batch([first, ...rest]);
  return results.reduce((sum, rows) => sum + rows.length, 0);
}

/** One page of a webhook's deliveries, newest first, and how many it has in all. */
export async function listDeliveries(
  w: WorkspaceDb,
  webhookId: number,
  limit: number,
  offset: number,
): Promise<{ data: DeliveryView[]; count: number }> {
  const where = and(eq(webhookDeliveries.workspaceId, w.workspaceId), eq(webhookDeliveries.webhookId, webhookId));
  const [rows, total] = await w.db.batch([
    w.db.select().from(webhookDeliveries).where(where).orderBy(desc(webhookDeliveries.id)).limit(limit).offset(offset),
    w.db.select({ n: sql<number>`count(*)` }).from(webhookDeliveries).where(where),
  ]);
  return { data: rows.map(serializeDelivery), count: total[0]?.n ?? 0 };
}

/** Every attempt of a delivery, in order. */
export async function listAttempts(w: WorkspaceDb, deliveryId: number): Promise<AttemptRow[]> {
  return w.db
    .select()
    .from(webhookAttempts)
    .where(and(eq(webhookAttempts.workspaceId, w.workspaceId), eq(webhookAttempts.deliveryId, deliveryId)))
    .orderBy(webhookAttempts.id)
    .all();
}

/**
 * Retention (daily cron, every workspace): attempts logged before `beforeIso`, and deliveries created
 * before it with whatever attempts they have left. Returns how many of each were deleted.
 */
export async function pruneAlertHistory(
  db: Database,
  beforeIso: string,
): Promise<{ attempts: number; deliveries: number }> {
  const [attempts, , deliveries] = await db.batch([
    db.delete(webhookAttempts).where(lt(webhookAttempts.attemptedAt, beforeIso)).returning({ id: webhookAttempts.id }),
    db
      .delete(webhookAttempts)
      .where(sql`${webhookAttempts.deliveryId} IN (SELECT id FROM webhook_deliveries WHERE created_at < ${beforeIso})`),
    db
      .delete(webhookDeliveries)
      .where(lt(webhookDeliveries.createdAt, beforeIso))
      .returning({ id: webhookDeliveries.id }),
  ]);
  return { attempts: attempts.length, deliveries: deliveries.length };
}
