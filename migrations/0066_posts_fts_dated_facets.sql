-- The full-text index answers a search's filters and date order itself (issue 16, docs/scaling.md,
-- "Searches read their candidates once"). Before, every candidate hit cost three rows read: its FTS
-- entry, a lookup of its date and `archived` on the post, and a place in a sorter; a search with a
-- subreddit walked every hit of the search to find the subreddit's. Now:
--
-- * The rowid is the post's date order: `unixepoch(created_utc) * 2^31 + post id` (created_utc is whole
--   seconds from the forum; ids are below 2^31). FTS5 walks a term's hits in rowid order, so the newest
--   hits come first, in exactly the listing's order (date, then id), with no lookup. The workspace no
--   longer needs the rowid: since migration 0065 every indexed word carries the workspace's tag, so a
--   MATCH finds the workspace's posts only.
-- * A third column, `facets`, holds what a search filters on, as tokens no search word can produce
--   (`y` and the workspace in eight hex digits, then `r` and the subreddit's lower-case name in hex, and
--   `a` for an archived post or `l` for one that is not): the route adds `AND <subreddit token>` and
--   `NOT <archived token>` to the MATCH, and FTS5 intersects them inside the module, where D1 counts
--   nothing.
-- * bm25 weighs `facets` 0 (the table's `rank`), so a facet adds nothing to a post's score; its two
--   tokens do count in every document's length (two more words for every post: bm25's length
--   normalisation softens very slightly; posts of equal length keep their order).
--
-- The words are carried over from the current index through fts5vocab, as 0065 did, so no text is read
-- from `posts` again. Written by hand: drizzle-kit does not model virtual tables, views or triggers.
DROP TRIGGER IF EXISTS `posts_fts_ai`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `posts_fts_ad`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `posts_fts_au`;
--> statement-breakpoint
-- A search with a subreddit no longer looks its hits up in this index (the subreddit is a facet).
DROP INDEX IF EXISTS `posts_id_subreddit_idx`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `posts_fts_dated` USING fts5(title, selftext, facets, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO `posts_fts_dated`(`posts_fts_dated`, `rank`) VALUES ('rank', 'bm25(1.0, 1.0, 0.0)');
--> statement-breakpoint
CREATE VIRTUAL TABLE `posts_fts_old_words` USING fts5vocab(posts_fts, instance);
--> statement-breakpoint
-- The old rowid is `workspace_id * 2^32 + post id` (migration 0060); the words are already tagged.
INSERT INTO `posts_fts_dated`(rowid, title, selftext, facets)
  SELECT unixepoch(p.created_utc) * 2147483648 + p.id, w.title, w.selftext,
    printf('y%08xr', p.workspace_id) || lower(hex(lower(p.subreddit)))
      || printf(CASE WHEN p.archived THEN ' y%08xa' ELSE ' y%08xl' END, p.workspace_id)
  FROM (
    SELECT doc,
      group_concat(CASE WHEN col = 'title' THEN term END, ' ' ORDER BY "offset") AS title,
      group_concat(CASE WHEN col = 'selftext' THEN term END, ' ' ORDER BY "offset") AS selftext
    FROM posts_fts_old_words GROUP BY doc
  ) AS w
  JOIN posts p ON p.id = (w.doc & 4294967295) AND p.workspace_id = (w.doc >> 32)
  -- The rowid holds a date from 1970 to 2106 and an id below 2^31; the triggers refuse any other post, and
  -- one written before them stays out of the index rather than under a wrong rowid.
  WHERE unixepoch(p.created_utc) BETWEEN 0 AND 4294967295 AND p.id < 2147483648;
--> statement-breakpoint
-- A post with no word at all had no entry and needs none: no search can find it. (Its next edit, like
-- any new post, writes an entry with its facets alone.)
DROP TABLE `posts_fts_old_words`;
--> statement-breakpoint
DROP TABLE `posts_fts`;
--> statement-breakpoint
ALTER TABLE `posts_fts_dated` RENAME TO `posts_fts`;
--> statement-breakpoint
-- One place writes a post into the index: every trigger on `posts` inserts its row into this view, and
-- the view's INSTEAD OF trigger splits the text with FTS5's own tokenizer (the one-row scratch index of
-- migration 0065), tags the words and writes the entry.
CREATE VIEW `posts_fts_writer` AS
  SELECT NULL AS fts_rowid, NULL AS workspace_id, NULL AS title, NULL AS selftext, NULL AS subreddit, NULL AS archived;
--> statement-breakpoint
CREATE TRIGGER `posts_fts_writer_ii` INSTEAD OF INSERT ON `posts_fts_writer` BEGIN
  INSERT INTO posts_fts_scratch(rowid, title, selftext) VALUES (1, new.title, new.selftext);
  INSERT INTO posts_fts(rowid, title, selftext, facets)
    SELECT new.fts_rowid,
      group_concat(CASE WHEN col = 'title' THEN printf('w%08x', new.workspace_id) || term END, ' ' ORDER BY "offset"),
      group_concat(CASE WHEN col = 'selftext' THEN printf('w%08x', new.workspace_id) || term END, ' ' ORDER BY "offset"),
      printf('y%08xr', new.workspace_id) || lower(hex(lower(new.subreddit)))
        || printf(CASE WHEN new.archived THEN ' y%08xa' ELSE ' y%08xl' END, new.workspace_id)
    FROM posts_fts_scratch_words;
  INSERT INTO posts_fts_scratch(posts_fts_scratch) VALUES ('delete-all');
END;
--> statement-breakpoint
-- The rowid needs a readable date and an id below 2^31; a post without them is refused, not indexed
-- under a wrong rowid.
CREATE TRIGGER `posts_fts_ai` AFTER INSERT ON `posts` BEGIN
  SELECT RAISE(ABORT, 'posts.created_utc must be an ISO 8601 time from 1970 to 2106 and posts.id below 2^31')
    WHERE unixepoch(new.created_utc) IS NULL OR unixepoch(new.created_utc) NOT BETWEEN 0 AND 4294967295
      OR new.id >= 2147483648;
  INSERT INTO posts_fts_writer(fts_rowid, workspace_id, title, selftext, subreddit, archived)
    VALUES (unixepoch(new.created_utc) * 2147483648 + new.id, new.workspace_id, new.title, new.selftext, new.subreddit, new.archived);
END;
--> statement-breakpoint
CREATE TRIGGER `posts_fts_ad` AFTER DELETE ON `posts` BEGIN
  DELETE FROM posts_fts WHERE rowid = unixepoch(old.created_utc) * 2147483648 + old.id;
END;
--> statement-breakpoint
-- Only when something the index holds changed: an upsert that rewrites the same title costs nothing.
CREATE TRIGGER `posts_fts_au` AFTER UPDATE OF title, selftext, subreddit, archived, created_utc, workspace_id ON `posts`
  WHEN old.title IS NOT new.title OR old.selftext IS NOT new.selftext OR old.subreddit IS NOT new.subreddit
    OR old.archived IS NOT new.archived OR old.created_utc IS NOT new.created_utc OR old.workspace_id IS NOT new.workspace_id
BEGIN
  SELECT RAISE(ABORT, 'posts.created_utc must be an ISO 8601 time from 1970 to 2106')
    WHERE unixepoch(new.created_utc) IS NULL OR unixepoch(new.created_utc) NOT BETWEEN 0 AND 4294967295;
  DELETE FROM posts_fts WHERE rowid = unixepoch(old.created_utc) * 2147483648 + old.id;
  INSERT INTO posts_fts_writer(fts_rowid, workspace_id, title, selftext, subreddit, archived)
    VALUES (unixepoch(new.created_utc) * 2147483648 + new.id, new.workspace_id, new.title, new.selftext, new.subreddit, new.archived);
END;
