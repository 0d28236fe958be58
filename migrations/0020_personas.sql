-- Personas (SPEC 6): a forum account of a workspace, its readiness flags and its encrypted browser session.
CREATE TABLE `personas` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`username` text NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`auth_completed` integer DEFAULT false NOT NULL,
	`browser_ready` integer DEFAULT false NOT NULL,
	`approved` integer DEFAULT false NOT NULL,
	`session_ciphertext` text NOT NULL,
	`last_checked_at` text,
	`last_error` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `personas_ws_username_unique` ON `personas` (`workspace_id`,lower("username"));--> statement-breakpoint
-- sync_configs.persona_id becomes a real reference. SQLite cannot add a foreign key to an existing column
-- without rebuilding the table (which in D1 would cascade-delete its synced posts), so triggers enforce it:
-- the persona must exist in the config's own workspace.
CREATE TRIGGER `sync_configs_persona_ref_insert` BEFORE INSERT ON `sync_configs`
WHEN NEW.persona_id IS NOT NULL AND NOT EXISTS (
	SELECT 1 FROM personas WHERE id = NEW.persona_id AND workspace_id = NEW.workspace_id)
BEGIN SELECT RAISE(ABORT, 'FOREIGN KEY constraint failed: sync_configs.persona_id'); END;--> statement-breakpoint
CREATE TRIGGER `sync_configs_persona_ref_update` BEFORE UPDATE OF persona_id ON `sync_configs`
WHEN NEW.persona_id IS NOT NULL AND NOT EXISTS (
	SELECT 1 FROM personas WHERE id = NEW.persona_id AND workspace_id = NEW.workspace_id)
BEGIN SELECT RAISE(ABORT, 'FOREIGN KEY constraint failed: sync_configs.persona_id'); END;--> statement-breakpoint
CREATE TRIGGER `personas_delete_unlinks_configs` AFTER DELETE ON `personas`
BEGIN UPDATE sync_configs SET persona_id = NULL WHERE persona_id = OLD.id; END;--> statement-breakpoint
-- The link flair a config's posts carry (SPEC 6: optional, not part of the fingerprint).
ALTER TABLE `sync_configs` ADD `flair_id` text;--> statement-breakpoint
-- Exactly-once submission: set just before a submit is sent; a retry that finds it set looks for the
-- earlier submission in the account's submitted list before it submits again.
ALTER TABLE `synced_posts` ADD `submit_attempted_at` text;
