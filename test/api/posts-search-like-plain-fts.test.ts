// posts_fts keeps every workspace's words apart with a tag (migration 0065) and src/db/fts-terms.ts tags
// the user's query the same way (test/api/posts-search-per-workspace.test.ts). Here, many more queries:
// any query finds exactly the posts a plain FTS5 table with the same tokenizer and no tags finds over the
// same posts (in SQL and through the route), it is refused exactly when that table refuses it, no other
// workspace's post ever matches, and inserts, updates and deletes leave exactly the tagged tokens of
// today's text in the index.
import { env } from "cloudflare:workers";
import { drizzle } from "drizzle-orm/d1";
import { beforeAll, describe, expect, it } from "vitest";
import { archivedFacet, ftsTag, liveFacet, scopeSearch, subredditFacet } from "../../src/db/fts-terms";
import * as schema from "../../src/db/schema";
import { callJson, createTestWorkspace, type TestWorkspace } from "../helpers/api";
import { prng, SEARCH_WORDS, seedWorkspace } from "../helpers/seeded-posts";

const db = drizzle(env.DB, { schema });

/** Texts the seeded posts lack: accents (composed and combining), other scripts, punctuation inside words. */
const ODD_TEXTS: [string, string][] = [
  ["Café naïve résumé", "Straße über São_Paulo; the e-mail of don't-care fame"],
  ["Cafe\u0301 x\u0301y", "e\u0301t CAFÉ ÉCOLE école v1.2 2024-11-24 10:25"],
  ["हैलो वर्ल्ड", "你好世界 Привет мир Γειά σου 😀 emoji 👍🏽 pricing"],
  ["s\u0336t\u0336r\u0336i\u0336k\u0336e\u0336 text", "under\u0332lined and ｆｕｌｌｗｉｄｔｈ pricing"],
  ["NEAR near AND and OR or NOT not", "title selftext pricing customer support"],
  ["customer—support", "customer_support customer-support customer's support"],
  ["", "pricing\u00a0customer\u2028support\ttab"],
];

async function insertPost(workspaceId: number, forumId: string, title: string, selftext: string) {
  const row = await db
    .insert(schema.posts)
    .values({
      workspaceId,
      forumId,
      subreddit: "SaaS",
      title,
      selftext,
      author: "someone",
      url: `https://www.reddit.com/r/SaaS/comments/${forumId}/`,
      permalink: `/r/SaaS/comments/${forumId}/`,
      createdUtc: "2026-11-01T10:00:00.000Z",
    })
    .returning({ id: schema.posts.id })
    .get();
  return row.id;
}

type Outcome = number[] | "refused";

/** A plain FTS5 table (no tags, today's tokenizer) over `workspaceId`'s posts as they are now. */
async function rebuildPlain(workspaceId: number) {
  await env.DB.batch([
    env.DB.prepare("DROP TABLE IF EXISTS test_plain_fts"),
    env.DB.prepare(
      "CREATE VIRTUAL TABLE test_plain_fts USING fts5(title, selftext, content='', tokenize='unicode61 remove_diacritics 2')",
    ),
    env.DB.prepare(
      "INSERT INTO test_plain_fts(rowid, title, selftext) SELECT id, title, selftext FROM posts WHERE workspace_id = ?",
    ).bind(workspaceId),
  ]);
}

async function ids(sql: string, ...params: (string | number)[]): Promise<Outcome> {
  try {
    const r = await env.DB.prepare(sql)
      .bind(...params)
      .all<{ id: number }>();
    return r.results.map((x) => x.id);
  } catch {
    return "refused";
  }
}

const plainIds = (query: string) =>
  ids("SELECT rowid AS id FROM test_plain_fts WHERE test_plain_fts MATCH ? ORDER BY rowid", query);

/**
 * The posts the tagged query finds in the whole table, as post ids (the rowid's low 31 bits, migration
 * 0066; the rowid itself is past JavaScript's exact integers, so it is split in SQL).
 */
async function taggedIds(workspaceId: number, query: string): Promise<Outcome> {
  const tagged = scopeSearch(query, workspaceId);
  let found: { id: number; ws: number | null }[];
  try {
    found = (
      await env.DB.prepare(
        "SELECT f.id, p.workspace_id AS ws FROM (SELECT rowid & 2147483647 AS id FROM posts_fts WHERE posts_fts MATCH ?) AS f " +
          "LEFT JOIN posts p ON p.id = f.id ORDER BY f.id",
      )
        .bind(tagged)
        .all<{ id: number; ws: number | null }>()
    ).results;
  } catch {
    return "refused";
  }
  // Not one post of another workspace: the tags alone keep them apart.
  for (const hit of found) expect(hit.ws).toBe(workspaceId);
  return found.map((hit) => hit.id);
}

const byPostColumnOffset = (lines: { post: number; col: string; o: number; term: string }[]) =>
  lines
    .sort((a, b) => a.post - b.post || (a.col < b.col ? -1 : a.col > b.col ? 1 : 0) || a.o - b.o)
    .map((t) => `${t.post} ${t.col} ${t.o} ${t.term}`);

/** The index's tokens of `workspaceId`'s posts, as (post, column, offset, token) lines. */
async function indexedTokens(workspaceId: number) {
  const r = await env.DB.batch([
    env.DB.prepare("CREATE VIRTUAL TABLE IF NOT EXISTS test_posts_terms USING fts5vocab(posts_fts, instance)"),
    env.DB.prepare(
      'SELECT p.id AS post, col, "offset" AS o, term, (doc >> 31) = unixepoch(p.created_utc) AS dated FROM test_posts_terms ' +
        "JOIN posts p ON p.id = (doc & 2147483647) WHERE p.workspace_id = ?",
    ).bind(workspaceId),
  ]);
  const lines = r[1]!.results as { post: number; col: string; o: number; term: string; dated: number }[];
  // Every entry's rowid is its post's date in seconds, then its id (migration 0066).
  expect(lines.filter((t) => t.dated !== 1)).toEqual([]);
  return byPostColumnOffset(lines);
}

/**
 * What the index must hold: the plain table's tokens of today's text, each with the workspace's tag, and
 * every post's two facets (its subreddit, archived or not).
 */
async function expectedTokens(workspaceId: number) {
  await rebuildPlain(workspaceId);
  const r = await env.DB.batch([
    env.DB.prepare("CREATE VIRTUAL TABLE IF NOT EXISTS test_plain_terms USING fts5vocab(test_plain_fts, instance)"),
    env.DB.prepare('SELECT doc AS post, col, "offset" AS o, term FROM test_plain_terms'),
    env.DB.prepare("SELECT id, subreddit, archived FROM posts WHERE workspace_id = ?").bind(workspaceId),
  ]);
  const tag = ftsTag(workspaceId);
  const words = (r[1]!.results as { post: number; col: string; o: number; term: string }[]).map((t) => ({
    ...t,
    term: `${tag}${t.term}`,
  }));
  const facets = (r[2]!.results as { id: number; subreddit: string; archived: number }[]).flatMap((p) => [
    { post: p.id, col: "facets", o: 0, term: subredditFacet(workspaceId, p.subreddit) },
    { post: p.id, col: "facets", o: 1, term: p.archived ? archivedFacet(workspaceId) : liveFacet(workspaceId) },
  ]);
  return byPostColumnOffset([...words, ...facets]);
}

/** Queries of every form FTS5 knows, and malformed ones; then random combinations of them. */
function queries(): string[] {
  const fixed = [
    "pricing",
    "PRICING",
    "Pricing customer",
    "pricing AND customer",
    "pricing OR migration",
    "pricing NOT migration",
    "customer NOT pricing OR migration",
    "(pricing OR migration) AND NOT support",
    "(pricing OR migration) NOT (customer support)",
    '"customer support"',
    '"support customer"',
    '"customer support" pricing',
    "customer + support",
    "customer+support*",
    "integrat*",
    "int*",
    "i*",
    '"customer sup"*',
    "pri*ng",
    "pricing*",
    "^pricing",
    "^customer",
    '^"customer support"',
    "title:pricing",
    "selftext:pricing",
    "title : pricing",
    "{title selftext}:pricing",
    "{title}: pricing",
    "-title:pricing",
    "-{title}:customer",
    "title:(pricing OR migration)",
    "title:^pricing",
    "{title selftext} : (pricing)",
    "NEAR(customer support)",
    "NEAR(customer support, 0)",
    "NEAR(pricing support, 3)",
    'NEAR("customer support" pricing, 5)',
    "NEAR(pricing  customer , 2 )",
    "NEAR(pricing customer,2)",
    "near",
    "NEAR",
    "and pricing",
    "not",
    "e-mail",
    '"e-mail"',
    "don't",
    '"don\'t"',
    '"don\'t-care"',
    "cafe",
    "café",
    "CAFÉ",
    "Cafe\u0301",
    "caf*",
    "ecole",
    "école",
    "naive",
    "résumé",
    "straße",
    "strasse",
    "uber",
    "sao_paulo",
    "São_Paulo",
    "sao",
    "x\u0301y",
    "xy",
    '"e\u0301t"',
    "et",
    "v1",
    '"v1.2"',
    '"2024 11 24"',
    "2024*",
    "हैलो",
    "हैल*",
    "वर्ल्ड",
    "你好世界",
    "你好*",
    "привет",
    "ΓΕΙΆ",
    "γεια",
    "😀",
    "😀 pricing",
    "strike",
    '"s t r i k e"',
    "under",
    '"under lined"',
    "fullwidth",
    "ｆｕｌｌｗｉｄｔｈ",
    "customer—support",
    '"customer s"',
    "customer_support",
    "tab",
    '"pricing customer support"',
    'abc"pricing"',
    'pricing"customer"',
    '"pricing""customer"',
    "pricing *",
    // What FTS5 refuses (or reads oddly): the rewrite must refuse exactly the same.
    '"unterminated',
    "pricing AND",
    "(",
    ")",
    "*",
    "+",
    ":",
    "title:",
    "nosuchcolumn:pricing",
    "NEAR(pricing migration, x)",
    "NEAR(pricing migration, 99999999999999999999)",
    "NEAR (pricing customer)",
    "pricing (customer)",
    "pricing AND (migration OR",
    "AND",
    "OR OR",
    "(())",
    '""',
    '"',
    "-pricing",
    "pricing -customer",
    "- title:pricing",
    "pricing**",
    "NOT pricing",
    "pricing\u0000customer",
    "\u0000",
    "\tpricing\ncustomer\r",
    "pricing\u000bcustomer",
    "pricing\u000ccustomer",
    "pricing\u00a0customer",
    "pricing\u2028customer",
    "\u001apricing",
    "a".repeat(500),
  ];
  // Every ASCII character between two words: FTS5's own split of syntax and words.
  for (let c = 1; c < 128; c++) fixed.push(`pricing${String.fromCharCode(c)}customer`);
  const rand = prng(1616);
  const atoms = [
    ...SEARCH_WORDS,
    "customer support",
    '"customer support"',
    "integrat*",
    "title:pricing",
    "selftext:customer",
    "café",
    "e-mail",
    "alpha",
    "NEAR(customer support, 1)",
    "^support",
  ];
  for (let i = 0; i < 150; i++) {
    const parts: string[] = [];
    const n = 1 + rand.int(4);
    for (let k = 0; k < n; k++) {
      parts.push(rand.pick(atoms));
      if (k < n - 1) parts.push(rand.pick(["", "", "AND", "OR", "NOT"]));
    }
    const q = parts.filter((p) => p !== "").join(" ");
    fixed.push(rand.chance(0.2) ? `(${q})` : q);
  }
  return fixed;
}

describe("the tagged full-text index answers like a plain one", () => {
  let ws: TestWorkspace;
  let other: number;

  beforeAll(async () => {
    ws = await createTestWorkspace("fts tags");
    await seedWorkspace(ws.id, { count: 250, seed: 1601, forumPrefix: "t3_tag_" });
    for (const [i, [title, selftext]] of ODD_TEXTS.entries()) await insertPost(ws.id, `t3_odd_${i}`, title, selftext);
    // Another workspace with the very same texts: its posts must never answer the first one's queries.
    other = (await createTestWorkspace("fts tags: other")).id;
    await env.DB.prepare(
      `INSERT INTO posts (workspace_id, forum_id, subreddit, title, selftext, author, url, permalink, created_utc)
       SELECT ?, forum_id, subreddit, title, selftext, author, url, permalink, created_utc FROM posts WHERE workspace_id = ?`,
    )
      .bind(other, ws.id)
      .run();
    await rebuildPlain(ws.id);
  });

  it("every query finds the same posts as a plain FTS5 table, or is refused by both", async () => {
    let found = 0;
    let refused = 0;
    for (const query of queries()) {
      const expected = await plainIds(query);
      expect(await taggedIds(ws.id, query), JSON.stringify(query)).toEqual(expected);
      if (expected === "refused") refused++;
      else if (expected.length > 0) found++;
    }
    // The cases mean something: many queries find posts, and many are refused.
    expect(found).toBeGreaterThan(150);
    expect(refused).toBeGreaterThan(40);
  });

  /**
   * The route's answer to `query` with `params` beside it, checked against what the plain table answers
   * (`expected`, filtered by `kept` when given): 400 validation_failed where FTS5 refuses the query (an
   * empty search is refused by the route's own validation before FTS5 sees it), else 200 with those posts.
   * Answers how many posts the route found.
   */
  async function expectRoute(query: string, params: Record<string, string>, kept?: Set<number>): Promise<number> {
    const expected = await plainIds(query);
    const res = await callJson(
      `/api/v1/posts?${new URLSearchParams({ search: query, sort_by: "date", limit: "500", ...params })}`,
      { key: ws.readKey },
    );
    if (expected === "refused") {
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.error.code).toBe("validation_failed");
      return 0;
    }
    expect(res.status, JSON.stringify([query, res.body])).toBe(200);
    const ids = (res.body.data as { id: number }[]).map((p) => p.id).sort((a, b) => a - b);
    expect(ids, JSON.stringify(query)).toEqual(kept ? expected.filter((id) => kept.has(id)) : expected);
    return ids.length;
  }

  it("the route answers the same posts, and 400 validation_failed for what FTS5 refuses", async () => {
    for (const query of queries().slice(0, 140)) await expectRoute(query, { include_archived: "true" });
  });

  it("with the filters the index answers beside the query (subreddit, not archived), the same posts as the plain table's filtered", async () => {
    const kept = new Set(
      (
        await env.DB.prepare(
          "SELECT id FROM posts WHERE workspace_id = ? AND subreddit = 'saas' COLLATE NOCASE AND archived = 0",
        )
          .bind(ws.id)
          .all<{ id: number }>()
      ).results.map((p) => p.id),
    );
    let found = 0;
    for (const query of queries()) if ((await expectRoute(query, { subreddit: "saas" }, kept)) > 0) found++;
    expect(found).toBeGreaterThan(100);
  });

  it("the index holds exactly today's tokens, tagged, after inserts, updates and deletes", async () => {
    expect(await indexedTokens(ws.id)).toEqual(await expectedTokens(ws.id));
    const added = await insertPost(ws.id, "t3_added", "Brand new words", "zebra quagga okapi");
    expect(await taggedIds(ws.id, "quagga")).toEqual([added]);
    await env.DB.prepare("UPDATE posts SET title = 'Renamed heading', selftext = 'narwhal' WHERE id = ?")
      .bind(added)
      .run();
    expect(await taggedIds(ws.id, "quagga")).toEqual([]);
    expect(await taggedIds(ws.id, "narwhal OR renamed")).toEqual([added]);
    // A change to other columns leaves the words alone (archiving changes the post's facet only); the post
    // is still found.
    await env.DB.prepare("UPDATE posts SET score = score + 1, archived = 1 WHERE id = ?").bind(added).run();
    expect(await taggedIds(ws.id, "narwhal")).toEqual([added]);
    const gone = (await env.DB.prepare("SELECT id FROM posts WHERE workspace_id = ? AND forum_id = 't3_odd_0'")
      .bind(ws.id)
      .first<{ id: number }>())!.id;
    expect(await taggedIds(ws.id, "straße")).toContain(gone);
    await env.DB.prepare("DELETE FROM posts WHERE id = ?").bind(gone).run();
    expect(await taggedIds(ws.id, "straße")).toEqual([]);
    expect(await indexedTokens(ws.id)).toEqual(await expectedTokens(ws.id));
    // The other workspace's copy is untouched by all that.
    expect(await taggedIds(other, "straße")).toHaveLength(1);
    // The scratch table is empty after every write.
    expect((await env.DB.prepare("SELECT count(*) AS n FROM posts_fts_scratch_words").first<{ n: number }>())!.n).toBe(
      0,
    );
  });

  it("known difference: a non-letter Unicode assigned after 6.1 (a skin-tone modifier) splits the query's word", async () => {
    // unicode61's tables are Unicode 6.1's: U+1F3FD was unassigned then, so it is a word character in the
    // index ("🏽"), while the query side, which knows today's Unicode, sees a symbol between words.
    const withTone = await plainIds("👍🏽");
    expect(withTone).toHaveLength(1);
    expect(await taggedIds(ws.id, "👍🏽")).toEqual([]);
  });
});
