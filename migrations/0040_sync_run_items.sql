-- One row per post a real sync run handled, so a run's history shows what it did (issue 14, point 11).
-- The post's body is not copied here: it is the synced post's (synced_post_id), as it is now.
CREATE TABLE `sync_run_items` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`run_id` integer NOT NULL,
	`position` integer NOT NULL,
	`synced_post_id` integer,
	`source_url` text NOT NULL,
	`title` text,
	`action` text NOT NULL,
	`state` text,
	`warnings` text DEFAULT '[]' NOT NULL,
	`error` text,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`run_id`) REFERENCES `sync_runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sync_run_items_ws_run_idx` ON `sync_run_items` (`workspace_id`,`run_id`,`position`);
