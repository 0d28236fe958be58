-- Matched forum comments of a workspace (docs/monitoring.md "Comments", docs/storage.md): one row per
-- workspace and forum comment id, with the links to the keywords and competitors that matched it, kept the
-- way posts keep theirs (migrations 0004, 0061, 0062), so GET /comments runs the same statements as GET
-- /posts (src/db/posts-query.ts, one listing source each). `forum_id` is the comment's id without `t1_`,
-- `post_forum_id` its thread's without `t3_`. `thread_title` is the thread's title when the comment was
-- stored ('' when the forum's answer carried none and the thread was not known; refreshed later).
-- Written by hand (no drizzle-kit snapshots); schema.ts mirrors it.
CREATE TABLE `comments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`forum_id` text NOT NULL,
	`post_forum_id` text NOT NULL,
	`subreddit` text NOT NULL,
	`thread_title` text DEFAULT '' NOT NULL,
	`body` text DEFAULT '' NOT NULL,
	`author` text NOT NULL,
	`permalink` text NOT NULL,
	`score` integer DEFAULT 0 NOT NULL,
	`created_utc` text NOT NULL,
	`is_answered` integer DEFAULT false NOT NULL,
	`archived` integer DEFAULT false NOT NULL,
	`skipped` integer DEFAULT false NOT NULL,
	`priority` text,
	`urgency` text,
	`priority_rank` integer GENERATED ALWAYS AS (CASE priority WHEN 'high' THEN 3 WHEN 'medium' THEN 2 WHEN 'low' THEN 1 ELSE 0 END) VIRTUAL,
	`urgency_rank` integer GENERATED ALWAYS AS (CASE urgency WHEN 'urgent' THEN 2 WHEN 'not_urgent' THEN 1 ELSE 0 END) VIRTUAL,
	`has_competitors` integer DEFAULT false NOT NULL,
	`matched_keywords` text DEFAULT '[]' NOT NULL,
	`mentioned_competitors` text DEFAULT '[]' NOT NULL,
	`score_reasons` text DEFAULT '[]' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `comments_workspace_forum_unique` ON `comments` (`workspace_id`,`forum_id`);
--> statement-breakpoint
CREATE INDEX `comments_ws_date_idx` ON `comments` (`workspace_id`,`archived`,`created_utc`,`id`);
--> statement-breakpoint
CREATE INDEX `comments_ws_all_date_idx` ON `comments` (`workspace_id`,`created_utc`,`id`);
--> statement-breakpoint
CREATE INDEX `comments_ws_priority_idx` ON `comments` (`workspace_id`,`archived`,`priority_rank`,`created_utc`,`id`);
--> statement-breakpoint
CREATE INDEX `comments_ws_urgency_idx` ON `comments` (`workspace_id`,`archived`,`urgency_rank`,`created_utc`,`id`);
--> statement-breakpoint
CREATE INDEX `comments_ws_score_idx` ON `comments` (`workspace_id`,`archived`,`score`,`created_utc`,`id`);
--> statement-breakpoint
CREATE INDEX `comments_ws_subreddit_nocase_idx` ON `comments` (`workspace_id`,"subreddit" COLLATE NOCASE,`archived`,`created_utc`,`id`);
--> statement-breakpoint
CREATE INDEX `comments_ws_answered_idx` ON `comments` (`workspace_id`,`archived`,`is_answered`,`created_utc`,`id`);
--> statement-breakpoint
CREATE INDEX `comments_ws_competitors_idx` ON `comments` (`workspace_id`,`archived`,`has_competitors`,`created_utc`,`id`);
--> statement-breakpoint
CREATE INDEX `comments_id_filters_idx` ON `comments` (`id`,`workspace_id`,`archived`,`created_utc`);
--> statement-breakpoint
-- A thread's comments (insight counts comments per thread; refresh reads a thread's title once).
CREATE INDEX `comments_ws_thread_idx` ON `comments` (`workspace_id`,`post_forum_id`);
--> statement-breakpoint
CREATE TABLE `comment_keywords` (
	`workspace_id` integer NOT NULL,
	`comment_id` integer NOT NULL,
	`keyword_id` integer NOT NULL,
	`archived` integer DEFAULT false NOT NULL,
	`created_utc` text DEFAULT '' NOT NULL,
	PRIMARY KEY(`comment_id`, `keyword_id`),
	FOREIGN KEY (`comment_id`) REFERENCES `comments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`keyword_id`) REFERENCES `keywords`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `comment_keywords_keyword_idx` ON `comment_keywords` (`keyword_id`,`comment_id`);
--> statement-breakpoint
CREATE INDEX `comment_keywords_keyword_date_idx` ON `comment_keywords` (`keyword_id`,`workspace_id`,`archived`,`created_utc`,`comment_id`);
--> statement-breakpoint
CREATE TABLE `comment_competitors` (
	`workspace_id` integer NOT NULL,
	`comment_id` integer NOT NULL,
	`competitor_id` integer NOT NULL,
	PRIMARY KEY(`comment_id`, `competitor_id`),
	FOREIGN KEY (`comment_id`) REFERENCES `comments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`competitor_id`) REFERENCES `competitors`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `comment_competitors_competitor_idx` ON `comment_competitors` (`competitor_id`,`comment_id`);
--> statement-breakpoint
-- The names of the matched keywords and competitors on the row, sorted by name (as migration 0061 does for
-- posts), has_competitors (as 0004), and each keyword link's copy of `archived` and `created_utc` (as 0062).
CREATE TRIGGER `comment_keywords_ai` AFTER INSERT ON `comment_keywords` BEGIN
  UPDATE comment_keywords SET archived = c.archived, created_utc = c.created_utc FROM comments c
    WHERE c.id = new.comment_id AND comment_keywords.comment_id = new.comment_id AND comment_keywords.keyword_id = new.keyword_id;
  UPDATE comments SET matched_keywords = (SELECT json_group_array(keyword) FROM (SELECT k.keyword FROM comment_keywords ck
      JOIN keywords k ON k.id = ck.keyword_id WHERE ck.comment_id = new.comment_id ORDER BY k.keyword))
    WHERE id = new.comment_id;
END;
--> statement-breakpoint
CREATE TRIGGER `comment_keywords_ad` AFTER DELETE ON `comment_keywords` BEGIN
  UPDATE comments SET matched_keywords = (SELECT json_group_array(keyword) FROM (SELECT k.keyword FROM comment_keywords ck
      JOIN keywords k ON k.id = ck.keyword_id WHERE ck.comment_id = old.comment_id ORDER BY k.keyword))
    WHERE id = old.comment_id;
END;
--> statement-breakpoint
CREATE TRIGGER `keywords_comment_names_au` AFTER UPDATE OF keyword ON `keywords` WHEN old.keyword IS NOT new.keyword BEGIN
  UPDATE comments SET matched_keywords = (SELECT json_group_array(keyword) FROM (SELECT k.keyword FROM comment_keywords ck
      JOIN keywords k ON k.id = ck.keyword_id WHERE ck.comment_id = comments.id ORDER BY k.keyword))
    WHERE id IN (SELECT comment_id FROM comment_keywords WHERE keyword_id = new.id);
END;
--> statement-breakpoint
CREATE TRIGGER `comment_competitors_ai` AFTER INSERT ON `comment_competitors` BEGIN
  UPDATE comments SET has_competitors = 1, mentioned_competitors = (SELECT json_group_array(name) FROM (SELECT c.name
      FROM comment_competitors cc JOIN competitors c ON c.id = cc.competitor_id WHERE cc.comment_id = new.comment_id ORDER BY c.name))
    WHERE id = new.comment_id;
END;
--> statement-breakpoint
CREATE TRIGGER `comment_competitors_ad` AFTER DELETE ON `comment_competitors` BEGIN
  UPDATE comments SET has_competitors = EXISTS (SELECT 1 FROM comment_competitors cc WHERE cc.comment_id = old.comment_id),
    mentioned_competitors = (SELECT json_group_array(name) FROM (SELECT c.name FROM comment_competitors cc
      JOIN competitors c ON c.id = cc.competitor_id WHERE cc.comment_id = old.comment_id ORDER BY c.name))
    WHERE id = old.comment_id;
END;
--> statement-breakpoint
CREATE TRIGGER `competitors_comment_names_au` AFTER UPDATE OF name ON `competitors` WHEN old.name IS NOT new.name BEGIN
  UPDATE comments SET mentioned_competitors = (SELECT json_group_array(name) FROM (SELECT c.name FROM comment_competitors cc
      JOIN competitors c ON c.id = cc.competitor_id WHERE cc.comment_id = comments.id ORDER BY c.name))
    WHERE id IN (SELECT comment_id FROM comment_competitors WHERE competitor_id = new.id);
END;
--> statement-breakpoint
CREATE TRIGGER `comments_keyword_link_fields_au` AFTER UPDATE OF archived, created_utc ON `comments` BEGIN
  UPDATE comment_keywords SET archived = new.archived, created_utc = new.created_utc
    WHERE comment_id = new.id AND (archived IS NOT new.archived OR created_utc IS NOT new.created_utc);
END;
--> statement-breakpoint
-- A comment.created delivery names its comment, once per webhook (as post_id does for post.created).
ALTER TABLE `webhook_deliveries` ADD `comment_id` integer;
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_hook_comment_unique` ON `webhook_deliveries` (`webhook_id`,`comment_id`) WHERE `comment_id` IS NOT NULL;
