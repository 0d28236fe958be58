-- Which events a webhook wants (docs/alerts.md, "Events"): a JSON array of event types. Every webhook made
-- before gets all three. A `synced_post.removed` delivery names its synced post, so a post is announced
-- removed at most once per webhook (the unique index), also when its visibility check runs twice.
ALTER TABLE `webhooks` ADD `events` text DEFAULT '["post.created","comment.created","synced_post.removed"]' NOT NULL;
--> statement-breakpoint
ALTER TABLE `webhook_deliveries` ADD `synced_post_id` integer;
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_hook_synced_post_unique` ON `webhook_deliveries` (`webhook_id`,`synced_post_id`) WHERE `synced_post_id` IS NOT NULL;
