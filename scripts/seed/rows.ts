// Bulk writes of a workspace's content, for seeding only (npm run seed, the demo workspace, benchmarks and
// tests, all through src/seed/). Rows travel as one JSON parameter per statement and SQLite unpacks them
// with json_each, so a thousand posts cost one statement and one bound parameter (D1: at most 100 bound
// parameters per statement), and the FTS5 and has_competitors triggers run as for any other insert.
import { eq } from "drizzle-orm";
import type { WorkspaceDb } from "../../src/db/client";
import { competitors, keywords, workspaces } from "../../src/db/schema";

export type SeedKeyword = Omit<typeof keywords.$inferInsert, "id" | "workspaceId" | "createdAt">;
export type SeedCompetitor = Omit<typeof competitors.$inferInsert, "id" | "workspaceId" | "createdAt">;

/** A post as the seed writes it: the stored columns the forum gives us and the triage state. */
export interface SeedPost {
  forumId: string;
  subreddit: string;
  title: string;
  selftext: string;
  author: string;
  url: string;
  score: number;
  numComments: number;
  createdUtc: string;
  permalink: string;
  isAnswered: boolean;
  archived: boolean;
  skipped: boolean;
  priority: "high" | "medium" | "low" | null;
  urgency: "urgent" | "not_urgent" | null;
  scoreReasons?: string[];
}

/** Posts per statement: keeps the JSON parameter well under D1's 2 MB value limit. */
const POSTS_PER_STATEMENT = 500;
const LINKS_PER_STATEMENT = 5000;
/** Statements per db.batch call (one round trip, one implicit transaction). */
const STATEMENTS_PER_BATCH = 20;

function* chunks<T>(list: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < list.length; i += size) yield list.slice(i, i + size);
}

/** Inserts keywords in order; returns their ids in the same order. */
export async function insertKeywords(w: WorkspaceDb, rows: readonly SeedKeyword[]): Promise<number[]> {
  if (rows.length === 0) return [];
  const statements = rows.map((row) =>
    w.db
      .insert(keywords)
      .values({ ...row, workspaceId: w.workspaceId })
      .returning({ id: keywords.id }),
  );
  const results = (await w.db.batch(statements as unknown as [(typeof statements)[0]])) as { id: number }[][];
  return results.map((r) => r[0]!.id);
}

/** Inserts competitors in order; returns their ids in the same order. */
export async function insertCompetitors(w: WorkspaceDb, rows: readonly SeedCompetitor[]): Promise<number[]> {
  if (rows.length === 0) return [];
  const statements = rows.map((row) =>
    w.db
      .insert(competitors)
      .values({ ...row, workspaceId: w.workspaceId })
      .returning({ id: competitors.id }),
  );
  const results = (await w.db.batch(statements as unknown as [(typeof statements)[0]])) as { id: number }[][];
  return results.map((r) => r[0]!.id);
}

const postJson = (p: SeedPost) => ({
  f: p.forumId,
  s: p.subreddit,
  t: p.title,
  x: p.selftext,
  a: p.author,
  u: p.url,
  sc: p.score,
  n: p.numComments,
  c: p.createdUtc,
  l: p.permalink,
  ia: p.isAnswered ? 1 : 0,
  ar: p.archived ? 1 : 0,
  sk: p.skipped ? 1 : 0,
  p: p.priority,
  ur: p.urgency,
  r: JSON.stringify(p.scoreReasons ?? []),
});

const INSERT_POSTS = `INSERT INTO posts (workspace_id, forum_id, subreddit, title, selftext, author, url, score,
    num_comments, created_utc, permalink, is_answered, archived, skipped, priority, urgency, score_reasons)
  SELECT ?1, value ->> 'f', value ->> 's', value ->> 't', value ->> 'x', value ->> 'a', value ->> 'u',
    value ->> 'sc', value ->> 'n', value ->> 'c', value ->> 'l', value ->> 'ia', value ->> 'ar', value ->> 'sk',
    value ->> 'p', value ->> 'ur', value ->> 'r'
  FROM json_each(?2)
  RETURNING id, forum_id`;

/** Inserts posts (forum ids unique within the workspace); returns their ids in the order given. */
export async function insertPosts(w: WorkspaceDb, rows: readonly SeedPost[]): Promise<number[]> {
  const statements = [...chunks(rows, POSTS_PER_STATEMENT)].map((chunk) =>
    w.d1.prepare(INSERT_POSTS).bind(w.workspaceId, JSON.stringify(chunk.map(postJson))),
  );
  const idOf = new Map<string, number>();
  for (const batch of chunks(statements, STATEMENTS_PER_BATCH)) {
    for (const result of await w.d1.batch<{ id: number; forum_id: string }>(batch))
      for (const row of result.results) idOf.set(row.forum_id, row.id);
  }
  return rows.map((p) => {
    const id = idOf.get(p.forumId);
    if (id === undefined) throw new Error(`seeded post ${p.forumId} has no id`);
    return id;
  });
}

const linkInsert = (table: "post_keywords" | "post_competitors", column: "keyword_id" | "competitor_id") =>
  `INSERT INTO ${table} (workspace_id, post_id, ${column}) SELECT ?1, value ->> 0, value ->> 1 FROM json_each(?2)`;

/** Links posts to the keywords they matched and the competitors they mention (ids of this workspace). */
export async function insertPostLinks(
  w: WorkspaceDb,
  links: { keywords: readonly [postId: number, keywordId: number][]; competitors: readonly [number, number][] },
): Promise<void> {
  const statements = [
    ...[...chunks(links.keywords, LINKS_PER_STATEMENT)].map((chunk) =>
      w.d1.prepare(linkInsert("post_keywords", "keyword_id")).bind(w.workspaceId, JSON.stringify(chunk)),
    ),
    ...[...chunks(links.competitors, LINKS_PER_STATEMENT)].map((chunk) =>
      w.d1.prepare(linkInsert("post_competitors", "competitor_id")).bind(w.workspaceId, JSON.stringify(chunk)),
    ),
  ];
  for (const batch of chunks(statements, STATEMENTS_PER_BATCH)) await w.d1.batch(batch);
}

/** Removes a workspace and everything in it (foreign keys cascade): undoes a seed that failed half way. */
export async function deleteWorkspace(w: WorkspaceDb): Promise<void> {
  await w.db.delete(workspaces).where(eq(workspaces.id, w.workspaceId));
}
