-- Insight (docs/insights.md): mentions per day kept as counts, and each post's opportunity value.
-- Written by hand (no drizzle-kit snapshots); schema.ts mirrors it. The code never writes mention_days or
-- posts.value: the triggers below keep both right whatever writes posts, their links or keyword metrics.
--
-- mention_days: one row per workspace, kind, key and UTC day with the number of stored posts (and comments,
-- migration 0082) created that day that mention the key. `ref` is the keyword's or competitor's id written
-- as decimal text, or the subreddit's name. GET /insights/mentions reads the rows of its range from the
-- primary key (workspace, kind, day, ref): one row per key and day with a mention, never one per post.
CREATE TABLE `mention_days` (
	`workspace_id` integer NOT NULL,
	`kind` text NOT NULL CHECK (`kind` IN ('keyword', 'competitor', 'subreddit')),
	`day` text NOT NULL,
	`ref` text NOT NULL,
	`posts` integer DEFAULT 0 NOT NULL,
	`comments` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY (`workspace_id`, `kind`, `day`, `ref`),
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO mention_days (workspace_id, kind, day, ref, posts)
  SELECT workspace_id, 'subreddit', substr(created_utc, 1, 10), subreddit, count(*) FROM posts
  GROUP BY workspace_id, substr(created_utc, 1, 10), subreddit;
--> statement-breakpoint
INSERT INTO mention_days (workspace_id, kind, day, ref, posts)
  SELECT p.workspace_id, 'keyword', substr(p.created_utc, 1, 10), CAST(pk.keyword_id AS TEXT), count(*)
  FROM post_keywords pk JOIN posts p ON p.id = pk.post_id
  GROUP BY p.workspace_id, substr(p.created_utc, 1, 10), pk.keyword_id;
--> statement-breakpoint
INSERT INTO mention_days (workspace_id, kind, day, ref, posts)
  SELECT p.workspace_id, 'competitor', substr(p.created_utc, 1, 10), CAST(pc.competitor_id AS TEXT), count(*)
  FROM post_competitors pc JOIN posts p ON p.id = pc.post_id
  GROUP BY p.workspace_id, substr(p.created_utc, 1, 10), pc.competitor_id;
--> statement-breakpoint
-- A post counts for its subreddit from the moment it is stored.
CREATE TRIGGER `posts_mention_days_ai` AFTER INSERT ON `posts` BEGIN
  INSERT INTO mention_days (workspace_id, kind, day, ref, posts)
    VALUES (new.workspace_id, 'subreddit', substr(new.created_utc, 1, 10), new.subreddit, 1)
    ON CONFLICT (workspace_id, kind, day, ref) DO UPDATE SET posts = posts + 1;
END;
--> statement-breakpoint
-- A post deleted takes its counts with it. BEFORE: its links are still there to be counted; the links'
-- own delete triggers (below) then find no post and leave the counts alone.
CREATE TRIGGER `posts_mention_days_bd` BEFORE DELETE ON `posts` BEGIN
  UPDATE mention_days SET posts = posts - 1
    WHERE workspace_id = old.workspace_id AND kind = 'subreddit' AND day = substr(old.created_utc, 1, 10)
      AND ref = old.subreddit;
  UPDATE mention_days SET posts = posts - 1
    WHERE workspace_id = old.workspace_id AND kind = 'keyword' AND day = substr(old.created_utc, 1, 10)
      AND ref IN (SELECT CAST(keyword_id AS TEXT) FROM post_keywords WHERE post_id = old.id);
  UPDATE mention_days SET posts = posts - 1
    WHERE workspace_id = old.workspace_id AND kind = 'competitor' AND day = substr(old.created_utc, 1, 10)
      AND ref IN (SELECT CAST(competitor_id AS TEXT) FROM post_competitors WHERE post_id = old.id);
END;
--> statement-breakpoint
-- A post whose day or subreddit changes moves its counts (the forum does not change either; kept exact anyway).
CREATE TRIGGER `posts_mention_days_au` AFTER UPDATE OF created_utc, subreddit ON `posts`
  WHEN substr(old.created_utc, 1, 10) IS NOT substr(new.created_utc, 1, 10) OR old.subreddit IS NOT new.subreddit
BEGIN
  UPDATE mention_days SET posts = posts - 1
    WHERE workspace_id = old.workspace_id AND kind = 'subreddit' AND day = substr(old.created_utc, 1, 10)
      AND ref = old.subreddit;
  INSERT INTO mention_days (workspace_id, kind, day, ref, posts)
    VALUES (new.workspace_id, 'subreddit', substr(new.created_utc, 1, 10), new.subreddit, 1)
    ON CONFLICT (workspace_id, kind, day, ref) DO UPDATE SET posts = posts + 1;
  UPDATE mention_days SET posts = posts - 1
    WHERE workspace_id = old.workspace_id AND kind IN ('keyword', 'competitor')
      AND day = substr(old.created_utc, 1, 10) AND substr(old.created_utc, 1, 10) IS NOT substr(new.created_utc, 1, 10)
      AND ((kind = 'keyword' AND ref IN (SELECT CAST(keyword_id AS TEXT) FROM post_keywords WHERE post_id = new.id))
        OR (kind = 'competitor' AND ref IN (SELECT CAST(competitor_id AS TEXT) FROM post_competitors WHERE post_id = new.id)));
  INSERT INTO mention_days (workspace_id, kind, day, ref, posts)
    SELECT new.workspace_id, 'keyword', substr(new.created_utc, 1, 10), CAST(keyword_id AS TEXT), 1
      FROM post_keywords WHERE post_id = new.id AND substr(old.created_utc, 1, 10) IS NOT substr(new.created_utc, 1, 10)
    ON CONFLICT (workspace_id, kind, day, ref) DO UPDATE SET posts = posts + 1;
  INSERT INTO mention_days (workspace_id, kind, day, ref, posts)
    SELECT new.workspace_id, 'competitor', substr(new.created_utc, 1, 10), CAST(competitor_id AS TEXT), 1
      FROM post_competitors WHERE post_id = new.id AND substr(old.created_utc, 1, 10) IS NOT substr(new.created_utc, 1, 10)
    ON CONFLICT (workspace_id, kind, day, ref) DO UPDATE SET posts = posts + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `post_keywords_mention_days_ai` AFTER INSERT ON `post_keywords` BEGIN
  INSERT INTO mention_days (workspace_id, kind, day, ref, posts)
    SELECT p.workspace_id, 'keyword', substr(p.created_utc, 1, 10), CAST(new.keyword_id AS TEXT), 1
      FROM posts p WHERE p.id = new.post_id
    ON CONFLICT (workspace_id, kind, day, ref) DO UPDATE SET posts = posts + 1;
END;
--> statement-breakpoint
-- Only while the post exists: a post's own deletion has counted its links already (posts_mention_days_bd).
CREATE TRIGGER `post_keywords_mention_days_ad` AFTER DELETE ON `post_keywords` BEGIN
  UPDATE mention_days SET posts = posts - 1
    WHERE (workspace_id, kind, day, ref) IN (
      SELECT p.workspace_id, 'keyword', substr(p.created_utc, 1, 10), CAST(old.keyword_id AS TEXT)
      FROM posts p WHERE p.id = old.post_id);
END;
--> statement-breakpoint
CREATE TRIGGER `post_competitors_mention_days_ai` AFTER INSERT ON `post_competitors` BEGIN
  INSERT INTO mention_days (workspace_id, kind, day, ref, posts)
    SELECT p.workspace_id, 'competitor', substr(p.created_utc, 1, 10), CAST(new.competitor_id AS TEXT), 1
      FROM posts p WHERE p.id = new.post_id
    ON CONFLICT (workspace_id, kind, day, ref) DO UPDATE SET posts = posts + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `post_competitors_mention_days_ad` AFTER DELETE ON `post_competitors` BEGIN
  UPDATE mention_days SET posts = posts - 1
    WHERE (workspace_id, kind, day, ref) IN (
      SELECT p.workspace_id, 'competitor', substr(p.created_utc, 1, 10), CAST(old.competitor_id AS TEXT)
      FROM posts p WHERE p.id = old.post_id);
END;
--> statement-breakpoint
-- Opportunity value. The click-through rate of an organic search result by its position (docs/insights.md
-- cites the study and its numbers); a position past the table is worth 0.005.
CREATE TABLE `click_through_rates` (
	`position` integer PRIMARY KEY NOT NULL,
	`rate` real NOT NULL
);
--> statement-breakpoint
INSERT INTO click_through_rates (position, rate) VALUES
  (1, 0.3173), (2, 0.2471), (3, 0.1866), (4, 0.1360), (5, 0.0951),
  (6, 0.0623), (7, 0.0415), (8, 0.0312), (9, 0.0297), (10, 0.0309),
  (11, 0.01), (12, 0.01), (13, 0.01), (14, 0.01), (15, 0.01),
  (16, 0.01), (17, 0.01), (18, 0.01), (19, 0.01), (20, 0.01);
--> statement-breakpoint
-- The thread a keyword's search-engine forum result points at, as a permalink is written: the scheme and a
-- reddit.com host (www., old., new. or none) taken off, trailing slashes too (the score's comparison,
-- src/monitor/score.ts, does the same).
ALTER TABLE `keywords` ADD `serp_forum_path` text GENERATED ALWAYS AS (rtrim(CASE
    WHEN serp_forum_url LIKE 'https://reddit.com%' THEN substr(serp_forum_url, 19)
    WHEN serp_forum_url LIKE 'http://reddit.com%' THEN substr(serp_forum_url, 18)
    WHEN serp_forum_url LIKE 'https://www.reddit.com%' OR serp_forum_url LIKE 'https://old.reddit.com%'
      OR serp_forum_url LIKE 'https://new.reddit.com%' THEN substr(serp_forum_url, 23)
    WHEN serp_forum_url LIKE 'http://www.reddit.com%' OR serp_forum_url LIKE 'http://old.reddit.com%'
      OR serp_forum_url LIKE 'http://new.reddit.com%' THEN substr(serp_forum_url, 22)
    ELSE serp_forum_url END, '/')) VIRTUAL;
--> statement-breakpoint
-- US$ a month: for each matched keyword whose forum result is this thread, volume x CTR(position) x CPC,
-- summed; when none is, the best keyword's volume x CPC x 0.005; null when no matched keyword has both a
-- volume and a CPC. Rounded to cents.
ALTER TABLE `posts` ADD `value` real;
--> statement-breakpoint
CREATE VIEW `post_values` AS
  SELECT l.post_id AS post_id,
    coalesce(round(sum(CASE WHEN k.serp_forum_position IS NOT NULL AND k.serp_forum_path = rtrim(p.permalink, '/')
        THEN k.search_volume * CAST(k.cpc AS REAL) * coalesce(c.rate, 0.005) END), 2),
      round(max(k.search_volume * CAST(k.cpc AS REAL)) * 0.005, 2)) AS value
  FROM post_keywords l JOIN posts p ON p.id = l.post_id JOIN keywords k ON k.id = l.keyword_id
    LEFT JOIN click_through_rates c ON c.position = k.serp_forum_position
  GROUP BY l.post_id;
--> statement-breakpoint
UPDATE posts SET value = v.value FROM post_values v WHERE posts.id = v.post_id;
--> statement-breakpoint
CREATE TRIGGER `post_keywords_value_ai` AFTER INSERT ON `post_keywords` BEGIN
  UPDATE posts SET value = (SELECT v.value FROM post_values v WHERE v.post_id = new.post_id) WHERE id = new.post_id;
END;
--> statement-breakpoint
CREATE TRIGGER `post_keywords_value_ad` AFTER DELETE ON `post_keywords` BEGIN
  UPDATE posts SET value = (SELECT v.value FROM post_values v WHERE v.post_id = old.post_id) WHERE id = old.post_id;
END;
--> statement-breakpoint
CREATE TRIGGER `posts_value_permalink_au` AFTER UPDATE OF permalink ON `posts`
  WHEN old.permalink IS NOT new.permalink
BEGIN
  UPDATE posts SET value = (SELECT v.value FROM post_values v WHERE v.post_id = new.id) WHERE id = new.id;
END;
--> statement-breakpoint
-- New metrics (the weekly measurement) re-value every post that matched the keyword.
CREATE TRIGGER `keywords_value_au` AFTER UPDATE OF search_volume, cpc, serp_forum_position, serp_forum_url ON `keywords`
  WHEN old.search_volume IS NOT new.search_volume OR old.cpc IS NOT new.cpc
    OR old.serp_forum_position IS NOT new.serp_forum_position OR old.serp_forum_url IS NOT new.serp_forum_url
BEGIN
  -- The view's expression again, over this keyword's posts only (SQLite does not push an IN list into a
  -- grouped view: through the view this would read every link of the database).
  UPDATE posts SET value = v.value FROM (
    SELECT l.post_id AS post_id,
      coalesce(round(sum(CASE WHEN k.serp_forum_position IS NOT NULL AND k.serp_forum_path = rtrim(p.permalink, '/')
          THEN k.search_volume * CAST(k.cpc AS REAL) * coalesce(c.rate, 0.005) END), 2),
        round(max(k.search_volume * CAST(k.cpc AS REAL)) * 0.005, 2)) AS value
    FROM post_keywords l JOIN posts p ON p.id = l.post_id JOIN keywords k ON k.id = l.keyword_id
      LEFT JOIN click_through_rates c ON c.position = k.serp_forum_position
    WHERE l.post_id IN (SELECT post_id FROM post_keywords WHERE keyword_id = new.id)
    GROUP BY l.post_id) v
  WHERE posts.id = v.post_id;
END;
--> statement-breakpoint
-- GET /insights/opportunities: the open posts with a value, highest first, read from this index alone
-- until the page's rows.
CREATE INDEX `posts_ws_open_value_idx` ON `posts` (`workspace_id`, `value`, `created_utc`, `id`)
  WHERE `is_answered` = 0 AND `archived` = 0 AND `skipped` = 0 AND `value` IS NOT NULL;
