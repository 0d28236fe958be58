// The audit trail (docs/security.md, "The audit trail"): one append-only event per consequential action,
// in the workspace's database. Nothing here (or anywhere) updates or deletes an event; the table's triggers
// refuse it too. Events name their target by type and id only, so they outlive what they name.
import { and, count, desc, eq, gte, type SQL, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Actor } from "../lib/role";
import type { WorkspaceDb } from "./client";
import { auditEvents } from "./schema-people";

export const AUDIT_ACTIONS = [
  "synced_post.approved",
  "synced_post.submitted",
  "synced_post.removed",
  "persona.connected",
  "persona.deleted",
  "persona.approved",
  "persona.revoked",
  "key.created",
  "key.revoked",
  "member.invited",
  "member.joined",
  "member.role_changed",
  "member.removed",
  "sync_config.created",
  "sync_config.updated",
  "sync_config.deleted",
  "webhook.created",
  "webhook.deleted",
  "exclusions.updated",
  "sign_in.limited",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditEventInput {
  actor: Actor;
  action: AuditAction;
  target: { type: string; id: string | number | null };
  details?: Record<string, unknown>;
}

export interface AuditEventView {
  id: number;
  at: string;
  actor: Actor;
  action: AuditAction;
  target: { type: string; id: string | null };
  details: Record<string, unknown>;
}

const rowOf = (workspaceId: number, event: AuditEventInput) => ({
  workspaceId,
  at: new Date().toISOString(),
  actorType: event.actor.type,
  actorId: event.actor.id,
  actorName: event.actor.name,
  action: event.action,
  targetType: event.target.type,
  targetId: event.target.id === null ? null : String(event.target.id),
  details: event.details ?? {},
});

/** The statement that appends one event, for a caller's db.batch (the action and its event in one write). */
export const auditStatement = (w: WorkspaceDb, event: AuditEventInput) =>
  w.db.insert(auditEvents).values(rowOf(w.workspaceId, event));

/**
 * The statement that appends one event when `table` has a row where `when` holds, for a db.batch that puts it
 * just before the conditional update guarded by the same `when`: the change and its event are written
 * together, or neither (a repeated or late call changes nothing and records nothing).
 */
export function auditStatementWhen(w: WorkspaceDb, event: AuditEventInput, table: SQLiteTable, when: SQL) {
  const row = rowOf(w.workspaceId, event);
  return w.db.insert(auditEvents).select((qb) =>
    qb
      .select({
        id: sql<number>`null`.as("id"),
        workspaceId: sql<number>`${row.workspaceId}`.as("workspace_id"),
        at: sql<string>`${row.at}`.as("at"),
        actorType: sql<Actor["type"]>`${row.actorType}`.as("actor_type"),
        actorId: sql<string | null>`${row.actorId}`.as("actor_id"),
        actorName: sql<string>`${row.actorName}`.as("actor_name"),
        action: sql<string>`${row.action}`.as("action"),
        targetType: sql<string>`${row.targetType}`.as("target_type"),
        targetId: sql<string | null>`${row.targetId}`.as("target_id"),
        details: sql<Record<string, unknown>>`${JSON.stringify(row.details)}`.as("details"),
      })
      .from(table)
      .where(when)
      .limit(1),
  );
}

/** Appends one event. */
export async function recordAudit(w: WorkspaceDb, event: AuditEventInput): Promise<void> {
  await auditStatement(w, event).run();
}

export interface AuditFilters {
  action?: string;
  actorType?: Actor["type"];
  actorId?: string;
  since?: string;
}

function view(row: typeof auditEvents.$inferSelect): AuditEventView {
  return {
    id: row.id,
    at: row.at,
    actor: { type: row.actorType, id: row.actorId, name: row.actorName ?? "" },
    action: row.action as AuditAction,
    target: { type: row.targetType, id: row.targetId },
    details: row.details,
  };
}

/** A page of the workspace's events, newest first, and how many match. */
export async function listAuditEvents(
  w: WorkspaceDb,
  filters: AuditFilters,
  page: { limit: number; offset: number },
): Promise<{ data: AuditEventView[]; count: number }> {
  const conditions: SQL[] = [eq(auditEvents.workspaceId, w.workspaceId)];
  if (filters.action) conditions.push(eq(auditEvents.action, filters.action));
  if (filters.actorType) conditions.push(eq(auditEvents.actorType, filters.actorType));
  if (filters.actorId) conditions.push(eq(auditEvents.actorId, filters.actorId));
  if (filters.since) conditions.push(gte(auditEvents.at, filters.since));
  const where = and(...conditions);
  const [rows, total] = await Promise.all([
    w.db
      .select()
      .from(auditEvents)
      .where(where)
      .orderBy(desc(auditEvents.id))
      .limit(page.limit)
      .offset(page.offset)
      .all(),
    w.db.select({ n: count() }).from(auditEvents).where(where).get(),
  ]);
  return { data: rows.map(view), count: total?.n ?? 0 };
}

/** `sync_config.created` or `.updated` for a config just saved (the API's create-or-update and the console's forms). */
export const recordConfigSaved = (
  w: WorkspaceDb,
  actor: Actor,
  config: { id: number; blog_url: string; subreddit: string },
  created: boolean,
) =>
  recordAudit(w, {
    actor,
    action: created ? "sync_config.created" : "sync_config.updated",
    target: { type: "sync_config", id: config.id },
    details: { blog_url: config.blog_url, subreddit: config.subreddit },
  });
