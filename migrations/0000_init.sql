CREATE TABLE `api_keys` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`name` text NOT NULL,
	`key_hash` text NOT NULL,
	`prefix` text NOT NULL,
	`scope` text NOT NULL,
	`expires_at` text,
	`revoked_at` text,
	`last_used_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_key_hash_unique` ON `api_keys` (`key_hash`);--> statement-breakpoint
CREATE INDEX `api_keys_workspace_idx` ON `api_keys` (`workspace_id`);--> statement-breakpoint
CREATE INDEX `api_keys_expires_idx` ON `api_keys` (`expires_at`);--> statement-breakpoint
CREATE TABLE `competitors` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`name` text NOT NULL,
	`website_url` text,
	`keywords` text DEFAULT '[]' NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`is_ambiguous` integer DEFAULT false NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `competitors_workspace_name_unique` ON `competitors` (`workspace_id`,lower("name"));--> statement-breakpoint
CREATE TABLE `keywords` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`keyword` text NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`is_ambiguous` integer DEFAULT false NOT NULL,
	`search_volume` integer,
	`cpc` text,
	`serp_forum_position` integer,
	`serp_forum_url` text,
	`serp_checked_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `keywords_workspace_keyword_unique` ON `keywords` (`workspace_id`,lower("keyword"));--> statement-breakpoint
CREATE TABLE `post_competitors` (
	`workspace_id` integer NOT NULL,
	`post_id` integer NOT NULL,
	`competitor_id` integer NOT NULL,
	PRIMARY KEY(`post_id`, `competitor_id`),
	FOREIGN KEY (`post_id`) REFERENCES `posts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`competitor_id`) REFERENCES `competitors`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `post_competitors_competitor_idx` ON `post_competitors` (`competitor_id`,`post_id`);--> statement-breakpoint
CREATE TABLE `post_keywords` (
	`workspace_id` integer NOT NULL,
	`post_id` integer NOT NULL,
	`keyword_id` integer NOT NULL,
	PRIMARY KEY(`post_id`, `keyword_id`),
	FOREIGN KEY (`post_id`) REFERENCES `posts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`keyword_id`) REFERENCES `keywords`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `post_keywords_keyword_idx` ON `post_keywords` (`keyword_id`,`post_id`);--> statement-breakpoint
CREATE TABLE `posts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`forum_id` text NOT NULL,
	`subreddit` text NOT NULL,
	`title` text NOT NULL,
	`selftext` text DEFAULT '' NOT NULL,
	`author` text,
	`url` text,
	`score` integer DEFAULT 0 NOT NULL,
	`num_comments` integer DEFAULT 0 NOT NULL,
	`created_utc` text NOT NULL,
	`permalink` text,
	`is_answered` integer DEFAULT false NOT NULL,
	`archived` integer DEFAULT false NOT NULL,
	`skipped` integer DEFAULT false NOT NULL,
	`priority` text,
	`urgency` text,
	`priority_rank` integer GENERATED ALWAYS AS (CASE priority WHEN 'high' THEN 3 WHEN 'medium' THEN 2 WHEN 'low' THEN 1 ELSE 0 END) VIRTUAL,
	`urgency_rank` integer GENERATED ALWAYS AS (CASE urgency WHEN 'urgent' THEN 2 WHEN 'not_urgent' THEN 1 ELSE 0 END) VIRTUAL,
	`score_reasons` text DEFAULT '[]' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `posts_workspace_forum_unique` ON `posts` (`workspace_id`,`forum_id`);--> statement-breakpoint
CREATE INDEX `posts_ws_date_idx` ON `posts` (`workspace_id`,`archived`,`created_utc`,`id`);--> statement-breakpoint
CREATE INDEX `posts_ws_priority_idx` ON `posts` (`workspace_id`,`archived`,`priority_rank`,`created_utc`,`id`);--> statement-breakpoint
CREATE INDEX `posts_ws_urgency_idx` ON `posts` (`workspace_id`,`archived`,`urgency_rank`,`created_utc`,`id`);--> statement-breakpoint
CREATE INDEX `posts_ws_score_idx` ON `posts` (`workspace_id`,`archived`,`score`,`created_utc`,`id`);--> statement-breakpoint
CREATE INDEX `posts_ws_comments_idx` ON `posts` (`workspace_id`,`archived`,`num_comments`,`created_utc`,`id`);--> statement-breakpoint
CREATE INDEX `posts_ws_subreddit_idx` ON `posts` (`workspace_id`,`subreddit`,`archived`,`created_utc`,`id`);--> statement-breakpoint
CREATE TABLE `workspaces` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
