-- A draft a person edited (issue 14, point 12): later runs never overwrite it. `content_hash` keeps the hash
-- of the source rendering the edit was made on, so a run can tell that the source changed since.
ALTER TABLE `synced_posts` ADD `edited_at` text;
