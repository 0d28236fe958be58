-- High-priority posts that mention a competitor, best scored first (issue 16, docs/scaling.md): GET /posts
-- with `priority`, `has_competitors` and `sort_by=score` walked the workspace's score index and read each
-- post's row to check the two filters until a page was full (1,859 rows read for one page at 100,000
-- posts, against the target's 1,701). This index holds both filters ahead of the score order, so the page's
-- ids are index entries only, and it serves the count of the two filters as posts_ws_flags_idx does
-- (1,400 rows read). Other combinations of two filters with a sort other than date still check rows.
-- Written by hand (no drizzle-kit snapshots); schema.ts mirrors it.
CREATE INDEX `posts_ws_priority_competitors_score_idx` ON `posts` (`workspace_id`,`archived`,`priority_rank`,`has_competitors`,`score`,`created_utc`,`id`);
