-- People, their memberships of workspaces (with a role), invitations, console sessions of a person,
-- passkeys, and the role ceiling of API keys (docs/security.md, "People and roles"; docs/storage.md).
-- All of these live in the directory database, beside workspaces and keys.
CREATE TABLE `people` (
  `id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  -- Lower-cased, trimmed.
  `email` text NOT NULL,
  `name` text NOT NULL,
  -- PBKDF2-SHA256 of the password (hex), its random 16-byte salt (hex) and iteration count.
  `password_hash` text,
  `password_salt` text,
  `password_iterations` integer,
  `created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
CREATE UNIQUE INDEX `people_email_unique` ON `people` (`email`);

CREATE TABLE `memberships` (
  `workspace_id` integer NOT NULL REFERENCES `workspaces`(`id`) ON DELETE CASCADE,
  `person_id` integer NOT NULL REFERENCES `people`(`id`) ON DELETE CASCADE,
  `role` text NOT NULL CHECK (`role` IN ('owner', 'admin', 'member', 'viewer')),
  `joined_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  PRIMARY KEY (`workspace_id`, `person_id`)
);
CREATE INDEX `memberships_person_idx` ON `memberships` (`person_id`);

CREATE TABLE `invitations` (
  `id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  `workspace_id` integer NOT NULL REFERENCES `workspaces`(`id`) ON DELETE CASCADE,
  `email` text NOT NULL,
  `role` text NOT NULL CHECK (`role` IN ('owner', 'admin', 'member', 'viewer')),
  -- SHA-256 (hex) of the link's token; the token is only in the link.
  `token_hash` text NOT NULL,
  `created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  `expires_at` text NOT NULL,
  `used_at` text,
  `used_by` integer
);
CREATE UNIQUE INDEX `invitations_token_hash_unique` ON `invitations` (`token_hash`);
CREATE INDEX `invitations_workspace_idx` ON `invitations` (`workspace_id`);

CREATE TABLE `person_sessions` (
  `id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  -- SHA-256 (hex) of the session token the signed cookie carries.
  `token_hash` text NOT NULL,
  `person_id` integer NOT NULL REFERENCES `people`(`id`) ON DELETE CASCADE,
  -- The workspace the session is looking at now (a person in several switches between them).
  `workspace_id` integer NOT NULL,
  `method` text NOT NULL,
  `user_agent` text,
  `created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  `last_seen_at` text,
  `expires_at` text NOT NULL,
  `revoked_at` text
);
CREATE UNIQUE INDEX `person_sessions_token_hash_unique` ON `person_sessions` (`token_hash`);
CREATE INDEX `person_sessions_person_idx` ON `person_sessions` (`person_id`);

CREATE TABLE `passkeys` (
  `id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  `person_id` integer NOT NULL REFERENCES `people`(`id`) ON DELETE CASCADE,
  -- WebAuthn credential id and COSE public key, base64url; public values, not secrets.
  `credential_id` text NOT NULL,
  `public_key` text NOT NULL,
  `counter` integer DEFAULT 0 NOT NULL,
  `transports` text DEFAULT '[]' NOT NULL,
  `name` text NOT NULL,
  `created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  `last_used_at` text
);
CREATE UNIQUE INDEX `passkeys_credential_id_unique` ON `passkeys` (`credential_id`);
CREATE INDEX `passkeys_person_idx` ON `passkeys` (`person_id`);

-- One WebAuthn challenge per ceremony, single use, five minutes.
CREATE TABLE `passkey_challenges` (
  `id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  `challenge` text NOT NULL,
  `purpose` text NOT NULL,
  `person_id` integer,
  `expires_at` text NOT NULL,
  `used_at` text
);
CREATE UNIQUE INDEX `passkey_challenges_challenge_unique` ON `passkey_challenges` (`challenge`);

-- Failed password sign-ins of the last 15 minutes, by `email:<sha-256 of the address>` and `addr:<client bucket>`.
CREATE TABLE `sign_in_failures` (
  `id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  `bucket` text NOT NULL,
  `at` text NOT NULL
);
CREATE INDEX `sign_in_failures_bucket_idx` ON `sign_in_failures` (`bucket`, `at`);

-- A key's role ceiling: what its maker could do (keys made by the admin API, the seed and the demo: owner).
ALTER TABLE `api_keys` ADD `role` text DEFAULT 'owner' NOT NULL;
ALTER TABLE `api_keys` ADD `person_id` integer REFERENCES `people`(`id`) ON DELETE SET NULL;
