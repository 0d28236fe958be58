// Every workspace has its own vocabulary in the full-text index (migration 0065, src/db/fts-terms.ts): the
// triggers store each word behind the workspace's tag, and a search is rewritten to ask for tagged words.
// These tests hold the rewritten search against the plain index it replaced: for queries of every FTS5 form,
// the tagged index answers exactly the posts a plain FTS5 table (same tokenizer, no tags) answers over the
// same posts, and a query FTS5 refuses is refused in both. They also check that another workspace's
// identical posts never match, that inserts, updates and deletes keep the index right, that the
// migration's backfill gives what the triggers give, and the list of combining marks the rewrite keeps
// inside a word against FTS5 itself.
import { applyD1Migrations, env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import {
  archivedFacet,
  FTS_DIACRITIC_MARKS,
  ftsTag,
  liveFacet,
  scopeSearch,
  subredditFacet,
} from "../../src/db/fts-terms";
import { createTestWorkspace } from "../helpers/api";

const TEXTS: [title: string, body: string][] = [
  ["Pricing for small teams", "We moved from Mailchimp to something cheaper; customer support was slow."],
  ["Café owners: which CRM?", "Naïve question about e-mail marketing and the crème de la crème of tools."],
  ["Migration guide", "migrating migrations migrate: step_by_step notes, v2.0 and 1,000 users"],
  ["日本語のテキスト検索", "全文検索 and pricing in ｆｕｌｌ width"],
  ["Thai กินข้าว test", "देवनागरी काम text with marks"],
  ["Straße and ǅemal", "ﬁne ligatures, ΑΒΓ Greek, Ωmega"],
  ["customer support pricing", "support for customers; pricing page; integration integrations integrate"],
  ["Don't over-think it", "it's the customer's call — really “quoted” words"],
  ["decomposed cafe\u0301 and \u0301leading", "a\u0308b and ก\u0e34น"],
  ["numbers 2024 and 2025", "2024-11-24 release; 3.5 stars; 10x growth"],
  ["Empty body", ""],
  ["pricing pricing pricing", "pricing"],
];

const QUERIES = [
  "pricing",
  "PRICING",
  "pricing support",
  "pricing OR mailchimp",
  "pricing NOT customer",
  "pricing AND (support OR crm)",
  '"customer support"',
  '"support pricing"',
  "custom*",
  "migrat*",
  '"customer sup"*',
  "cafe",
  "café",
  "Café",
  "naive",
  "creme",
  "e-mail",
  '"e-mail"',
  '"e mail"',
  "step_by_step",
  "2024",
  '"3.5"',
  "日本語のテキスト検索",
  "全文検索",
  "ｆｕｌｌ",
  "full",
  "กินข้าว",
  "ก",
  "น",
  "काम",
  "strasse",
  "straße",
  "ǆemal",
  "ﬁne",
  "αβγ",
  "ωmega",
  "ab",
  "a\u0308b",
  "cafe\u0301",
  '"\u0301leading"',
  "leading",
  "title:pricing",
  "selftext:pricing",
  "-title:pricing",
  "{title selftext}:support",
  "{title}:migration",
  "^pricing",
  "^customer",
  "title:^numbers",
  "NEAR(customer pricing)",
  "NEAR(customer pricing, 2)",
  "NEAR(customer integration, 3)",
  'NEAR("customer support" pricing, 10)',
  "customer + support",
  '"don\'t"',
  '"over-think"',
  "it's",
  '"it""s"',
  "quoted",
  "_",
  '""',
  "pricing _",
  "(pricing)",
  "((pricing OR migration) NOT (café))",
  "pricing OR",
  "AND pricing",
  "NEAR(pricing",
  '"unterminated',
  "pricing:",
  "nosuchcolumn:pricing",
  "pricing (support)",
  "foo.bar",
  "a:b:c",
  "*",
  "NOT",
  "near",
  "NEAR",
  "pricing NEAR support",
];

type Answer = { ids: number[] } | { error: true };

async function answer(db: D1Database, sql: string, params: unknown[]): Promise<Answer> {
  try {
    const r = await db
      .prepare(sql)
      .bind(...params)
      .all<{ id: number }>();
    return { ids: r.results.map((row) => row.id).sort((a, b) => a - b) };
  } catch {
    return { error: true };
  }
}

/** The posts a plain FTS5 table over `texts` (rowid = position + 1) answers. */
const plainAnswer = (db: D1Database, query: string) =>
  answer(db, "SELECT rowid AS id FROM plain_fts WHERE plain_fts MATCH ?", [query]);

/** The posts of `workspaceId` the tagged index answers, as positions in the workspace's insert order. */
async function taggedAnswer(db: D1Database, workspaceId: number, query: string, postIds: number[]): Promise<Answer> {
  // The post id is the rowid's low 31 bits (migration 0066).
  const a = await answer(db, "SELECT rowid & 2147483647 AS id FROM posts_fts WHERE posts_fts MATCH ?", [
    scopeSearch(query, workspaceId),
  ]);
  if ("error" in a) return a;
  // Any hit outside the workspace's own posts would show as a position of 0 and fail the comparison.
  return { ids: a.ids.map((id) => postIds.indexOf(id) + 1).sort((x, y) => x - y) };
}

async function insertPosts(db: D1Database, workspaceId: number, prefix: string): Promise<number[]> {
  const ids: number[] = [];
  for (const [i, [title, body]] of TEXTS.entries()) {
    const row = await db
      .prepare(
        `INSERT INTO posts (workspace_id, forum_id, subreddit, title, selftext, author, url, permalink, created_utc)
         VALUES (?, ?, 'SaaS', ?, ?, 'someone', 'https://www.reddit.com/r/SaaS/', '/r/SaaS/', '2026-11-01T10:00:00.000Z')
         RETURNING id`,
      )
      .bind(workspaceId, `${prefix}${i}`, title, body)
      .first<{ id: number }>();
    ids.push(row!.id);
  }
  return ids;
}

async function createPlainIndex(db: D1Database) {
  await db.batch([
    db.prepare(
      "CREATE VIRTUAL TABLE plain_fts USING fts5(title, selftext, content='', tokenize='unicode61 remove_diacritics 2')",
    ),
    ...TEXTS.map(([title, body], i) =>
      db.prepare("INSERT INTO plain_fts(rowid, title, selftext) VALUES (?, ?, ?)").bind(i + 1, title, body),
    ),
  ]);
}

describe("the full-text index keeps a vocabulary per workspace", () => {
  let a: number;
  let b: number;
  let aIds: number[];
  let bIds: number[];

  beforeAll(async () => {
    a = (await createTestWorkspace("terms a")).id;
    b = (await createTestWorkspace("terms b")).id;
    aIds = await insertPosts(env.DB, a, "t3_a");
    bIds = await insertPosts(env.DB, b, "t3_b");
    await createPlainIndex(env.DB);
  });

  it("answers every query form exactly as a plain index over the same posts, in each workspace", async () => {
    let matched = 0;
    for (const query of QUERIES) {
      const plain = await plainAnswer(env.DB, query);
      if ("ids" in plain && plain.ids.length > 0) matched++;
      expect(await taggedAnswer(env.DB, a, query, aIds), query).toEqual(plain);
      expect(await taggedAnswer(env.DB, b, query, bIds), query).toEqual(plain);
    }
    // The list must exercise matching, not only refusals and empty answers.
    expect(matched).toBeGreaterThan(40);
  });

  it("never lets one workspace's words match another's, and tags what it indexes", async () => {
    const untagged = await env.DB.prepare("SELECT count(*) AS n FROM posts_fts WHERE posts_fts MATCH 'pricing'").first<{
      n: number;
    }>();
    expect(untagged!.n).toBe(0);
    const tagged = await env.DB.prepare("SELECT rowid & 2147483647 AS id FROM posts_fts WHERE posts_fts MATCH ?")
      .bind(`${ftsTag(a)}mailchimp`)
      .all<{ id: number }>();
    expect(tagged.results.map((r) => r.id)).toEqual([aIds[0]!]);
    expect(ftsTag(42)).toBe("w0000002a");
    // The scratch index that splits the words is left empty.
    const scratch = await env.DB.prepare("SELECT count(*) AS n FROM posts_fts_scratch_words").first<{ n: number }>();
    expect(scratch!.n).toBe(0);
  });

  it("follows a post's new text, and forgets a deleted post", async () => {
    const id = aIds[2]!; // "Migration guide"
    const find = (q: string) => taggedAnswer(env.DB, a, q, aIds);
    expect(await find("guide")).toEqual({ ids: [3] });
    await env.DB.prepare("UPDATE posts SET title = 'Moving guide', selftext = 'relocation notes' WHERE id = ?")
      .bind(id)
      .run();
    expect(await find("guide")).toEqual({ ids: [3] });
    expect(await find("relocation")).toEqual({ ids: [3] });
    expect(await find("migrat*")).toEqual({ ids: [] });
    expect(await find('"moving guide"')).toEqual({ ids: [3] });
    // A change to another column leaves the entry as it is.
    await env.DB.prepare("UPDATE posts SET score = 7 WHERE id = ?").bind(id).run();
    expect(await find("relocation")).toEqual({ ids: [3] });
    await env.DB.prepare("DELETE FROM posts WHERE id = ?").bind(id).run();
    expect(await find("relocation OR guide")).toEqual({ ids: [] });
    // Workspace b's copy of the post is untouched.
    expect(await taggedAnswer(env.DB, b, "migrat*", bIds)).toEqual({ ids: [3] });
  });

  it("keeps inside a word exactly the combining marks FTS5 keeps (and drops) inside a token", async () => {
    const marks = Array.from({ length: 0x370 - 0x300 }, (_, i) => 0x300 + i);
    await env.DB.batch([
      env.DB.prepare("CREATE VIRTUAL TABLE marks_fts USING fts5(t, tokenize='unicode61 remove_diacritics 2')"),
      env.DB.prepare("CREATE VIRTUAL TABLE marks_words USING fts5vocab(marks_fts, instance)"),
      ...marks.map((c) =>
        env.DB.prepare("INSERT INTO marks_fts(rowid, t) VALUES (?, ?)").bind(c, `a${String.fromCodePoint(c)}b`),
      ),
    ]);
    const words = await env.DB.prepare("SELECT doc, count(*) AS n FROM marks_words GROUP BY doc").all<{
      doc: number;
      n: number;
    }>();
    const oneWord = words.results.filter((r) => r.n === 1).map((r) => r.doc);
    expect(oneWord).toEqual([...FTS_DIACRITIC_MARKS]);
  });
});

/** The posts of `workspaceId` carrying each facet token, as sorted ids, and the posts as the table says. */
async function facetsOf(db: D1Database, workspaceId: number) {
  const rows = (
    await db
      .prepare("SELECT id, subreddit, archived FROM posts WHERE workspace_id = ? ORDER BY id")
      .bind(workspaceId)
      .all<{ id: number; subreddit: string; archived: number }>()
  ).results;
  const carrying = async (token: string) =>
    (
      await db
        .prepare("SELECT rowid & 2147483647 AS id FROM posts_fts WHERE posts_fts MATCH ? ORDER BY id")
        .bind(token)
        .all<{ id: number }>()
    ).results.map((r) => r.id);
  const subreddits = [...new Set(rows.map((r) => r.subreddit.toLowerCase()))];
  return {
    found: {
      archived: await carrying(archivedFacet(workspaceId)),
      live: await carrying(liveFacet(workspaceId)),
      bySubreddit: await Promise.all(subreddits.map((name) => carrying(subredditFacet(workspaceId, name)))),
    },
    expected: {
      archived: rows.filter((r) => r.archived).map((r) => r.id),
      live: rows.filter((r) => !r.archived).map((r) => r.id),
      bySubreddit: subreddits.map((name) => rows.filter((r) => r.subreddit.toLowerCase() === name).map((r) => r.id)),
    },
  };
}

/** Entries whose rowid is not their post's date in seconds times 2^31 plus its id (migration 0066). */
const misdated = async (db: D1Database) =>
  (
    await db.batch([
      db.prepare("CREATE VIRTUAL TABLE IF NOT EXISTS test_dated_words USING fts5vocab(posts_fts, instance)"),
      db.prepare(
        "SELECT count(*) AS n FROM (SELECT DISTINCT doc FROM test_dated_words) AS d " +
          "LEFT JOIN posts p ON p.id = (d.doc & 2147483647) WHERE p.id IS NULL OR (d.doc >> 31) <> unixepoch(p.created_utc)",
      ),
    ])
  )[1]!.results[0] as { n: number };

describe("the index's facets follow the posts (migration 0066)", () => {
  it("every post carries its subreddit and archived state, and its date in the rowid, through edits", async () => {
    const db = env.DB;
    const ws = (await createTestWorkspace("facets")).id;
    const ids = await insertPosts(db, ws, "t3_facet");
    await db.batch([
      db.prepare("UPDATE posts SET archived = 1 WHERE id = ?").bind(ids[1]!),
      db.prepare("UPDATE posts SET subreddit = 'Start_Ups' WHERE id IN (?, ?)").bind(ids[2]!, ids[3]!),
      db.prepare("UPDATE posts SET created_utc = '2025-01-02T03:04:05.000Z' WHERE id = ?").bind(ids[4]!),
    ]);
    const { found, expected } = await facetsOf(db, ws);
    expect(expected.archived).toEqual([ids[1]]);
    expect(expected.bySubreddit.length).toBe(2);
    expect(found).toEqual(expected);
    expect((await misdated(db)).n).toBe(0);
    // The words moved with the post's new rowid.
    expect(await taggedAnswer(db, ws, "mailchimp OR guide", ids)).toEqual(await plainAnswer(db, "mailchimp OR guide"));
    // A date the rowid cannot hold is refused, and nothing is written.
    for (const date of ["yesterday", "1969-12-31T23:59:59.000Z", "2107-01-01T00:00:00.000Z"]) {
      await expect(
        db.prepare("UPDATE posts SET created_utc = ? WHERE id = ?").bind(date, ids[0]!).run(),
        date,
      ).rejects.toThrow(/created_utc/);
      await expect(
        db
          .prepare(
            `INSERT INTO posts (workspace_id, forum_id, subreddit, title, author, url, permalink, created_utc)
             VALUES (?, 't3_facet_bad', 'SaaS', 'pricing', 'someone', 'u', 'p', ?)`,
          )
          .bind(ws, date)
          .run(),
        date,
      ).rejects.toThrow(/created_utc/);
    }
    expect((await facetsOf(db, ws)).found).toEqual(expected);
    expect((await misdated(db)).n).toBe(0);
  });
});

describe("migrations 0065 and 0066 turn the shared index into tagged, dated words with facets", () => {
  it("gives the posts indexed before them the entries the triggers give new posts", async () => {
    const db = env.DB_SHARD_1;
    const before = env.TEST_MIGRATIONS.filter((m) => m.name < "0065");
    expect(before.length).toBeLessThan(env.TEST_MIGRATIONS.length);
    await applyD1Migrations(db, before);
    await db.prepare("INSERT INTO workspaces (id, name) VALUES (7, 'before'), (8, 'other')").run();
    const ids7 = await insertPosts(db, 7, "t3_x");
    const ids8 = await insertPosts(db, 8, "t3_y");
    // Indexed the old way: untagged words.
    const old = await db.prepare("SELECT count(*) AS n FROM posts_fts WHERE posts_fts MATCH 'pricing'").first<{
      n: number;
    }>();
    expect(old!.n).toBeGreaterThan(0);
    // Facets to carry over: an archived post, another subreddit, another date.
    await db.batch([
      db.prepare("UPDATE posts SET archived = 1 WHERE id = ?").bind(ids7[1]!),
      db.prepare("UPDATE posts SET subreddit = 'startups' WHERE id = ?").bind(ids7[2]!),
      db.prepare("UPDATE posts SET created_utc = '2024-02-29T23:59:59.000Z' WHERE id = ?").bind(ids8[3]!),
    ]);
    await applyD1Migrations(db, env.TEST_MIGRATIONS);
    for (const ws of [7, 8]) {
      const { found, expected } = await facetsOf(db, ws);
      expect(found, String(ws)).toEqual(expected);
    }
    expect((await misdated(db)).n).toBe(0);
    await createPlainIndex(db);
    for (const query of QUERIES) {
      const plain = await plainAnswer(db, query);
      expect(await taggedAnswer(db, 7, query, ids7), query).toEqual(plain);
      expect(await taggedAnswer(db, 8, query, ids8), query).toEqual(plain);
    }
    // Posts written after the migration are indexed by its triggers beside the backfilled ones.
    const more = await insertPosts(db, 7, "t3_z");
    const both = await taggedAnswer(db, 7, "mailchimp", [...ids7, ...more]);
    expect(both).toEqual({ ids: [1, TEXTS.length + 1] });
  });
});
