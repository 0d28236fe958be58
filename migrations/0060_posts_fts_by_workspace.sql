-- The full-text index keyed by workspace (issue 16, docs/scaling.md). Until now posts_fts was keyed by the
-- post id alone, so a search walked every workspace's hits and dropped the other workspaces' ones after
-- the join: its cost grew with the whole database. An FTS5 doclist is ordered by rowid and FTS5 seeks a
-- rowid range through its doclist index, so the rowid is now `workspace_id * 2^32 + post id`: a search
-- reads the rowid range of its workspace only (src/db/posts-query.ts). The tokens, the columns and every
-- statistic bm25() reads (rows, average length, each row's length, hits per term) are the same as before,
-- so results and ranking are unchanged. Contentless (content=''): nothing reads the text back from the
-- index, and the triggers give the old text to 'delete' as before. Post ids stay below 2^32.
-- Written by hand: drizzle-kit does not model virtual tables.
DROP TRIGGER IF EXISTS `posts_fts_ai`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `posts_fts_ad`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `posts_fts_au`;
--> statement-breakpoint
DROP TABLE IF EXISTS `posts_fts`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `posts_fts` USING fts5(title, selftext, content='', tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO posts_fts(rowid, title, selftext) SELECT workspace_id * 4294967296 + id, title, selftext FROM posts;
--> statement-breakpoint
CREATE TRIGGER `posts_fts_ai` AFTER INSERT ON `posts` BEGIN
  INSERT INTO posts_fts(rowid, title, selftext) VALUES (new.workspace_id * 4294967296 + new.id, new.title, new.selftext);
END;
--> statement-breakpoint
CREATE TRIGGER `posts_fts_ad` AFTER DELETE ON `posts` BEGIN
  INSERT INTO posts_fts(posts_fts, rowid, title, selftext)
    VALUES ('delete', old.workspace_id * 4294967296 + old.id, old.title, old.selftext);
END;
--> statement-breakpoint
CREATE TRIGGER `posts_fts_au` AFTER UPDATE OF title, selftext ON `posts` BEGIN
  INSERT INTO posts_fts(posts_fts, rowid, title, selftext)
    VALUES ('delete', old.workspace_id * 4294967296 + old.id, old.title, old.selftext);
  INSERT INTO posts_fts(rowid, title, selftext) VALUES (new.workspace_id * 4294967296 + new.id, new.title, new.selftext);
END;
