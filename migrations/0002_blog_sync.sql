CREATE TABLE `sync_configs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`blog_url` text NOT NULL,
	`subreddit` text NOT NULL,
	`persona_id` integer,
	`include_media` integer DEFAULT false NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`publish_immediately` integer DEFAULT false NOT NULL,
	`max_posts` integer DEFAULT 5 NOT NULL,
	`fingerprint` text NOT NULL,
	`revision` integer DEFAULT 1 NOT NULL,
	`last_run_at` text,
	`last_error` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sync_configs_ws_blog_subreddit_unique` ON `sync_configs` (`workspace_id`,`blog_url`,lower("subreddit"));--> statement-breakpoint
CREATE INDEX `sync_configs_active_idx` ON `sync_configs` (`workspace_id`,`active`);--> statement-breakpoint
CREATE TABLE `sync_runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`config_id` integer NOT NULL,
	`trigger` text NOT NULL,
	`schedule_key` text,
	`status` text NOT NULL,
	`publish` integer NOT NULL,
	`max_posts` integer NOT NULL,
	`fingerprint` text NOT NULL,
	`source_kind` text,
	`source_url` text,
	`discovered` integer DEFAULT 0 NOT NULL,
	`created` integer DEFAULT 0 NOT NULL,
	`updated` integer DEFAULT 0 NOT NULL,
	`unchanged` integer DEFAULT 0 NOT NULL,
	`queued` integer DEFAULT 0 NOT NULL,
	`failed` integer DEFAULT 0 NOT NULL,
	`error` text,
	`started_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`finished_at` text,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`config_id`) REFERENCES `sync_configs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sync_runs_ws_config_idx` ON `sync_runs` (`workspace_id`,`config_id`,`started_at`);--> statement-breakpoint
CREATE INDEX `sync_runs_schedule_idx` ON `sync_runs` (`config_id`,`schedule_key`);--> statement-breakpoint
CREATE TABLE `synced_posts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`config_id` integer NOT NULL,
	`source_url` text NOT NULL,
	`title` text NOT NULL,
	`body_markdown` text NOT NULL,
	`body_richtext` text,
	`images` text DEFAULT '[]' NOT NULL,
	`content_hash` text NOT NULL,
	`state` text DEFAULT 'draft' NOT NULL,
	`approved_at` text,
	`forum_post_id` text,
	`permalink` text,
	`error` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`published_at` text,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`config_id`) REFERENCES `sync_configs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `synced_posts_config_source_unique` ON `synced_posts` (`config_id`,`source_url`);--> statement-breakpoint
CREATE INDEX `synced_posts_ws_config_state_idx` ON `synced_posts` (`workspace_id`,`config_id`,`state`);