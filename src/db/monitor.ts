// Monitoring's data (docs/monitoring.md, docs/storage.md): pass records, query cursors, forum posts upserted with their
// matches, and the tracked terms a pass searches for. Every function but the cron's directory reads is
// workspace-scoped.
import { and, asc, desc, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import { type Database, nowIso, type WorkspaceDb } from "./client";
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

/** A post as the forum gives it, with our matches and score. */
export interface IngestedPost {
  forumId: string;
  subreddit: string;
  title: string;
  selftext: string;
  author: string;
  url: string;
  permalink: string;
  score: number;
  numComments: number;
  createdUtc: string;
  priority: "high" | "medium" | "low";
  urgency: "urgent" | "not_urgent";
  scoreReasons: string[];
  keywordIds: number[];
  competitorIds: number[];
}

/** Statements per D1 batch when writing posts (each post is a few statements). */
const POSTS_PER_BATCH = 25;
/** Bound parameters stay under D1's 100 per statement. */
const IDS_PER_STATEMENT = 90;

async function existingForumIds(w: WorkspaceDb, forumIds: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < forumIds.length; i += IDS_PER_STATEMENT) {
    const rows = await w.db
      .select({ forumId: posts.forumId })
      .from(posts)
      .where(
        and(eq(posts.workspaceId, w.workspaceId), inArray(posts.forumId, forumIds.slice(i, i + IDS_PER_STATEMENT))),
      )
      .all();
    for (const r of rows) found.add(r.forumId);
  }
  return found;
}

/** Where an item's matches are linked: a post's in post_keywords / post_competitors, a comment's beside them. */
export type MatchedKind = "posts" | "comments";
const LINKS = {
  posts: { keywords: "post_keywords", competitors: "post_competitors", item: "post_id" },
  comments: { keywords: "comment_keywords", competitors: "comment_competitors", item: "comment_id" },
} as const;

/** The statements that make an item's links exactly these keywords and competitors (of the same workspace). */
export function linkStatements(
  w: WorkspaceDb,
  forumId: string,
  keywordIds: number[],
  competitorIds: number[],
  kind: MatchedKind = "posts",
) {
  const ws = w.workspaceId;
  const l = LINKS[kind];
  const itemId = `(SELECT id FROM ${kind} WHERE workspace_id = ? AND forum_id = ?)`;
  const statements = [
    w.d1.prepare(`DELETE FROM ${l.keywords} WHERE ${l.item} = ${itemId}`).bind(ws, forumId),
    w.d1.prepare(`DELETE FROM ${l.competitors} WHERE ${l.item} = ${itemId}`).bind(ws, forumId),
  ];
  for (const k of keywordIds)
    statements.push(
      w.d1
        .prepare(
          `INSERT INTO ${l.keywords} (workspace_id, ${l.item}, keyword_id)
           SELECT ?, ${itemId}, id FROM keywords WHERE workspace_id = ? AND id = ?`,
        )
        .bind(ws, ws, forumId, ws, k),
    );
  for (const c of competitorIds)
    statements.push(
      w.d1
        .prepare(
          `INSERT INTO ${l.competitors} (workspace_id, ${l.item}, competitor_id)
           SELECT ?, ${itemId}, id FROM competitors WHERE workspace_id = ? AND id = ?`,
        )
        .bind(ws, ws, forumId, ws, c),
    );
  return statements;
}

/**
 * Inserts new posts and updates known ones (unique by workspace and forum id): the forum's fields, the
 * score and the matches change; the triage flags (is_answered, archived, skipped) are never written here.
 * Each post's row and links are written in one batch with it. `onCreated` hears of the posts each batch stored
 * for the first time as soon as it is written, so a later batch that fails takes none of them with it (their
 * alerts: a later pass finds them stored and never announces them).
 */
export async function upsertForumPosts(
  w: WorkspaceDb,
  rows: IngestedPost[],
  onCreated: (forumIds: string[]) => Promise<void> = async () => {},
): Promise<{ created: number; updated: number }> {
  if (rows.length === 0) return { created: 0, updated: 0 };
  const existing = await existingForumIds(
    w,
    rows.map((r) => r.forumId),
  );
  const now = nowIso();
  let created = 0;
  for (let i = 0; i < rows.length; i += POSTS_PER_BATCH) {
    const chunk = rows.slice(i, i + POSTS_PER_BATCH);
    const statements = chunk.flatMap((r) => [
      w.d1
        .prepare(
          `INSERT INTO posts (workspace_id, forum_id, subreddit, title, selftext, author, url, permalink, score,
             num_comments, created_utc, priority, urgency, score_reasons, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (workspace_id, forum_id) DO UPDATE SET subreddit = excluded.subreddit,
             title = excluded.title, selftext = excluded.selftext, author = excluded.author, url = excluded.url,
             permalink = excluded.permalink, score = excluded.score, num_comments = excluded.num_comments,
             priority = excluded.priority, urgency = excluded.urgency, score_reasons = excluded.score_reasons,
             updated_at = excluded.updated_at`,
        )
        .bind(
          w.workspaceId,
          r.forumId,
          r.subreddit,
          r.title,
          r.selftext,
          r.author,
          r.url,
          r.permalink,
          r.score,
          r.numComments,
          r.createdUtc,
          r.priority,
          r.urgency,
          JSON.stringify(r.scoreReasons),
          now,
          now,
        ),
      ...linkStatements(w, r.forumId, r.keywordIds, r.competitorIds),
    ]);
    await w.d1.batch(statements);
    const fresh = chunk.filter((r) => !existing.has(r.forumId)).map((r) => r.forumId);
    if (fresh.length > 0) await onCreated(fresh);
    created += fresh.length;
  }
  return { created, updated: rows.length - created };
}

/** A refreshed post that no longer matches anything keeps its matches; only the forum's numbers and text change. */
export async function refreshForumPostCounts(
  w: WorkspaceDb,
  rows: { forumId: string; title: string; selftext: string; score: number; numComments: number }[],
): Promise<number> {
  let updated = 0;
  const now = nowIso();
  for (let i = 0; i < rows.length; i += POSTS_PER_BATCH) {
    const statements = rows.slice(i, i + POSTS_PER_BATCH).map((r) =>
      w.db
        .update(posts)
        .set({ title: r.title, selftext: r.selftext, score: r.score, numComments: r.numComments, updatedAt: now })
        .where(and(eq(posts.workspaceId, w.workspaceId), eq(posts.forumId, r.forumId))),
    );
    if (statements.length === 0) continue;
    const results = await w.db.batch(statements as [(typeof statements)[number], ...(typeof statements)[number][]]);
    updated += results.reduce((n, r) => n + ((r as unknown as D1Result).meta?.changes ?? 0), 0);
  }
  return updated;
}

/** Forum ids of the workspace's posts created after `sinceIso` (young posts are refreshed every pass). */
export async function youngForumIds(w: WorkspaceDb, sinceIso: string, limit = 1000): Promise<string[]> {
  const rows = await w.db
    .select({ forumId: posts.forumId })
    .from(posts)
    .where(and(eq(posts.workspaceId, w.workspaceId), sql`${posts.createdUtc} > ${sinceIso}`))
    .orderBy(desc(posts.createdUtc))
    .limit(limit)
    .all();
  return rows.map((r) => r.forumId);
}

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

export interface MatchChange {
  forumId: string;
  keywordIds: number[];
  competitorIds: number[];
  priority: "high" | "medium" | "low";
  urgency: "urgent" | "not_urgent";
  scoreReasons: string[];
  /** The workspace's exclusions now keep the item out: it becomes skipped (never deleted, never unskipped here). */
  skip?: boolean;
}

/** Replaces the links (and the score) of stored posts, or comments, whose matches changed. */
export async function replacePostMatches(
  w: WorkspaceDb,
  changes: MatchChange[],
  kind: MatchedKind = "posts",
): Promise<void> {
  const now = nowIso();
  for (let i = 0; i < changes.length; i += POSTS_PER_BATCH) {
    const statements = changes.slice(i, i + POSTS_PER_BATCH).flatMap((c) => [
      w.d1
        .prepare(
          `UPDATE ${kind} SET priority = ?, urgency = ?, score_reasons = ?, skipped = (skipped OR ?), updated_at = ?
             WHERE workspace_id = ? AND forum_id = ?`,
        )
        .bind(c.priority, c.urgency, JSON.stringify(c.scoreReasons), c.skip ? 1 : 0, now, w.workspaceId, c.forumId),
      ...linkStatements(w, c.forumId, c.keywordIds, c.competitorIds, kind),
    ]);
    if (statements.length > 0) await w.d1.batch(statements);
  }
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
