// Every queue message the Worker sends or consumes, as one zod union: a consumer validates each message
// before acting on it, and producers build them through these types.
import { z } from "zod";

const id = z.number().int().min(1);

/** One run of a config (the daily cron fans these out on the sync queue). */
export const SyncRunMessage = z.strictObject({
  type: z.literal("sync.run"),
  workspace_id: id,
  config_id: id,
  /** The UTC day the run was scheduled for; a finished run for the same day makes a redelivery a no-op. */
  schedule_key: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
});

/** Publishing one synced post (publish queue), carrying the config fingerprint it was queued under. */
export const PublishPostMessage = z.strictObject({
  type: z.literal("publish.post"),
  workspace_id: id,
  config_id: id,
  synced_post_id: id,
  fingerprint: z.string().regex(/^[0-9a-f]{64}$/),
});

/**
 * One visibility check of a published synced post (publish queue): check `check` of the VISIBILITY_CHECKS_S
 * delays, due at `due_at`. A message delivered before that (Queues delay at most 12 h) is sent on again.
 */
export const VisibilityCheckMessage = z.strictObject({
  type: z.literal("publish.visibility"),
  workspace_id: id,
  synced_post_id: id,
  check: z.number().int().min(0).max(99),
  due_at: z.iso.datetime(),
});

/** A backfill of a workspace's new or changed terms (a term change queues it; docs/monitoring.md, "Backfill"). */
export const MonitorPassMessage = z.strictObject({
  type: z.literal("monitor.pass"),
  workspace_id: id,
});

/**
 * Re-matching a workspace's stored posts, then its comments, after a term or an exclusion changed: one bounded
 * batch after `after_post_id`; once the posts are done, batches of comments after `after_comment_id`.
 */
export const MonitorRematchMessage = z.strictObject({
  type: z.literal("monitor.rematch"),
  workspace_id: id,
  after_post_id: z.number().int().min(0),
  after_comment_id: z.number().int().min(0).optional(),
});

/** Measuring keywords' metrics (a new keyword, or the weekly cron's stale ones). */
export const MonitorMetricsMessage = z.strictObject({
  type: z.literal("monitor.metrics"),
  workspace_id: id,
  keyword_ids: z.array(id).min(1).max(50),
});

/** One attempt of an alert delivery (docs/alerts.md): the delivery row holds the event, its webhook and its state. */
export const AlertDeliverMessage = z.strictObject({
  type: z.literal("alert.deliver"),
  workspace_id: id,
  delivery_id: id,
});

export const MonitorMessage = z.discriminatedUnion("type", [
  MonitorPassMessage,
  MonitorRematchMessage,
  MonitorMetricsMessage,
]);

export const QueueMessage = z.discriminatedUnion("type", [
  SyncRunMessage,
  PublishPostMessage,
  VisibilityCheckMessage,
  MonitorPassMessage,
  MonitorRematchMessage,
  MonitorMetricsMessage,
  AlertDeliverMessage,
]);

export type SyncRunMessage = z.infer<typeof SyncRunMessage>;
export type PublishPostMessage = z.infer<typeof PublishPostMessage>;
export type VisibilityCheckMessage = z.infer<typeof VisibilityCheckMessage>;
/** What the publish queue carries. */
export type PublishQueueMessage = PublishPostMessage | VisibilityCheckMessage;
export type MonitorPassMessage = z.infer<typeof MonitorPassMessage>;
export type MonitorRematchMessage = z.infer<typeof MonitorRematchMessage>;
export type MonitorMetricsMessage = z.infer<typeof MonitorMetricsMessage>;
export type MonitorMessage = z.infer<typeof MonitorMessage>;
export type AlertDeliverMessage = z.infer<typeof AlertDeliverMessage>;
export type QueueMessage = z.infer<typeof QueueMessage>;
