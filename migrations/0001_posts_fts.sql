-- Full-text index over post title and body (SPEC 4: SQLite FTS5), an external-content table over `posts`
-- kept in step by triggers. Written by hand: drizzle-kit does not model virtual tables.
CREATE VIRTUAL TABLE `posts_fts` USING fts5(title, selftext, content='posts', content_rowid='id', tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE TRIGGER `posts_fts_ai` AFTER INSERT ON `posts` BEGIN
  INSERT INTO posts_fts(rowid, title, selftext) VALUES (new.id, new.title, new.selftext);
END;
--> statement-breakpoint
CREATE TRIGGER `posts_fts_ad` AFTER DELETE ON `posts` BEGIN
  INSERT INTO posts_fts(posts_fts, rowid, title, selftext) VALUES ('delete', old.id, old.title, old.selftext);
END;
--> statement-breakpoint
CREATE TRIGGER `posts_fts_au` AFTER UPDATE OF title, selftext ON `posts` BEGIN
  INSERT INTO posts_fts(posts_fts, rowid, title, selftext) VALUES ('delete', old.id, old.title, old.selftext);
  INSERT INTO posts_fts(rowid, title, selftext) VALUES (new.id, new.title, new.selftext);
END;
