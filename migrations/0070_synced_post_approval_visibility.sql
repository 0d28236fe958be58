-- Approval that records who approved and what (docs/publishing.md, "Approval"), and what a logged-out visitor
-- sees of a published post (docs/publishing.md, "Visibility"). Written by hand; schema.ts mirrors it.
-- `approved_by` is JSON `{"type": "key" | "person", "id", "name"}`; `approved_content_hash` is the SHA-256 hex
-- of the content approved. Every content change clears both with `approved_at`. Existing approvals keep
-- their `approved_at` with no approver recorded (null).
ALTER TABLE `synced_posts` ADD `approved_by` text;
--> statement-breakpoint
ALTER TABLE `synced_posts` ADD `approved_content_hash` text;
--> statement-breakpoint
-- The persona that published the post: its visibility checks read /api/info with that persona's token.
ALTER TABLE `synced_posts` ADD `published_persona_id` integer;
--> statement-breakpoint
-- null: not checked yet; `live`, `removed`, `spam_filtered`, `deleted`.
ALTER TABLE `synced_posts` ADD `visibility` text;
--> statement-breakpoint
ALTER TABLE `synced_posts` ADD `visibility_checked_at` text;
--> statement-breakpoint
ALTER TABLE `synced_posts` ADD `visibility_reason` text;
--> statement-breakpoint
-- How many of the VISIBILITY_CHECKS_S checks are done: a check delivered twice does nothing the second time.
ALTER TABLE `synced_posts` ADD `visibility_checks_done` integer DEFAULT 0 NOT NULL;
