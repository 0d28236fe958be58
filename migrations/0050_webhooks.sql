-- Alerts (SPEC 13, docs/alerts.md): a workspace's webhooks, one delivery per event and webhook, and every
-- attempt of a delivery (kept 30 days). Written by hand (no drizzle-kit snapshots); schema.ts mirrors it.
-- `secret_sealed` is the signing secret encrypted with AES-GCM under the SESSION_KEY Worker secret: a
-- database dump alone cannot sign a delivery.
CREATE TABLE `webhooks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`url` text NOT NULL,
	`format` text DEFAULT 'json' NOT NULL,
	`min_priority` text DEFAULT 'high' NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`disabled_reason` text,
	`secret_sealed` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhooks_ws_idx` ON `webhooks` (`workspace_id`,`id`);
--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`webhook_id` integer NOT NULL,
	`event_id` text NOT NULL,
	`type` text NOT NULL,
	`post_id` integer,
	`payload` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_status_code` integer,
	`last_error` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_attempt_at` text,
	`delivered_at` text,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`webhook_id`) REFERENCES `webhooks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_ws_hook_idx` ON `webhook_deliveries` (`workspace_id`,`webhook_id`,`id`);
--> statement-breakpoint
-- One post.created delivery per post and webhook, whatever happens to the post afterwards.
CREATE UNIQUE INDEX `webhook_deliveries_hook_post_unique` ON `webhook_deliveries` (`webhook_id`,`post_id`) WHERE `post_id` IS NOT NULL;
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_created_idx` ON `webhook_deliveries` (`created_at`);
--> statement-breakpoint
CREATE TABLE `webhook_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`delivery_id` integer NOT NULL,
	`attempt` integer NOT NULL,
	`outcome` text NOT NULL,
	`status_code` integer,
	`duration_ms` integer NOT NULL,
	`error` text,
	`attempted_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`delivery_id`) REFERENCES `webhook_deliveries`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_attempts_delivery_idx` ON `webhook_attempts` (`workspace_id`,`delivery_id`,`id`);
--> statement-breakpoint
CREATE INDEX `webhook_attempts_at_idx` ON `webhook_attempts` (`attempted_at`);
