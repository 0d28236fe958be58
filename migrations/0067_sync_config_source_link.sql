-- A config's `source_link` (docs/blog-sync.md, "The config"): drafts end with a line linking back to the
-- article. On by default, also for the configs that exist already; not part of the fingerprint.
ALTER TABLE `sync_configs` ADD `source_link` integer DEFAULT true NOT NULL;
