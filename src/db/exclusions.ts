// A workspace's monitoring exclusions (docs/monitoring.md, "Exclusions"): one row, three JSON arrays; no row is
// nothing excluded.
import { eq } from "drizzle-orm";
import { nowIso, type WorkspaceDb } from "./client";
import { monitorExclusions } from "./schema-comments";

export interface ExclusionsView {
  terms: string[];
  subreddits: string[];
  authors: string[];
}

export async function getExclusions(w: WorkspaceDb): Promise<ExclusionsView> {
  const row = await w.db
    .select({
      terms: monitorExclusions.terms,
      subreddits: monitorExclusions.subreddits,
      authors: monitorExclusions.authors,
    })
    .from(monitorExclusions)
    .where(eq(monitorExclusions.workspaceId, w.workspaceId))
    .get();
  return row ?? { terms: [], subreddits: [], authors: [] };
}

/** Replaces all three lists; returns them as stored and whether they differ from before. */
export async function putExclusions(
  w: WorkspaceDb,
  next: ExclusionsView,
): Promise<{ exclusions: ExclusionsView; changed: boolean }> {
  const before = await getExclusions(w);
  const values = { ...next, updatedAt: nowIso() };
  await w.db
    .insert(monitorExclusions)
    .values({ workspaceId: w.workspaceId, ...values })
    .onConflictDoUpdate({ target: monitorExclusions.workspaceId, set: values })
    .run();
  return { exclusions: next, changed: JSON.stringify(before) !== JSON.stringify(next) };
}
