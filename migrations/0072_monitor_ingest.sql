-- The ingester (docs/monitoring.md, "The compiled matcher"): one number for every workspace's tracked terms
-- together, raised by every insert, change or delete of a keyword or competitor, so the ingester compiles
-- its matcher again only when a term changed (it reads this number each round).
CREATE TABLE `monitor_terms_version` (
  `id` integer PRIMARY KEY NOT NULL CHECK (`id` = 1),
  `version` integer NOT NULL
);
--> statement-breakpoint
INSERT INTO `monitor_terms_version` (`id`, `version`) VALUES (1, 0);
--> statement-breakpoint
CREATE TRIGGER `keywords_terms_version_ai` AFTER INSERT ON `keywords` BEGIN
  UPDATE `monitor_terms_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `keywords_terms_version_au` AFTER UPDATE ON `keywords` BEGIN
  UPDATE `monitor_terms_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `keywords_terms_version_ad` AFTER DELETE ON `keywords` BEGIN
  UPDATE `monitor_terms_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `competitors_terms_version_ai` AFTER INSERT ON `competitors` BEGIN
  UPDATE `monitor_terms_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `competitors_terms_version_au` AFTER UPDATE ON `competitors` BEGIN
  UPDATE `monitor_terms_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `competitors_terms_version_ad` AFTER DELETE ON `competitors` BEGIN
  UPDATE `monitor_terms_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
-- The terms a backfill searched (normalized text), per workspace: a new or changed term is one not listed.
CREATE TABLE `monitor_backfilled_terms` (
  `workspace_id` integer NOT NULL REFERENCES `workspaces`(`id`) ON DELETE CASCADE,
  `term` text NOT NULL,
  `searched_at` text NOT NULL,
  PRIMARY KEY (`workspace_id`, `term`)
);
