// The SQL of the API key check, import-free (type imports aside) so the read benchmark runs the very
// statements the service runs. A read sends the lookup in the same D1 batch as its own query, and scopes its
// query with the live-key subquery (src/auth/key-in-query.ts).
import type { BuiltQuery } from "./posts-query";

/** Finds a key by its digest (at most one row, by the unique index), in the shape of `ResolvedKey`. */
export const KEY_LOOKUP_SQL =
  "SELECT id AS keyId, workspace_id AS workspaceId, scope, expires_at AS expiresAt, revoked_at AS revokedAt, " +
  "last_used_at AS lastUsedAt FROM api_keys WHERE key_hash = ?";

/**
 * The workspace id of the key with this digest when the key is live at `at` (not revoked, not expired),
 * else NULL: a query scoped with `workspace_id = <this>` returns nothing for a dead key. `at` is an ISO
 * timestamp, compared as text like `expires_at` (both written by toISOString, so text order is time order).
 */
export const liveKeyWorkspace = (keyHash: string, at: string): BuiltQuery => ({
  sql: "(SELECT workspace_id FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?))",
  params: [keyHash, at],
});
