-- The names of a post's matched keywords and mentioned competitors, kept on the post row (issue 16,
-- docs/scaling.md). GET /posts built both lists per post with correlated subqueries (a link entry and a
-- keyword or competitor row per name, about 14 rows read per post); a page now reads one row per post.
-- Each column holds exactly what those subqueries answered: a JSON array of the names, sorted by the
-- name's bytes (ORDER BY keyword / name), '[]' when there is none.
--
-- Kept right by triggers, as has_competitors is (migration 0004): any link added, removed or moved, and
-- any keyword or competitor renamed, rebuilds the lists of the posts it touches; a keyword or competitor
-- deleted removes its links by ON DELETE CASCADE, which fires the links' delete triggers.
-- Written by hand (no drizzle-kit snapshots); schema.ts mirrors it.
ALTER TABLE `posts` ADD `matched_keywords` text DEFAULT '[]' NOT NULL;
--> statement-breakpoint
ALTER TABLE `posts` ADD `mentioned_competitors` text DEFAULT '[]' NOT NULL;
--> statement-breakpoint
UPDATE `posts` SET `matched_keywords` = (SELECT json_group_array(keyword) FROM (SELECT k.keyword FROM post_keywords pk
    JOIN keywords k ON k.id = pk.keyword_id WHERE pk.post_id = posts.id ORDER BY k.keyword))
  WHERE id IN (SELECT post_id FROM post_keywords);
--> statement-breakpoint
UPDATE `posts` SET `mentioned_competitors` = (SELECT json_group_array(name) FROM (SELECT c.name FROM post_competitors pc
    JOIN competitors c ON c.id = pc.competitor_id WHERE pc.post_id = posts.id ORDER BY c.name))
  WHERE id IN (SELECT post_id FROM post_competitors);
--> statement-breakpoint
CREATE TRIGGER `post_keywords_names_ai` AFTER INSERT ON `post_keywords` BEGIN
  UPDATE posts SET matched_keywords = (SELECT json_group_array(keyword) FROM (SELECT k.keyword FROM post_keywords pk
      JOIN keywords k ON k.id = pk.keyword_id WHERE pk.post_id = new.post_id ORDER BY k.keyword))
    WHERE id = new.post_id;
END;
--> statement-breakpoint
-- Also fires for links removed by ON DELETE CASCADE (a deleted keyword or post). For a post that is itself
-- being deleted the UPDATE finds nothing.
CREATE TRIGGER `post_keywords_names_ad` AFTER DELETE ON `post_keywords` BEGIN
  UPDATE posts SET matched_keywords = (SELECT json_group_array(keyword) FROM (SELECT k.keyword FROM post_keywords pk
      JOIN keywords k ON k.id = pk.keyword_id WHERE pk.post_id = old.post_id ORDER BY k.keyword))
    WHERE id = old.post_id;
END;
--> statement-breakpoint
CREATE TRIGGER `post_keywords_names_au` AFTER UPDATE OF post_id, keyword_id ON `post_keywords` BEGIN
  UPDATE posts SET matched_keywords = (SELECT json_group_array(keyword) FROM (SELECT k.keyword FROM post_keywords pk
      JOIN keywords k ON k.id = pk.keyword_id WHERE pk.post_id = posts.id ORDER BY k.keyword))
    WHERE id IN (old.post_id, new.post_id);
END;
--> statement-breakpoint
CREATE TRIGGER `keywords_names_au` AFTER UPDATE OF keyword ON `keywords` WHEN old.keyword IS NOT new.keyword BEGIN
  UPDATE posts SET matched_keywords = (SELECT json_group_array(keyword) FROM (SELECT k.keyword FROM post_keywords pk
      JOIN keywords k ON k.id = pk.keyword_id WHERE pk.post_id = posts.id ORDER BY k.keyword))
    WHERE id IN (SELECT post_id FROM post_keywords WHERE keyword_id = new.id);
END;
--> statement-breakpoint
CREATE TRIGGER `post_competitors_names_ai` AFTER INSERT ON `post_competitors` BEGIN
  UPDATE posts SET mentioned_competitors = (SELECT json_group_array(name) FROM (SELECT c.name FROM post_competitors pc
      JOIN competitors c ON c.id = pc.competitor_id WHERE pc.post_id = new.post_id ORDER BY c.name))
    WHERE id = new.post_id;
END;
--> statement-breakpoint
CREATE TRIGGER `post_competitors_names_ad` AFTER DELETE ON `post_competitors` BEGIN
  UPDATE posts SET mentioned_competitors = (SELECT json_group_array(name) FROM (SELECT c.name FROM post_competitors pc
      JOIN competitors c ON c.id = pc.competitor_id WHERE pc.post_id = old.post_id ORDER BY c.name))
    WHERE id = old.post_id;
END;
--> statement-breakpoint
CREATE TRIGGER `post_competitors_names_au` AFTER UPDATE OF post_id, competitor_id ON `post_competitors` BEGIN
  UPDATE posts SET mentioned_competitors = (SELECT json_group_array(name) FROM (SELECT c.name FROM post_competitors pc
      JOIN competitors c ON c.id = pc.competitor_id WHERE pc.post_id = posts.id ORDER BY c.name))
    WHERE id IN (old.post_id, new.post_id);
END;
--> statement-breakpoint
CREATE TRIGGER `competitors_names_au` AFTER UPDATE OF name ON `competitors` WHEN old.name IS NOT new.name BEGIN
  UPDATE posts SET mentioned_competitors = (SELECT json_group_array(name) FROM (SELECT c.name FROM post_competitors pc
      JOIN competitors c ON c.id = pc.competitor_id WHERE pc.post_id = posts.id ORDER BY c.name))
    WHERE id IN (SELECT post_id FROM post_competitors WHERE competitor_id = new.id);
END;
