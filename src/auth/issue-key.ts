// Issuing a workspace API key: the admin API and the console's Settings > API both call this.
import { type ApiKeyView, getWorkspace, insertKey } from "../db/api-keys";
import type { Database } from "../db/client";
import { sha256Hex } from "../lib/crypto";
import { notFound } from "../lib/domain-errors";
import type { Role } from "../lib/role";
import { displayPrefix, generateApiKey, type KeyScope } from "./keys";

/** A temporary key lives at most this long (it is deleted by the hourly cron once expired). */
export const MAX_TEMPORARY_KEY_SECONDS = 90 * 24 * 3600;
export const MIN_TEMPORARY_KEY_SECONDS = 60;

export interface KeyRequest {
  name: string;
  scope: KeyScope;
  /** A temporary key: expires this many seconds from now. */
  expires_in_seconds?: number;
  /** Its role ceiling (its maker's role; `owner` for the admin API's keys). */
  role?: Role;
  /** The person who made it. */
  personId?: number | null;
}

/** Creates a key of the workspace; the plain key is in the answer only, once. */
export async function issueKey(
  db: Database,
  workspaceId: number,
  request: KeyRequest,
): Promise<{ key: string; record: ApiKeyView }> {
  if (!(await getWorkspace(db, workspaceId))) throw notFound("workspace");
  const expiresAt = request.expires_in_seconds
    ? new Date(Date.now() + request.expires_in_seconds * 1000).toISOString()
    : null;
  return createKey(db, workspaceId, {
    name: request.name,
    scope: request.scope,
    expiresAt,
    role: request.role,
    personId: request.personId,
  });
}

/** A new random key of the workspace, stored by its digest; the plain key is returned once and never stored. */
export async function createKey(
  db: Database,
  workspaceId: number,
  input: { name: string; scope: KeyScope; expiresAt?: string | null; role?: Role; personId?: number | null },
): Promise<{ key: string; record: ApiKeyView }> {
  const key = generateApiKey();
  const record = await insertKey(db, workspaceId, {
    keyHash: await sha256Hex(key),
    prefix: displayPrefix(key),
    name: input.name,
    scope: input.scope,
    role: input.role,
    personId: input.personId,
    expiresAt: input.expiresAt,
  });
  return { key, record };
}
