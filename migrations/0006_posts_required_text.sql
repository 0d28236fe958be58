-- A post's author, url and permalink are always strings (interface-spec 2.1 types them `string`, and marks
-- only priority and urgency nullable). The forum always gives all three: an account that no longer exists
-- is reported as the author "[deleted]". NOT NULL cannot be added to an existing SQLite column without
-- rebuilding the table, and rebuilding `posts` in D1 would cascade-delete its keyword and competitor links
-- (DROP TABLE deletes the rows first, with foreign keys on), so triggers refuse NULLs instead.
-- Written by hand: drizzle-kit does not model triggers.
-- Rows written before this migration (only demo data used NULL) get the forum's own values.
UPDATE `posts` SET `author` = '[deleted]' WHERE `author` IS NULL;
--> statement-breakpoint
UPDATE `posts` SET `permalink` = '/r/' || `subreddit` || '/comments/' || replace(`forum_id`, 't3_', '') || '/'
  WHERE `permalink` IS NULL;
--> statement-breakpoint
UPDATE `posts` SET `url` = 'https://www.reddit.com' || `permalink` WHERE `url` IS NULL;
--> statement-breakpoint
CREATE TRIGGER `posts_required_text_bi` BEFORE INSERT ON `posts`
  WHEN new.author IS NULL OR new.url IS NULL OR new.permalink IS NULL
BEGIN
  SELECT RAISE(ABORT, 'NOT NULL constraint failed: posts.author, posts.url and posts.permalink are required');
END;
--> statement-breakpoint
CREATE TRIGGER `posts_required_text_bu` BEFORE UPDATE OF author, url, permalink ON `posts`
  WHEN new.author IS NULL OR new.url IS NULL OR new.permalink IS NULL
BEGIN
  SELECT RAISE(ABORT, 'NOT NULL constraint failed: posts.author, posts.url and posts.permalink are required');
END;
