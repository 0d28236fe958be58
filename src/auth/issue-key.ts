// Issuing a workspace API key: the admin API and the console's Settings > API both call this.
import { type ApiKeyView, createKey, getWorkspace } from "../db/api-keys";
import type { Database } from "../db/client";
import { notFound } from "../lib/domain-errors";
import type { KeyScope } from "./keys";

/** A temporary key lives at most this long (it is deleted by the hourly cron once expired). */
export const MAX_TEMPORARY_KEY_SECONDS = 90 * 24 * 3600;
export const MIN_TEMPORARY_KEY_SECONDS = 60;

export interface KeyRequest {
  name: string;
  scope: KeyScope;
  /** A temporary key: expires this many seconds from now. */
  expires_in_seconds?: number;
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
  return createKey(db, workspaceId, { name: request.name, scope: request.scope, expiresAt });
}
