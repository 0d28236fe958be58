-- Full-text search of a workspace's comments, built as posts_fts is (migrations 0065 and 0066, docs/scaling.md):
-- every word tagged with its workspace (`w` + eight hex digits), a `facets` column with the subreddit and
-- archived tokens the search's filters use, bm25 weighing `facets` 0, and the rowid
-- `unixepoch(created_utc) * 2^31 + comment id`, so FTS5 keeps hits in the listing's date order. The text
-- is split by FTS5 itself through the scratch index of migration 0065 (its `selftext` column holds the
-- comment's body). Indexed: the comment's body (what was matched); the thread title is not the comment's words.
-- Written by hand: drizzle-kit does not model virtual tables, views or triggers.
CREATE VIRTUAL TABLE `comments_fts` USING fts5(body, facets, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO `comments_fts`(`comments_fts`, `rank`) VALUES ('rank', 'bm25(1.0, 0.0)');
--> statement-breakpoint
CREATE VIEW `comments_fts_writer` AS
  SELECT NULL AS fts_rowid, NULL AS workspace_id, NULL AS body, NULL AS subreddit, NULL AS archived;
--> statement-breakpoint
CREATE TRIGGER `comments_fts_writer_ii` INSTEAD OF INSERT ON `comments_fts_writer` BEGIN
  INSERT INTO posts_fts_scratch(rowid, title, selftext) VALUES (1, '', new.body);
  INSERT INTO comments_fts(rowid, body, facets)
    SELECT new.fts_rowid,
      group_concat(CASE WHEN col = 'selftext' THEN printf('w%08x', new.workspace_id) || term END, ' ' ORDER BY "offset"),
      printf('y%08xr', new.workspace_id) || lower(hex(lower(new.subreddit)))
        || printf(CASE WHEN new.archived THEN ' y%08xa' ELSE ' y%08xl' END, new.workspace_id)
    FROM posts_fts_scratch_words;
  INSERT INTO posts_fts_scratch(posts_fts_scratch) VALUES ('delete-all');
END;
--> statement-breakpoint
CREATE TRIGGER `comments_fts_ai` AFTER INSERT ON `comments` BEGIN
  SELECT RAISE(ABORT, 'comments.created_utc must be an ISO 8601 time from 1970 to 2106 and comments.id below 2^31')
    WHERE unixepoch(new.created_utc) IS NULL OR unixepoch(new.created_utc) NOT BETWEEN 0 AND 4294967295
      OR new.id >= 2147483648;
  INSERT INTO comments_fts_writer(fts_rowid, workspace_id, body, subreddit, archived)
    VALUES (unixepoch(new.created_utc) * 2147483648 + new.id, new.workspace_id, new.body, new.subreddit, new.archived);
END;
--> statement-breakpoint
CREATE TRIGGER `comments_fts_ad` AFTER DELETE ON `comments` BEGIN
  DELETE FROM comments_fts WHERE rowid = unixepoch(old.created_utc) * 2147483648 + old.id;
END;
--> statement-breakpoint
CREATE TRIGGER `comments_fts_au` AFTER UPDATE OF body, subreddit, archived, created_utc, workspace_id ON `comments`
  WHEN old.body IS NOT new.body OR old.subreddit IS NOT new.subreddit OR old.archived IS NOT new.archived
    OR old.created_utc IS NOT new.created_utc OR old.workspace_id IS NOT new.workspace_id
BEGIN
  SELECT RAISE(ABORT, 'comments.created_utc must be an ISO 8601 time from 1970 to 2106')
    WHERE unixepoch(new.created_utc) IS NULL OR unixepoch(new.created_utc) NOT BETWEEN 0 AND 4294967295;
  DELETE FROM comments_fts WHERE rowid = unixepoch(old.created_utc) * 2147483648 + old.id;
  INSERT INTO comments_fts_writer(fts_rowid, workspace_id, body, subreddit, archived)
    VALUES (unixepoch(new.created_utc) * 2147483648 + new.id, new.workspace_id, new.body, new.subreddit, new.archived);
END;
