-- Monitoring (SPEC 10): the record of every ingestion pass of a workspace, and where each search query of the
-- workspace stopped (the newest posts a finished scan saw, or the page a partial pass must resume from).
-- Written by hand (the helpers' rule: no drizzle-kit snapshots); schema.ts mirrors it.
CREATE TABLE `monitor_runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`trigger` text NOT NULL,
	`status` text NOT NULL,
	`requests` integer DEFAULT 0 NOT NULL,
	`queries` integer DEFAULT 0 NOT NULL,
	`fetched` integer DEFAULT 0 NOT NULL,
	`matched` integer DEFAULT 0 NOT NULL,
	`created` integer DEFAULT 0 NOT NULL,
	`updated` integer DEFAULT 0 NOT NULL,
	`error` text,
	`started_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`finished_at` text,
	`lease_until` text NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `monitor_runs_ws_idx` ON `monitor_runs` (`workspace_id`,`id`);
--> statement-breakpoint
CREATE INDEX `monitor_runs_ws_status_idx` ON `monitor_runs` (`workspace_id`,`status`);
--> statement-breakpoint
CREATE TABLE `monitor_cursors` (
	`workspace_id` integer NOT NULL,
	`query` text NOT NULL,
	`seen_ids` text DEFAULT '[]' NOT NULL,
	`resume_after` text,
	`resume_pages` integer DEFAULT 0 NOT NULL,
	`pending_ids` text,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`workspace_id`, `query`),
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- (Stored posts younger than three days, refreshed every pass, are found through posts_ws_all_date_idx.)
-- The weekly keyword-metrics cron reads the keywords whose metrics are stale across all workspaces.
CREATE INDEX `keywords_serp_checked_idx` ON `keywords` (`serp_checked_at`);
