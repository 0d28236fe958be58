-- Every workspace its own vocabulary inside posts_fts (issue 16, docs/scaling.md, "Searches"). Since migration
-- 0060 a search reads only its workspace's rowid range, but FTS5 still walks each term's whole doclist (every
-- workspace's entries) for bm25's document frequency, and a prefix query merges the doclists of every
-- matching term of every workspace: a search in a small workspace slowed down beside others' posts.
--
-- Now each indexed token carries its workspace as a fixed-width tag, `printf('w%08x', workspace_id) || token`
-- ("w00000003mailchimp"), so a term's doclist, its document frequency and a prefix's terms are the
-- workspace's own. The query side adds the same tag to every word of the user's query
-- (src/db/fts-query.ts). Positions are unchanged (one tagged token per token), so phrases, NEAR, ^ and
-- column filters work as before.
--
-- Tokenizing stays FTS5's own (unicode61 remove_diacritics 2, as before): the post's title and selftext go
-- into a one-row scratch FTS5 table with that tokenizer, its fts5vocab `instance` table lists the tokens
-- with their column and offset, and each column's text for posts_fts is those tokens, tagged, joined by
-- spaces in offset order (re-tokenizing it gives exactly those tokens: a tag and a folded token are letters
-- and digits only). The scratch row is deleted at once. All of that lives in one INSTEAD OF INSERT trigger
-- on the view posts_fts_writer, which the posts triggers and the backfill below both use. posts_fts is
-- contentless with contentless_delete=1, so a post's entry is deleted by rowid (no old text needed).
-- Needs SQLite 3.44 (ORDER BY inside an aggregate) and 3.43 (contentless_delete).
-- Written by hand: drizzle-kit does not model virtual tables.
DROP TRIGGER IF EXISTS `posts_fts_ai`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `posts_fts_ad`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `posts_fts_au`;
--> statement-breakpoint
DROP TABLE IF EXISTS `posts_fts`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `posts_fts` USING fts5(title, selftext, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE VIRTUAL TABLE `posts_fts_scratch` USING fts5(title, selftext, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE VIRTUAL TABLE `posts_fts_scratch_terms` USING fts5vocab(posts_fts_scratch, instance);
--> statement-breakpoint
CREATE VIEW `posts_fts_writer` AS SELECT 0 AS workspace_id, 0 AS post_id, '' AS title, '' AS selftext WHERE 0;
--> statement-breakpoint
CREATE TRIGGER `posts_fts_writer_insert` INSTEAD OF INSERT ON `posts_fts_writer` BEGIN
  INSERT INTO posts_fts_scratch(rowid, title, selftext) VALUES (1, new.title, new.selftext);
  INSERT INTO posts_fts(rowid, title, selftext)
    SELECT new.workspace_id * 4294967296 + new.post_id,
      group_concat(printf('w%08x', new.workspace_id) || term, ' ' ORDER BY "offset") FILTER (WHERE col = 'title'),
      group_concat(printf('w%08x', new.workspace_id) || term, ' ' ORDER BY "offset") FILTER (WHERE col = 'selftext')
    FROM posts_fts_scratch_terms;
  DELETE FROM posts_fts_scratch WHERE rowid = 1;
END;
--> statement-breakpoint
INSERT INTO posts_fts_writer(workspace_id, post_id, title, selftext) SELECT workspace_id, id, title, selftext FROM posts;
--> statement-breakpoint
CREATE TRIGGER `posts_fts_ai` AFTER INSERT ON `posts` BEGIN
  INSERT INTO posts_fts_writer(workspace_id, post_id, title, selftext) VALUES (new.workspace_id, new.id, new.title, new.selftext);
END;
--> statement-breakpoint
CREATE TRIGGER `posts_fts_ad` AFTER DELETE ON `posts` BEGIN
  DELETE FROM posts_fts WHERE rowid = old.workspace_id * 4294967296 + old.id;
END;
--> statement-breakpoint
CREATE TRIGGER `posts_fts_au` AFTER UPDATE OF title, selftext ON `posts` BEGIN
  DELETE FROM posts_fts WHERE rowid = old.workspace_id * 4294967296 + old.id;
  INSERT INTO posts_fts_writer(workspace_id, post_id, title, selftext) VALUES (new.workspace_id, new.id, new.title, new.selftext);
END;
