DROP INDEX `posts_ws_subreddit_idx`;--> statement-breakpoint
ALTER TABLE `posts` ADD `has_competitors` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `posts_ws_subreddit_nocase_idx` ON `posts` (`workspace_id`,"subreddit" COLLATE NOCASE,`archived`,`created_utc`,`id`);--> statement-breakpoint
CREATE INDEX `posts_ws_answered_idx` ON `posts` (`workspace_id`,`archived`,`is_answered`,`created_utc`,`id`);--> statement-breakpoint
CREATE INDEX `posts_ws_competitors_idx` ON `posts` (`workspace_id`,`archived`,`has_competitors`,`created_utc`,`id`);--> statement-breakpoint
CREATE INDEX `posts_ws_all_date_idx` ON `posts` (`workspace_id`,`created_utc`,`id`);--> statement-breakpoint
CREATE INDEX `posts_id_filters_idx` ON `posts` (`id`,`workspace_id`,`archived`,`created_utc`);