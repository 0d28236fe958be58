-- A search with a subreddit filter checks each hit in an index instead of its row (issue 16,
-- docs/scaling.md). Each full-text hit was looked up by primary key to compare its subreddit, one row read
-- per hit, matching or not: with a subreddit that holds an eighth of the posts, a page walked about 9,900
-- hits (21,219 rows read at 100,000 posts). Looked up in this index with every column given (the post id,
-- its workspace, `archived` = 0, the subreddit, and so the rowid), the lookup is of one entry: a hit whose
-- post is elsewhere finds none and reads no row, a match reads one, and the matching post's other columns
-- (date, sort keys) come from its row without another counted read. The subreddit compares with
-- COLLATE NOCASE, as the filter does.
-- Written by hand (no drizzle-kit snapshots); schema.ts mirrors it.
CREATE INDEX `posts_id_subreddit_idx` ON `posts` (`id`,`workspace_id`,`archived`,`subreddit` COLLATE NOCASE);
