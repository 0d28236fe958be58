// The console's two doors to publishing: a post's publish preflight report and its approval. Both belong to
// the publishing service (src/blog-sync/approval.ts and src/blog-sync/publish-preflight.ts, SPEC 6), which
// this build does not include yet; until it does, the review page says so and approving refuses, rather
// than the console approving by a rule of its own. Switching over is these two functions' bodies only.
import type { WorkspaceDb } from "../db/client";
import type { Env } from "../env";
import { DomainError } from "../lib/domain-errors";

export interface PreflightCheck {
  name: string;
  ok: boolean;
  reason: string | null;
}

/** The publish preflight of one synced post, or why there is none. */
export async function preflightFor(
  _env: Env,
  _w: WorkspaceDb,
  _configId: number,
  _syncedPostId: number,
): Promise<{ available: false; reason: string } | { available: true; ok: boolean; checks: PreflightCheck[] }> {
  return {
    available: false,
    reason: "Publish preflight is not part of this build yet (it comes with publishing, SPEC 6).",
  };
}

/** Approves one synced post for publishing (POST .../items/:item_id/approve). */
export async function approveForPublishing(
  _env: Env,
  _w: WorkspaceDb,
  _configId: number,
  _syncedPostId: number,
): Promise<void> {
  throw new DomainError(
    "invalid_state",
    "Approving is not available in this build yet: it comes with publishing (SPEC 6). Nothing was changed.",
  );
}
