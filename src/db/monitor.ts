// Monitoring's data (docs/monitoring.md, docs/storage.md): backfill records, the terms a backfill searched, stored
// posts read back to be re-matched (their writes are in matched-items.ts), the tracked terms
// every ingestion matches with, and keyword metrics. Every function but the weekly metrics cron's read is
// workspace-scoped.
import { and, asc, desc, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import { type Database, nowIso, type WorkspaceDb } from "./client";
import { IDS_PER_STATEMENT } from "./matched-items";
import { competitors, keywords, monitorRuns, posts } from "./schema";
import { monitorExclusions } from "./schema-comments";

export type MonitorRunRow = typeof monitorRuns.$inferSelect;
export type MonitorTrigger = MonitorRunRow["trigger"];

export const serializeMonitorRun = (r: MonitorRunRow) => ({
  status: r.status,
  started_at: r.startedAt,
  finished_at: r.finishedAt,
  requests: r.requests,
  queries: r.queries,
  fetched: r.fetched,
  matched: r.matched,
  created: r.created,
  updated: r.updated,
  error: r.error,
});
export type MonitorRunView = ReturnType<typeof serializeMonitorRun>;

const ABANDONED = "the pass stopped before it finished (its Worker ended past the pass's deadline)";

/**
 * Starts a pass unless one of the workspace is running: closes a running pass whose lease ran out (its
 * Worker died), then inserts the new one only when no live pass remains. One batch, so two callers cannot
 * both start. Returns the new run's id, or null when another pass is running.
 */
export async function claimMonitorRun(
  w: WorkspaceDb,
  trigger: MonitorTrigger,
  leaseUntil: string,
): Promise<number | null> {
  const now = nowIso();
  const [, inserted] = await w.d1.batch([
    w.d1
      .prepare(
        `UPDATE monitor_runs SET status = 'failed', error = ?, finished_at = ?
         WHERE workspace_id = ? AND status = 'running' AND lease_until < ?`,
      )
      .bind(ABANDONED, now, w.workspaceId, now),
    w.d1
      .prepare(
        `INSERT INTO monitor_runs (workspace_id, trigger, status, started_at, lease_until)
         SELECT ?, ?, 'running', ?, ?
         WHERE NOT EXISTS (SELECT 1 FROM monitor_runs WHERE workspace_id = ? AND status = 'running')
         RETURNING id`,
      )
      .bind(w.workspaceId, trigger, now, leaseUntil, w.workspaceId),
  ]);
  const rows = (inserted?.results ?? []) as { id: number }[];
  return rows[0]?.id ?? null;
}

export interface MonitorRunCounts {
  requests: number;
  queries: number;
  fetched: number;
  matched: number;
  created: number;
  updated: number;
}

export async function finishMonitorRun(
  w: WorkspaceDb,
  id: number,
  status: "completed" | "partial" | "failed",
  counts: MonitorRunCounts,
  error: string | null,
): Promise<MonitorRunView> {
  const row = await w.db
    .update(monitorRuns)
    .set({ status, ...counts, error, finishedAt: nowIso() })
    .where(and(eq(monitorRuns.workspaceId, w.workspaceId), eq(monitorRuns.id, id)))
    .returning()
    .get();
  if (!row) throw new Error(`monitor run ${id} vanished`);
  return serializeMonitorRun(row);
}

export async function lastMonitorRun(w: WorkspaceDb): Promise<MonitorRunView | null> {
  const row = await w.db
    .select()
    .from(monitorRuns)
    .where(eq(monitorRuns.workspaceId, w.workspaceId))
    .orderBy(desc(monitorRuns.id))
    .limit(1)
    .get();
  return row ? serializeMonitorRun(row) : null;
}

// --- tracked terms ---------------------------------------------------------------------------------------

export interface ActiveKeyword {
  id: number;
  keyword: string;
  isAmbiguous: boolean;
  searchVolume: number | null;
  cpc: string | null;
  serpForumPosition: number | null;
  serpForumUrl: string | null;
  /** Only matches in these subreddits count; empty: everywhere. */
  subreddits?: string[];
}

export interface ActiveCompetitor {
  id: number;
  name: string;
  keywords: string[];
  isAmbiguous: boolean;
  subreddits?: string[];
}

export interface WorkspaceExclusions {
  terms: string[];
  subreddits: string[];
  authors: string[];
}

/** The workspace's active terms and its exclusions (none when it never set any), in one round trip. */
export async function activeTerms(
  w: WorkspaceDb,
): Promise<{ keywords: ActiveKeyword[]; competitors: ActiveCompetitor[]; exclusions: WorkspaceExclusions }> {
  const [kws, comps, excluded] = await w.db.batch([
    w.db
      .select({
        id: keywords.id,
        keyword: keywords.keyword,
        isAmbiguous: keywords.isAmbiguous,
        searchVolume: keywords.searchVolume,
        cpc: keywords.cpc,
        serpForumPosition: keywords.serpForumPosition,
        serpForumUrl: keywords.serpForumUrl,
        subreddits: keywords.subreddits,
      })
      .from(keywords)
      .where(and(eq(keywords.workspaceId, w.workspaceId), eq(keywords.active, true)))
      .orderBy(asc(keywords.id)),
    w.db
      .select({
        id: competitors.id,
        name: competitors.name,
        keywords: competitors.keywords,
        isAmbiguous: competitors.isAmbiguous,
        subreddits: competitors.subreddits,
      })
      .from(competitors)
      .where(and(eq(competitors.workspaceId, w.workspaceId), eq(competitors.active, true)))
      .orderBy(asc(competitors.id)),
    w.db
      .select({
        terms: monitorExclusions.terms,
        subreddits: monitorExclusions.subreddits,
        authors: monitorExclusions.authors,
      })
      .from(monitorExclusions)
      .where(eq(monitorExclusions.workspaceId, w.workspaceId)),
  ]);
  return { keywords: kws, competitors: comps, exclusions: excluded[0] ?? { terms: [], subreddits: [], authors: [] } };
}

// --- backfilled terms ------------------------------------------------------------------------------------

/** The terms (normalized text) a backfill of the workspace searched already. */
export async function backfilledTerms(w: WorkspaceDb): Promise<Set<string>> {
  const rows = await w.d1
    .prepare("SELECT term FROM monitor_backfilled_terms WHERE workspace_id = ?")
    .bind(w.workspaceId)
    .all<{ term: string }>();
  return new Set(rows.results.map((r) => r.term));
}

/** Records terms as searched (a later backfill of new terms skips them). */
export async function markBackfilled(w: WorkspaceDb, terms: string[]): Promise<void> {
  const now = nowIso();
  for (let i = 0; i < terms.length; i += 50) {
    await w.d1.batch(
      terms.slice(i, i + 50).map((t) =>
        w.d1
          .prepare(
            `INSERT INTO monitor_backfilled_terms (workspace_id, term, searched_at) VALUES (?, ?, ?)
               ON CONFLICT (workspace_id, term) DO UPDATE SET searched_at = excluded.searched_at`,
          )
          .bind(w.workspaceId, t, now),
      ),
    );
  }
}

// --- posts -----------------------------------------------------------------------------------------------

// --- re-matching stored posts (a term was added or changed) ----------------------------------------------

export interface StoredPostForMatch {
  id: number;
  forumId: string;
  subreddit: string;
  author: string;
  skipped: boolean;
  title: string;
  selftext: string;
  permalink: string;
  score: number;
  numComments: number;
  createdUtc: string;
  keywordIds: number[];
  competitorIds: number[];
}

/** One bounded batch of the workspace's posts after `afterId`, in id order, with their current links. */
export async function postsForRematch(w: WorkspaceDb, afterId: number, limit: number): Promise<StoredPostForMatch[]> {
  const rows = await w.db
    .select({
      id: posts.id,
      forumId: posts.forumId,
      subreddit: posts.subreddit,
      author: posts.author,
      skipped: posts.skipped,
      title: posts.title,
      selftext: posts.selftext,
      permalink: posts.permalink,
      score: posts.score,
      numComments: posts.numComments,
      createdUtc: posts.createdUtc,
      keywordIds: sql<string>`(SELECT json_group_array(keyword_id) FROM post_keywords pk WHERE pk.post_id = ${posts.id})`,
      competitorIds: sql<string>`(SELECT json_group_array(competitor_id) FROM post_competitors pc WHERE pc.post_id = ${posts.id})`,
    })
    .from(posts)
    .where(and(eq(posts.workspaceId, w.workspaceId), sql`${posts.id} > ${afterId}`))
    .orderBy(asc(posts.id))
    .limit(limit)
    .all();
  return rows.map((r) => ({
    ...r,
    permalink: r.permalink ?? "",
    author: r.author ?? "[deleted]",
    keywordIds: (JSON.parse(r.keywordIds) as number[]).sort((a, b) => a - b),
    competitorIds: (JSON.parse(r.competitorIds) as number[]).sort((a, b) => a - b),
  }));
}

// --- keyword metrics -------------------------------------------------------------------------------------

export interface KeywordMetrics {
  searchVolume: number | null;
  cpc: string | null;
  serpForumPosition: number | null;
  serpForumUrl: string | null;
}

export async function keywordsByIds(w: WorkspaceDb, ids: number[]): Promise<{ id: number; keyword: string }[]> {
  if (ids.length === 0) return [];
  return w.db
    .select({ id: keywords.id, keyword: keywords.keyword })
    .from(keywords)
    .where(and(eq(keywords.workspaceId, w.workspaceId), inArray(keywords.id, ids.slice(0, IDS_PER_STATEMENT))))
    .all();
}

/**
 * Stores a keyword's measured numbers (serp_checked_at: now), unless its text changed since it was read (or it
 * is gone); whether they were stored.
 */
export async function saveKeywordMetrics(
  w: WorkspaceDb,
  keyword: { id: number; keyword: string },
  m: KeywordMetrics,
): Promise<boolean> {
  const row = await w.db
    .update(keywords)
    .set({ ...m, serpCheckedAt: nowIso() })
    .where(
      and(eq(keywords.workspaceId, w.workspaceId), eq(keywords.id, keyword.id), eq(keywords.keyword, keyword.keyword)),
    )
    .returning({ id: keywords.id })
    .get();
  return row !== undefined;
}

/** The weekly cron's read: keywords never measured or measured before `beforeIso`, of every workspace. */
export async function staleKeywords(
  db: Database,
  beforeIso: string,
  limit: number,
): Promise<{ id: number; workspaceId: number }[]> {
  return db
    .select({ id: keywords.id, workspaceId: keywords.workspaceId })
    .from(keywords)
    .where(or(isNull(keywords.serpCheckedAt), lt(keywords.serpCheckedAt, beforeIso)))
    .orderBy(asc(keywords.workspaceId), asc(keywords.id))
    .limit(limit)
    .all();
}
