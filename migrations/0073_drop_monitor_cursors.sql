-- The search passes' per-query cursors: the ingester walks ids and search is only the 7-day backfill of new
-- terms (docs/monitoring.md, "Backfill"), which reads every page to the end and needs no cursor.
DROP TABLE `monitor_cursors`;
