-- The audit trail (docs/security.md, "The audit trail"): one row per consequential action, in the
-- workspace's database. Append-only: the triggers refuse every UPDATE and DELETE, and no foreign key ties
-- an event to what it names, so events outlive their targets.
CREATE TABLE `audit_events` (
  `id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  `workspace_id` integer NOT NULL,
  `at` text NOT NULL,
  `actor_type` text NOT NULL CHECK (`actor_type` IN ('person', 'key', 'admin', 'system')),
  `actor_id` text,
  `actor_name` text,
  `action` text NOT NULL,
  `target_type` text NOT NULL,
  `target_id` text,
  `details` text DEFAULT '{}' NOT NULL
);
CREATE INDEX `audit_events_workspace_idx` ON `audit_events` (`workspace_id`, `id`);
CREATE INDEX `audit_events_workspace_action_idx` ON `audit_events` (`workspace_id`, `action`, `id`);
CREATE TRIGGER `audit_events_no_update` BEFORE UPDATE ON `audit_events`
BEGIN SELECT RAISE(ABORT, 'audit events are append-only'); END;
CREATE TRIGGER `audit_events_no_delete` BEFORE DELETE ON `audit_events`
BEGIN SELECT RAISE(ABORT, 'audit events are append-only'); END;
