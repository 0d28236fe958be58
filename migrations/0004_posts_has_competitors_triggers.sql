-- posts.has_competitors (added in 0003) is kept right by triggers on post_competitors, so the has_competitors
-- filter and its count read posts_ws_competitors_idx instead of probing post_competitors once per post.
-- Written by hand: drizzle-kit does not model triggers.
UPDATE `posts` SET `has_competitors` = EXISTS (SELECT 1 FROM `post_competitors` pc WHERE pc.`post_id` = `posts`.`id`);
--> statement-breakpoint
CREATE TRIGGER `post_competitors_ai` AFTER INSERT ON `post_competitors` BEGIN
  UPDATE posts SET has_competitors = 1 WHERE id = new.post_id AND has_competitors = 0;
END;
--> statement-breakpoint
-- Also fires for rows removed by ON DELETE CASCADE (a deleted competitor or post). For a post that is itself
-- being deleted the UPDATE finds nothing.
CREATE TRIGGER `post_competitors_ad` AFTER DELETE ON `post_competitors` BEGIN
  UPDATE posts SET has_competitors = EXISTS (SELECT 1 FROM post_competitors pc WHERE pc.post_id = old.post_id)
    WHERE id = old.post_id;
END;
--> statement-breakpoint
CREATE TRIGGER `post_competitors_au` AFTER UPDATE OF post_id ON `post_competitors` BEGIN
  UPDATE posts SET has_competitors = EXISTS (SELECT 1 FROM post_competitors pc WHERE pc.post_id = old.post_id)
    WHERE id = old.post_id;
  UPDATE posts SET has_competitors = 1 WHERE id = new.post_id;
END;
--> statement-breakpoint
-- Statistics for the planner (the new indexes), so it picks the narrow index for search hits and the more
-- selective index where two filters meet. D1 supports PRAGMA optimize.
PRAGMA optimize=0x10002;
