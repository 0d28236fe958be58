// A workspace's monitoring exclusions (docs/monitoring.md, "Exclusions"): one row, three JSON arrays; no row is
// nothing excluded.
import { eq, sql } from "drizzle-orm";
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
  const changed = JSON.stringify(before) !== JSON.stringify(next);
  const write = w.db
    .insert(monitorExclusions)
    .values({ workspaceId: w.workspaceId, ...values })
    .onConflictDoUpdate({ target: monitorExclusions.workspaceId, set: values });
  // The ingester compiles its matcher again when the terms' version moves (migration 0072): exclusions are
  // part of what it decides with, so a change raises the version in the same batch.
  if (changed)
    await w.db.batch([write, w.db.run(sql`UPDATE monitor_terms_version SET version = version + 1 WHERE id = 1`)]);
  else await write.run();
  return { exclusions: next, changed };
}
