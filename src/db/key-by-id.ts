// Keys by id. The console's session names the API key it was opened with by id; each request looks that key up
// again, so revoking or expiring the key ends the session too. An approval records the key's name.
import type { ResolvedKey } from "./api-keys";

const KEY_BY_ID_SQL =
  "SELECT id AS keyId, workspace_id AS workspaceId, scope, name, role, person_id AS personId, expires_at AS expiresAt, revoked_at AS revokedAt, " +
  "last_used_at AS lastUsedAt FROM api_keys WHERE id = ?";

export async function findKeyById(d1: D1Database, keyId: number): Promise<ResolvedKey | undefined> {
  return (await d1.prepare(KEY_BY_ID_SQL).bind(keyId).first<ResolvedKey>()) ?? undefined;
}

/** The name a key was given (who approved a post with it), or undefined for an unknown id. */
export async function keyNameById(d1: D1Database, keyId: number): Promise<string | undefined> {
  const row = await d1.prepare("SELECT name FROM api_keys WHERE id = ?").bind(keyId).first<{ name: string }>();
  return row?.name;
}
