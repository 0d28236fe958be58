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

/** The forum ids among `forumIds` the workspace stores already. */
async function existingIds(w: WorkspaceDb, kind: MatchedKind, forumIds: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < forumIds.length; i += IDS_PER_STATEMENT) {
    const chunk = forumIds.slice(i, i + IDS_PER_STATEMENT);
    const { results } = await w.d1
      .prepare(
        `SELECT forum_id FROM ${kind} WHERE workspace_id = ? AND forum_id IN (${chunk.map(() => "?").join(", ")})`,
      )
      .bind(w.workspaceId, ...chunk)
      .all<{ forum_id: string }>();
    for (const r of results) found.add(r.forum_id);
  }
  return found;
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

/**
 * Inserts new items and updates known ones (unique by workspace and forum id): the forum's fields, the score and
 * the matches change, the triage flags never. Each item's row and links are written in one batch with it.
 * `onCreated` hears of the items each batch stored for the first time as soon as it is written, so a later batch
 * that fails takes none of them with it (their alerts: a later read finds them stored and never announces them).
 */
export async function upsertMatchedItems<K extends MatchedKind, R extends MatchedItem>(
  w: WorkspaceDb,
  kind: K,
  rows: R[],
  valuesOf: (row: R) => ForumValues<K>,
  onCreated: OnCreated = async () => {},
): Promise<{ created: number; updated: number }> {
  if (rows.length === 0) return { created: 0, updated: 0 };
  const existing = await existingIds(
    w,
    kind,
    rows.map((r) => r.forumId),
  );
  const now = nowIso();
  let created = 0;
  for (let i = 0; i < rows.length; i += ITEMS_PER_BATCH) {
    const chunk = rows.slice(i, i + ITEMS_PER_BATCH);
    await w.d1.batch(
      chunk.flatMap((r) => [
        upsertStatement(w, kind, r, valuesOf(r), now),
        ...linkStatements(w, r.forumId, r.keywordIds, r.competitorIds, kind),
      ]),
    );
    const fresh = chunk.filter((r) => !existing.has(r.forumId)).map((r) => r.forumId);
    if (fresh.length > 0) await onCreated(fresh);
    created += fresh.length;
  }
  return { created, updated: rows.length - created };
}

/**
 * A refreshed item that no longer matches keeps its links, score and triage: only these forum fields change.
 * The number of stored items changed.
 */
export async function refreshForumFields<K extends MatchedKind>(
  w: WorkspaceDb,
  kind: K,
  rows: { forumId: string; values: Partial<ForumValues<K> & Record<(typeof COMMON)[number], string | number>> }[],
): Promise<number> {
  const now = nowIso();
  let updated = 0;
  for (let i = 0; i < rows.length; i += ITEMS_PER_BATCH) {
    const statements = rows.slice(i, i + ITEMS_PER_BATCH).map((r) => {
      const entries = Object.entries(r.values) as [string, string | number][];
      return w.d1
        .prepare(
          `UPDATE ${kind} SET ${entries.map(([c]) => `${c} = ?`).join(", ")}, updated_at = ?
           WHERE workspace_id = ? AND forum_id = ?`,
        )
        .bind(...entries.map(([, v]) => v), now, w.workspaceId, r.forumId);
    });
    if (statements.length === 0) continue;
    const results = await w.d1.batch(statements);
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

/** Comments upserted with their links, as posts are (upsertMatchedItems); a '' thread title keeps the stored one. */
export const upsertComments = (w: WorkspaceDb, rows: IngestedComment[], onCreated?: OnCreated) =>
  upsertMatchedItems(w, "comments", rows, commentValues, onCreated);
