-- Targeting (docs/monitoring.md "Targeting" and "Exclusions"): a keyword or competitor may be limited to
-- some subreddits (a JSON array of names; empty: everywhere), and a workspace may exclude terms,
-- subreddits and authors (one row per workspace, JSON arrays; no row: nothing excluded).
-- Written by hand (no drizzle-kit snapshots); schema.ts mirrors it.
ALTER TABLE `keywords` ADD `subreddits` text DEFAULT '[]' NOT NULL;
--> statement-breakpoint
ALTER TABLE `competitors` ADD `subreddits` text DEFAULT '[]' NOT NULL;
--> statement-breakpoint
CREATE TABLE `monitor_exclusions` (
	`workspace_id` integer PRIMARY KEY NOT NULL,
	`terms` text DEFAULT '[]' NOT NULL,
	`subreddits` text DEFAULT '[]' NOT NULL,
	`authors` text DEFAULT '[]' NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
