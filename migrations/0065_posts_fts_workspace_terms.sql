-- Every workspace's own vocabulary in the full-text index (issue 16, docs/scaling.md). With one shared
-- vocabulary, bm25's document frequency walked a term's (or a phrase's) hits over every workspace, and a
-- prefix query merged the document lists of every matching term of every workspace, before the rowid
-- range of migration 0060 kept the workspace's own: a search in a 1,000-post workspace ran 36-217 %
-- slower beside 1,000,000 posts of others. Now each indexed word is stored behind its workspace's tag,
-- `w` and the workspace id in eight hex digits (`w0000002apricing`), and the search tags its words the
-- same way (src/db/fts-terms.ts): a term's document list and frequency are the workspace's alone.
--
-- The words are split by FTS5 itself, so they are exactly the words the index held before: the triggers
-- put the post's text into a one-row scratch index, read its words back in order through fts5vocab
-- (already case-folded and without diacritics), write them tagged into posts_fts, and empty the scratch
-- index. Positions stay consecutive, so phrases, NEAR, `^` and column filters keep their meaning.
-- contentless_delete=1: a post's entry is deleted by rowid, with no need to rebuild its words.
-- The rowid is still `workspace_id * 2^32 + post id` (migration 0060). Written by hand: drizzle-kit does
-- not model virtual tables.
DROP TRIGGER IF EXISTS `posts_fts_ai`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `posts_fts_ad`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `posts_fts_au`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `posts_fts_tagged` USING fts5(title, selftext, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
-- The backfill reads the words of the index being replaced, in order, and tags them with the workspace in
-- the high half of their rowid.
CREATE VIRTUAL TABLE `posts_fts_old_words` USING fts5vocab(posts_fts, instance);
--> statement-breakpoint
INSERT INTO posts_fts_tagged(rowid, title, selftext)
  SELECT doc,
    group_concat(CASE WHEN col = 'title' THEN printf('w%08x', doc >> 32) || term END, ' ' ORDER BY "offset"),
    group_concat(CASE WHEN col = 'selftext' THEN printf('w%08x', doc >> 32) || term END, ' ' ORDER BY "offset")
  FROM posts_fts_old_words GROUP BY doc;
--> statement-breakpoint
DROP TABLE `posts_fts_old_words`;
--> statement-breakpoint
DROP TABLE `posts_fts`;
--> statement-breakpoint
ALTER TABLE `posts_fts_tagged` RENAME TO `posts_fts`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `posts_fts_scratch` USING fts5(title, selftext, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE VIRTUAL TABLE `posts_fts_scratch_words` USING fts5vocab(posts_fts_scratch, instance);
--> statement-breakpoint
CREATE TRIGGER `posts_fts_ai` AFTER INSERT ON `posts` BEGIN
  INSERT INTO posts_fts_scratch(rowid, title, selftext) VALUES (1, new.title, new.selftext);
  INSERT INTO posts_fts(rowid, title, selftext)
    SELECT new.workspace_id * 4294967296 + new.id,
      group_concat(CASE WHEN col = 'title' THEN printf('w%08x', new.workspace_id) || term END, ' ' ORDER BY "offset"),
      group_concat(CASE WHEN col = 'selftext' THEN printf('w%08x', new.workspace_id) || term END, ' ' ORDER BY "offset")
    FROM posts_fts_scratch_words;
  INSERT INTO posts_fts_scratch(posts_fts_scratch) VALUES ('delete-all');
END;
--> statement-breakpoint
CREATE TRIGGER `posts_fts_ad` AFTER DELETE ON `posts` BEGIN
  DELETE FROM posts_fts WHERE rowid = old.workspace_id * 4294967296 + old.id;
END;
--> statement-breakpoint
CREATE TRIGGER `posts_fts_au` AFTER UPDATE OF title, selftext ON `posts` BEGIN
  DELETE FROM posts_fts WHERE rowid = old.workspace_id * 4294967296 + old.id;
  INSERT INTO posts_fts_scratch(rowid, title, selftext) VALUES (1, new.title, new.selftext);
  INSERT INTO posts_fts(rowid, title, selftext)
    SELECT new.workspace_id * 4294967296 + new.id,
      group_concat(CASE WHEN col = 'title' THEN printf('w%08x', new.workspace_id) || term END, ' ' ORDER BY "offset"),
      group_concat(CASE WHEN col = 'selftext' THEN printf('w%08x', new.workspace_id) || term END, ' ' ORDER BY "offset")
    FROM posts_fts_scratch_words;
  INSERT INTO posts_fts_scratch(posts_fts_scratch) VALUES ('delete-all');
END;
