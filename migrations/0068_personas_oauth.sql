-- Personas connected by OAuth (docs/publishing.md, "Personas"; docs/storage.md). The cookie session goes:
-- each persona now holds the forum's grant, its refresh token and a cached access token, both sealed with
-- AES-GCM under SESSION_KEY. A persona that had only cookies has no grant: it is not auth-completed or
-- browser-ready until someone connects the account again (POST /actions/personas/connect).
ALTER TABLE `personas` ADD `refresh_token_sealed` text;--> statement-breakpoint
ALTER TABLE `personas` ADD `access_token_sealed` text;--> statement-breakpoint
ALTER TABLE `personas` ADD `access_token_expires_at` text;--> statement-breakpoint
ALTER TABLE `personas` ADD `scopes` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
-- Bumped by every change of the grant: a refresh writes its answer only over the grant it refreshed.
ALTER TABLE `personas` ADD `grant_version` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Set while one caller refreshes the grant; others wait for its answer instead of spending the same
-- refresh token (the forum rotates it: the second use would be refused).
ALTER TABLE `personas` ADD `refresh_claimed_until` text;--> statement-breakpoint
UPDATE `personas` SET `auth_completed` = 0, `browser_ready` = 0,
	`last_error` = 'the forum''s connection is missing: this persona was set up with browser cookies, which are no longer used; connect the account again (POST /actions/personas/connect or the console''s Personas page)',
	`updated_at` = strftime('%Y-%m-%dT%H:%M:%fZ', 'now');--> statement-breakpoint
ALTER TABLE `personas` DROP COLUMN `session_ciphertext`;--> statement-breakpoint
-- One OAuth connection in progress (docs/security.md, "Connecting a forum account"): the SHA-256 of its
-- random state, the workspace it is bound to, the redirect URI sent with it, valid ten minutes, deleted
-- when used.
CREATE TABLE `oauth_states` (
	`state_hash` text PRIMARY KEY NOT NULL,
	`workspace_id` integer NOT NULL,
	`redirect_uri` text NOT NULL,
	`expires_at` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);--> statement-breakpoint
CREATE INDEX `oauth_states_expires_idx` ON `oauth_states` (`expires_at`);
