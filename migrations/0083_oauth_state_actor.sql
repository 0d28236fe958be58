-- Who started each OAuth connection (docs/security.md, "The audit trail"): the API key or the person of the
-- console session that asked for the authorize URL, so the callback's `persona.connected` event names them.
-- A state made before this column existed names no one: its event names the service.
ALTER TABLE `oauth_states` ADD `actor_type` text;--> statement-breakpoint
ALTER TABLE `oauth_states` ADD `actor_id` text;--> statement-breakpoint
ALTER TABLE `oauth_states` ADD `actor_name` text;
