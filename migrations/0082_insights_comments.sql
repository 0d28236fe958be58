-- Comments in the day counts of mentions (docs/insights.md): mention_days.comments, kept by triggers on
-- comments and their links (migration 0074) exactly as migration 0081 keeps mention_days.posts on posts and
-- theirs. Written by hand; the code never writes mention_days.
INSERT INTO mention_days (workspace_id, kind, day, ref, comments)
  SELECT workspace_id, 'subreddit', substr(created_utc, 1, 10), subreddit, count(*) FROM comments
  WHERE true GROUP BY workspace_id, substr(created_utc, 1, 10), subreddit
  ON CONFLICT (workspace_id, kind, day, ref) DO UPDATE SET comments = excluded.comments;
--> statement-breakpoint
INSERT INTO mention_days (workspace_id, kind, day, ref, comments)
  SELECT p.workspace_id, 'keyword', substr(p.created_utc, 1, 10), CAST(pk.keyword_id AS TEXT), count(*)
  FROM comment_keywords pk JOIN comments p ON p.id = pk.comment_id
  WHERE true GROUP BY p.workspace_id, substr(p.created_utc, 1, 10), pk.keyword_id
  ON CONFLICT (workspace_id, kind, day, ref) DO UPDATE SET comments = excluded.comments;
--> statement-breakpoint
INSERT INTO mention_days (workspace_id, kind, day, ref, comments)
  SELECT p.workspace_id, 'competitor', substr(p.created_utc, 1, 10), CAST(pc.competitor_id AS TEXT), count(*)
  FROM comment_competitors pc JOIN comments p ON p.id = pc.comment_id
  WHERE true GROUP BY p.workspace_id, substr(p.created_utc, 1, 10), pc.competitor_id
  ON CONFLICT (workspace_id, kind, day, ref) DO UPDATE SET comments = excluded.comments;
--> statement-breakpoint
-- A comment counts for its subreddit from the moment it is stored.
CREATE TRIGGER `comments_mention_days_ai` AFTER INSERT ON `comments` BEGIN
  INSERT INTO mention_days (workspace_id, kind, day, ref, comments)
    VALUES (new.workspace_id, 'subreddit', substr(new.created_utc, 1, 10), new.subreddit, 1)
    ON CONFLICT (workspace_id, kind, day, ref) DO UPDATE SET comments = comments + 1;
END;
--> statement-breakpoint
-- A comment deleted takes its counts with it. BEFORE: its links are still there to be counted; the links'
-- own delete triggers (below) then find no comment and leave the counts alone.
CREATE TRIGGER `comments_mention_days_bd` BEFORE DELETE ON `comments` BEGIN
  UPDATE mention_days SET comments = comments - 1
    WHERE workspace_id = old.workspace_id AND kind = 'subreddit' AND day = substr(old.created_utc, 1, 10)
      AND ref = old.subreddit;
  UPDATE mention_days SET comments = comments - 1
    WHERE workspace_id = old.workspace_id AND kind = 'keyword' AND day = substr(old.created_utc, 1, 10)
      AND ref IN (SELECT CAST(keyword_id AS TEXT) FROM comment_keywords WHERE comment_id = old.id);
  UPDATE mention_days SET comments = comments - 1
    WHERE workspace_id = old.workspace_id AND kind = 'competitor' AND day = substr(old.created_utc, 1, 10)
      AND ref IN (SELECT CAST(competitor_id AS TEXT) FROM comment_competitors WHERE comment_id = old.id);
END;
--> statement-breakpoint
-- A comment whose day or subreddit changes moves its counts.
CREATE TRIGGER `comments_mention_days_au` AFTER UPDATE OF created_utc, subreddit ON `comments`
  WHEN substr(old.created_utc, 1, 10) IS NOT substr(new.created_utc, 1, 10) OR old.subreddit IS NOT new.subreddit
BEGIN
  UPDATE mention_days SET comments = comments - 1
    WHERE workspace_id = old.workspace_id AND kind = 'subreddit' AND day = substr(old.created_utc, 1, 10)
      AND ref = old.subreddit;
  INSERT INTO mention_days (workspace_id, kind, day, ref, comments)
    VALUES (new.workspace_id, 'subreddit', substr(new.created_utc, 1, 10), new.subreddit, 1)
    ON CONFLICT (workspace_id, kind, day, ref) DO UPDATE SET comments = comments + 1;
  UPDATE mention_days SET comments = comments - 1
    WHERE workspace_id = old.workspace_id AND kind IN ('keyword', 'competitor')
      AND day = substr(old.created_utc, 1, 10) AND substr(old.created_utc, 1, 10) IS NOT substr(new.created_utc, 1, 10)
      AND ((kind = 'keyword' AND ref IN (SELECT CAST(keyword_id AS TEXT) FROM comment_keywords WHERE comment_id = new.id))
        OR (kind = 'competitor' AND ref IN (SELECT CAST(competitor_id AS TEXT) FROM comment_competitors WHERE comment_id = new.id)));
  INSERT INTO mention_days (workspace_id, kind, day, ref, comments)
    SELECT new.workspace_id, 'keyword', substr(new.created_utc, 1, 10), CAST(keyword_id AS TEXT), 1
      FROM comment_keywords WHERE comment_id = new.id AND substr(old.created_utc, 1, 10) IS NOT substr(new.created_utc, 1, 10)
    ON CONFLICT (workspace_id, kind, day, ref) DO UPDATE SET comments = comments + 1;
  INSERT INTO mention_days (workspace_id, kind, day, ref, comments)
    SELECT new.workspace_id, 'competitor', substr(new.created_utc, 1, 10), CAST(competitor_id AS TEXT), 1
      FROM comment_competitors WHERE comment_id = new.id AND substr(old.created_utc, 1, 10) IS NOT substr(new.created_utc, 1, 10)
    ON CONFLICT (workspace_id, kind, day, ref) DO UPDATE SET comments = comments + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `comment_keywords_mention_days_ai` AFTER INSERT ON `comment_keywords` BEGIN
  INSERT INTO mention_days (workspace_id, kind, day, ref, comments)
    SELECT p.workspace_id, 'keyword', substr(p.created_utc, 1, 10), CAST(new.keyword_id AS TEXT), 1
      FROM comments p WHERE p.id = new.comment_id
    ON CONFLICT (workspace_id, kind, day, ref) DO UPDATE SET comments = comments + 1;
END;
--> statement-breakpoint
-- Only while the comment exists: its own deletion has counted its links already (comments_mention_days_bd).
CREATE TRIGGER `comment_keywords_mention_days_ad` AFTER DELETE ON `comment_keywords` BEGIN
  UPDATE mention_days SET comments = comments - 1
    WHERE (workspace_id, kind, day, ref) IN (
      SELECT p.workspace_id, 'keyword', substr(p.created_utc, 1, 10), CAST(old.keyword_id AS TEXT)
      FROM comments p WHERE p.id = old.comment_id);
END;
--> statement-breakpoint
CREATE TRIGGER `comment_competitors_mention_days_ai` AFTER INSERT ON `comment_competitors` BEGIN
  INSERT INTO mention_days (workspace_id, kind, day, ref, comments)
    SELECT p.workspace_id, 'competitor', substr(p.created_utc, 1, 10), CAST(new.competitor_id AS TEXT), 1
      FROM comments p WHERE p.id = new.comment_id
    ON CONFLICT (workspace_id, kind, day, ref) DO UPDATE SET comments = comments + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `comment_competitors_mention_days_ad` AFTER DELETE ON `comment_competitors` BEGIN
  UPDATE mention_days SET comments = comments - 1
    WHERE (workspace_id, kind, day, ref) IN (
      SELECT p.workspace_id, 'competitor', substr(p.created_utc, 1, 10), CAST(old.competitor_id AS TEXT)
      FROM comments p WHERE p.id = old.comment_id);
END;
--> statement-breakpoint
