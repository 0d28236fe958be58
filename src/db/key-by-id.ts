// The console's session names the API key it was opened with by id; each request looks that key up again,
// so revoking or expiring the key ends the session too.
import type { ResolvedKey } from "./api-keys";

const KEY_BY_ID_SQL =
  "SELECT id AS keyId, workspace_id AS workspaceId, scope, name, role, person_id AS personId, expires_at AS expiresAt, revoked_at AS revokedAt, " +
  "last_used_at AS lastUsedAt FROM api_keys WHERE id = ?";

export async function findKeyById(d1: D1Database, keyId: number): Promise<ResolvedKey | undefined> {
  return (await d1.prepare(KEY_BY_ID_SQL).bind(keyId).first<ResolvedKey>()) ?? undefined;
}
