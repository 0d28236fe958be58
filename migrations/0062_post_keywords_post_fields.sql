-- A keyword's posts listed and counted from the links alone (issue 16, docs/scaling.md). GET /posts with
-- keyword_id walked the workspace's date index and checked every post against the keyword's links until a
-- page was full, and counted by reading every link and then each post's `archived` (23,131 rows read for
-- one page at 100,000 posts). Each link now carries its post's `archived` and `created_utc`, and the index
-- (keyword_id, workspace_id, archived, created_utc, post_id) answers both the page's ids in date order and
-- the count, reading one index entry per post.
--
-- Kept right by triggers: a link inserted (or moved to another post) takes its post's values; a post whose
-- `archived` or `created_utc` changes passes them to its links. The code never writes the columns.
-- Written by hand (no drizzle-kit snapshots); schema.ts mirrors it.
ALTER TABLE `post_keywords` ADD `archived` integer DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE `post_keywords` ADD `created_utc` text DEFAULT '' NOT NULL;
--> statement-breakpoint
UPDATE `post_keywords` SET `archived` = p.archived, `created_utc` = p.created_utc FROM posts p
  WHERE p.id = post_keywords.post_id;
--> statement-breakpoint
CREATE INDEX `post_keywords_keyword_date_idx` ON `post_keywords` (`keyword_id`,`workspace_id`,`archived`,`created_utc`,`post_id`);
--> statement-breakpoint
CREATE TRIGGER `post_keywords_post_fields_ai` AFTER INSERT ON `post_keywords` BEGIN
  UPDATE post_keywords SET archived = p.archived, created_utc = p.created_utc FROM posts p
    WHERE p.id = new.post_id AND post_keywords.post_id = new.post_id AND post_keywords.keyword_id = new.keyword_id;
END;
--> statement-breakpoint
CREATE TRIGGER `post_keywords_post_fields_au` AFTER UPDATE OF post_id ON `post_keywords` BEGIN
  UPDATE post_keywords SET archived = p.archived, created_utc = p.created_utc FROM posts p
    WHERE p.id = new.post_id AND post_keywords.post_id = new.post_id AND post_keywords.keyword_id = new.keyword_id;
END;
--> statement-breakpoint
CREATE TRIGGER `posts_keyword_link_fields_au` AFTER UPDATE OF archived, created_utc ON `posts` BEGIN
  UPDATE post_keywords SET archived = new.archived, created_utc = new.created_utc
    WHERE post_id = new.id AND (archived IS NOT new.archived OR created_utc IS NOT new.created_utc);
END;
