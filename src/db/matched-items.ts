// The writes a matched forum item makes, a post's and a comment's alike (docs/storage.md, docs/monitoring.md): the
// upsert unique by workspace and forum id with its links in the same batch, the refresh of the forum's fields
// alone, and the links replaced after a re-match. One builder parametrised by table, so the two kinds cannot
// drift apart. The triage flags (is_answered, archived, skipped) are never written here, but for the skip a
// re-match sets (and never clears).
import { nowIso, type WorkspaceDb } from "./client";

/** Where an item lives: `posts` with post_keywords / post_competitors, `comments` beside them. */
export type MatchedKind = "posts" | "comments";

/** The forum's fields every item has (MatchedItem carries them). */
const COMMON = ["subreddit", "author", "permalink", "score"] as const;

const TABLES = {
  posts: {
    /** The forum's fields of this kind an upsert writes beside COMMON (created_utc never changes). */
    columns: ["title", "selftext", "url", "num_comments"],
    links: { keywords: "post_keywords", competitors: "post_competitors", item: "post_id" },
    /** A known item keeps what the new one does not know. */
    keep: {} as Record<string, string>,
  },
  comments: {
    columns: ["post_forum_id", "thread_title", "body"],
    links: { keywords: "comment_keywords", competitors: "comment_competitors", item: "comment_id" },
    // A comment's thread never changes; one read without its thread's title ('') keeps the title stored.
    keep: {
      post_forum_id: "comments.post_forum_id",
      thread_title: "CASE WHEN excluded.thread_title = '' THEN comments.thread_title ELSE excluded.thread_title END",
    } as Record<string, string>,
  },
} as const;

/** The forum's field values of an item of `kind` beside COMMON, by column. */
export type ForumValues<K extends MatchedKind> = Record<(typeof TABLES)[K]["columns"][number], string | number>;

/** What every matched item carries: the forum's common fields, its time, its score and its matches. */
export interface MatchedItem {
  forumId: string;
  subreddit: string;
  author: string;
  permalink: string;
  score: number;
  createdUtc: string;
  priority: "high" | "medium" | "low";
  urgency: "urgent" | "not_urgent";
  scoreReasons: string[];
  keywordIds: number[];
  competitorIds: number[];
}

/** Hears of the forum ids a batch stored for the first time (their alerts). */
export type OnCreated = (forumIds: string[]) => Promise<void>;

/** Statements per D1 batch when writing items (each item is a few statements). */
export const ITEMS_PER_BATCH = 25;
/** Bound parameters stay under D1's 100 per statement. */
export const IDS_PER_STATEMENT = 90;

/** One workspace's items, as the writes below take them (several workspaces' at once where they share a database). */
export interface WorkspaceItems<R> {
  w: WorkspaceDb;
  rows: R[];
}

/** An item of a workspace, flattened for batches that mix workspaces of one database. */
interface Placed<R> {
  w: WorkspaceDb;
  row: R;
}

/** The items of `sets` by the database that holds their workspace, in order, in chunks of ITEMS_PER_BATCH. */
function chunksByDatabase<R>(sets: WorkspaceItems<R>[]): Placed<R>[][] {
  const byDatabase = new Map<D1Database, Placed<R>[]>();
  for (const { w, rows } of sets) {
    const list = byDatabase.get(w.d1) ?? [];
    for (const row of rows) list.push({ w, row });
    byDatabase.set(w.d1, list);
  }
  const chunks: Placed<R>[][] = [];
  for (const list of byDatabase.values())
    for (let i = 0; i < list.length; i += ITEMS_PER_BATCH) chunks.push(list.slice(i, i + ITEMS_PER_BATCH));
  return chunks;
}

const pairKey = (workspaceId: number, forumId: string) => `${workspaceId}:${forumId}`;

/**
 * The statement that reads which of a chunk's (workspace, forum id) pairs are stored already: first in the
 * chunk's batch, so it sees the rows as they were before the batch's writes (ITEMS_PER_BATCH pairs, two
 * parameters each, stay under D1's 100).
 */
function existingStatement(d1: D1Database, kind: MatchedKind, chunk: Placed<MatchedItem>[]) {
  const pairs = chunk.map(() => "(workspace_id = ? AND forum_id = ?)").join(" OR ");
  return d1
    .prepare(`SELECT workspace_id, forum_id FROM ${kind} WHERE ${pairs}`)
    .bind(...chunk.flatMap(({ w, row }) => [w.workspaceId, row.forumId]));
}

/** The statements that make an item's links exactly these keywords and competitors (of the same workspace). */
export function linkStatements(
  w: WorkspaceDb,
  forumId: string,
  keywordIds: number[],
  competitorIds: number[],
  kind: MatchedKind = "posts",
) {
  const ws = w.workspaceId;
  const l = TABLES[kind].links;
  const itemId = `(SELECT id FROM ${kind} WHERE workspace_id = ? AND forum_id = ?)`;
  const link = (table: string, column: string, terms: string, ids: number[]) =>
    ids.map((id) =>
      w.d1
        .prepare(
          `INSERT INTO ${table} (workspace_id, ${l.item}, ${column})
           SELECT ?, ${itemId}, id FROM ${terms} WHERE workspace_id = ? AND id = ?`,
        )
        .bind(ws, ws, forumId, ws, id),
    );
  return [
    w.d1.prepare(`DELETE FROM ${l.keywords} WHERE ${l.item} = ${itemId}`).bind(ws, forumId),
    w.d1.prepare(`DELETE FROM ${l.competitors} WHERE ${l.item} = ${itemId}`).bind(ws, forumId),
    ...link(l.keywords, "keyword_id", "keywords", keywordIds),
    ...link(l.competitors, "competitor_id", "competitors", competitorIds),
  ];
}

/** INSERT ... ON CONFLICT (workspace_id, forum_id) DO UPDATE of the forum's fields, the score and the time. */
function upsertStatement<K extends MatchedKind>(
  w: WorkspaceDb,
  kind: K,
  item: MatchedItem,
  values: ForumValues<K>,
  now: string,
) {
  const { columns, keep } = TABLES[kind];
  const forum = [...COMMON, ...columns];
  const all = ["workspace_id", "forum_id", ...forum, "created_utc", "priority", "urgency", "score_reasons"];
  const set = [...forum, "priority", "urgency", "score_reasons", "updated_at"].map(
    (c) => `${c} = ${keep[c] ?? `excluded.${c}`}`,
  );
  return w.d1
    .prepare(
      `INSERT INTO ${kind} (${all.join(", ")}, created_at, updated_at)
       VALUES (${[...all, "created_at", "updated_at"].map(() => "?").join(", ")})
       ON CONFLICT (workspace_id, forum_id) DO UPDATE SET ${set.join(", ")}`,
    )
    .bind(
      w.workspaceId,
      item.forumId,
      ...COMMON.map((c) => item[c]),
      ...columns.map((c) => values[c as keyof ForumValues<K>]),
      item.createdUtc,
      item.priority,
      item.urgency,
      JSON.stringify(item.scoreReasons),
      now,
      now,
    );
}

/** Hears of the forum ids one batch stored for the first time in a workspace (their alerts). */
export type OnCreatedIn = (w: WorkspaceDb, forumIds: string[]) => Promise<void>;

/**
 * Inserts new items and updates known ones (unique by workspace and forum id) for any number of workspaces:
 * the forum's fields, the score and the matches change, the triage flags never. Items of workspaces in the same
 * database share batches (ITEMS_PER_BATCH items each, with their links and the read of which are new), so the
 * ingester writes a post matched by a thousand workspaces in a few round trips, not a thousand. `onCreated`
 * hears of the items each batch stored for the first time as soon as it is written, so a later batch that fails
 * takes none of them with it (their alerts: a later read finds them stored and never announces them).
 */
export async function upsertItemsOfWorkspaces<K extends MatchedKind, R extends MatchedItem>(
  kind: K,
  sets: WorkspaceItems<R>[],
  valuesOf: (row: R) => ForumValues<K>,
  onCreated: OnCreatedIn = async () => {},
): Promise<{ created: number; updated: number }> {
  const now = nowIso();
  let created = 0;
  let total = 0;
  for (const chunk of chunksByDatabase(sets)) {
    const d1 = chunk[0]!.w.d1;
    const [found] = await d1.batch([
      existingStatement(d1, kind, chunk),
      ...chunk.flatMap(({ w, row }) => [
        upsertStatement(w, kind, row, valuesOf(row), now),
        ...linkStatements(w, row.forumId, row.keywordIds, row.competitorIds, kind),
      ]),
    ]);
    const existing = new Set(
      ((found?.results ?? []) as { workspace_id: number; forum_id: string }[]).map((r) =>
        pairKey(r.workspace_id, r.forum_id),
      ),
    );
    const fresh = new Map<WorkspaceDb, string[]>();
    for (const { w, row } of chunk) {
      if (existing.has(pairKey(w.workspaceId, row.forumId))) continue;
      const ids = fresh.get(w);
      if (ids) ids.push(row.forumId);
      else fresh.set(w, [row.forumId]);
    }
    for (const [w, forumIds] of fresh) {
      await onCreated(w, forumIds);
      created += forumIds.length;
    }
    total += chunk.length;
  }
  return { created, updated: total - created };
}

/** One workspace's items (upsertItemsOfWorkspaces). */
export const upsertMatchedItems = <K extends MatchedKind, R extends MatchedItem>(
  w: WorkspaceDb,
  kind: K,
  rows: R[],
  valuesOf: (row: R) => ForumValues<K>,
  onCreated: OnCreated = async () => {},
) => upsertItemsOfWorkspaces(kind, [{ w, rows }], valuesOf, (_w, forumIds) => onCreated(forumIds));

/** A stored item's forum fields to change, and only those (refreshForumFields). */
export interface FieldsRow<K extends MatchedKind> {
  forumId: string;
  values: Partial<ForumValues<K> & Record<(typeof COMMON)[number], string | number>>;
}

/**
 * A refreshed item that no longer matches keeps its links, score and triage: only these forum fields change,
 * for any number of workspaces (batched by database as upsertItemsOfWorkspaces). The number of stored items
 * changed.
 */
export async function refreshForumFields<K extends MatchedKind>(
  kind: K,
  sets: WorkspaceItems<FieldsRow<K>>[],
): Promise<number> {
  const now = nowIso();
  let updated = 0;
  for (const chunk of chunksByDatabase(sets)) {
    const statements = chunk.map(({ w, row }) => {
      const entries = Object.entries(row.values) as [string, string | number][];
      return w.d1
        .prepare(
          `UPDATE ${kind} SET ${entries.map(([c]) => `${c} = ?`).join(", ")}, updated_at = ?
           WHERE workspace_id = ? AND forum_id = ?`,
        )
        .bind(...entries.map(([, v]) => v), now, w.workspaceId, row.forumId);
    });
    const results = await chunk[0]!.w.d1.batch(statements);
    updated += results.reduce((n, r) => n + (r.meta?.changes ?? 0), 0);
  }
  return updated;
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
export async function replaceMatches(
  w: WorkspaceDb,
  changes: MatchChange[],
  kind: MatchedKind = "posts",
): Promise<void> {
  const now = nowIso();
  for (let i = 0; i < changes.length; i += ITEMS_PER_BATCH) {
    const statements = changes.slice(i, i + ITEMS_PER_BATCH).flatMap((c) => [
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

// --- the two kinds -------------------------------------------------------------------------------------

/** A post as the forum gives it, with our matches and score. */
export interface IngestedPost extends MatchedItem {
  title: string;
  selftext: string;
  url: string;
  numComments: number;
}

/** A post's own fields, by column. */
const postValues = (r: IngestedPost): ForumValues<"posts"> => ({
  title: r.title,
  selftext: r.selftext,
  url: r.url,
  num_comments: r.numComments,
});

/** Posts upserted with their links, the triage flags never written (upsertMatchedItems). */
export const upsertForumPosts = (w: WorkspaceDb, rows: IngestedPost[], onCreated?: OnCreated) =>
  upsertMatchedItems(w, "posts", rows, postValues, onCreated);

/** Posts of many workspaces at once (upsertItemsOfWorkspaces). */
export const upsertPostsOfWorkspaces = (sets: WorkspaceItems<IngestedPost>[], onCreated?: OnCreatedIn) =>
  upsertItemsOfWorkspaces("posts", sets, postValues, onCreated);

/** A comment as the forum gives it, with our matches and score. */
export interface IngestedComment extends MatchedItem {
  postForumId: string;
  /** '' when unknown: a stored title is then kept. */
  threadTitle: string;
  body: string;
}

/** A comment's own fields, by column. */
const commentValues = (r: IngestedComment): ForumValues<"comments"> => ({
  post_forum_id: r.postForumId,
  thread_title: r.threadTitle,
  body: r.body,
});

/**
 * Comments of many workspaces upserted with their links, as posts are (upsertItemsOfWorkspaces); a '' thread
 * title keeps the stored one.
 */
export const upsertCommentsOfWorkspaces = (sets: WorkspaceItems<IngestedComment>[], onCreated?: OnCreatedIn) =>
  upsertItemsOfWorkspaces("comments", sets, commentValues, onCreated);
