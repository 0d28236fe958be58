// GET /posts checked against the same filter and sort applied in plain JS to the seeded rows.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { callJson, createTestWorkspace, type TestWorkspace } from "../helpers/api";
import { type ModelPost, type SeededWorkspace, SUBREDDITS, seedWorkspace, toApiPost } from "../helpers/seeded-posts";

type Query = Record<string, string>;

const PRIORITY_RANK = { high: 3, medium: 2, low: 1 } as const;
const URGENCY_RANK = { urgent: 2, not_urgent: 1 } as const;

// ---- the reference model ----------------------------------------------------------------------------

type Term = { kind: "word"; text: string } | { kind: "prefix"; text: string } | { kind: "phrase"; words: string[] };

/** The subset of FTS5 syntax these tests use: words, "quoted phrases", prefix* terms, implicit AND. */
function parseSearch(query: string): Term[] {
  const terms: Term[] = [];
  for (const m of query.matchAll(/"([^"]*)"|(\S+)/g)) {
    if (m[1] !== undefined) terms.push({ kind: "phrase", words: m[1].toLowerCase().split(/\s+/) });
    else if (m[2]!.endsWith("*")) terms.push({ kind: "prefix", text: m[2]!.slice(0, -1).toLowerCase() });
    else terms.push({ kind: "word", text: m[2]!.toLowerCase() });
  }
  return terms;
}

const tokens = (text: string) => text.toLowerCase().split(/\s+/).filter(Boolean);

function occurrences(term: Term, column: string[]): number {
  let n = 0;
  for (let i = 0; i < column.length; i++) {
    if (term.kind === "word" && column[i] === term.text) n++;
    if (term.kind === "prefix" && column[i]!.startsWith(term.text)) n++;
    if (term.kind === "phrase" && term.words.every((w, j) => column[i + j] === w)) n++;
  }
  return n;
}

/** How often the query's terms occur in a post (title and body); 0 when any term is missing. */
function termFrequency(post: ModelPost, terms: Term[]): number {
  const columns = [tokens(post.title), tokens(post.selftext)];
  let total = 0;
  for (const term of terms) {
    const n = columns.reduce((sum, column) => sum + occurrences(term, column), 0);
    if (n === 0) return 0;
    total += n;
  }
  return total;
}

const asBool = (v: string) => v === "true" || v === "1";

function sortKey(post: ModelPost, sortBy: string): number | string {
  switch (sortBy) {
    case "priority":
      return post.priority ? PRIORITY_RANK[post.priority] : 0;
    case "urgency":
      return post.urgency ? URGENCY_RANK[post.urgency] : 0;
    case "score":
      return post.score;
    case "comments":
      return post.num_comments;
    default:
      return post.created_utc;
  }
}

const compare = (a: number | string, b: number | string) => (a < b ? -1 : a > b ? 1 : 0);

/** What GET /posts must answer for `q`, computed without SQL. */
function expectedPosts(all: ModelPost[], q: Query): ModelPost[] {
  const terms = q.search ? parseSearch(q.search) : [];
  const rows = all.filter((p) => {
    if (!(q.include_archived && asBool(q.include_archived)) && p.archived) return false;
    if (q.subreddit && p.subreddit.toLowerCase() !== q.subreddit.replace(/^r\//i, "").toLowerCase()) return false;
    if (q.priority && p.priority !== q.priority) return false;
    if (q.answered_status && p.is_answered !== (q.answered_status === "answered")) return false;
    if (q.has_competitors && p.competitorIds.length > 0 !== asBool(q.has_competitors)) return false;
    if (q.keyword_id && !p.keywordIds.includes(Number(q.keyword_id))) return false;
    if (q.search && termFrequency(p, terms) === 0) return false;
    return true;
  });
  const dir = q.sort_order === "asc" ? 1 : -1;
  // A one-word search with no sort_by ranks by term frequency: every seeded post has the same length,
  // so bm25 is a monotonic function of it.
  const key = (p: ModelPost) => (q.search && !q.sort_by ? termFrequency(p, terms) : sortKey(p, q.sort_by ?? "date"));
  return rows.sort((a, b) => dir * (compare(key(a), key(b)) || compare(a.created_utc, b.created_utc) || a.id - b.id));
}

// ---- helpers ----------------------------------------------------------------------------------------

let ws: TestWorkspace;
let seeded: SeededWorkspace;
let other: SeededWorkspace;

const qs = (q: Query) => new URLSearchParams(q).toString();

async function listPosts(q: Query) {
  const res = await callJson(`/api/v1/posts?${qs(q)}`, { key: ws.readKey });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { data: ReturnType<typeof toApiPost>[]; count: number; next_offset: number | null };
}

async function expectMatches(q: Query) {
  const expected = expectedPosts(seeded.posts, q);
  const body = await listPosts({ ...q, limit: "500" });
  expect(body.count).toBe(expected.length);
  expect(body.data.map((p) => p.id)).toEqual(expected.map((p) => p.id));
  expect(body.data).toEqual(expected.map(toApiPost));
  expect(body.next_offset).toBeNull();
  return expected;
}

beforeAll(async () => {
  ws = await createTestWorkspace("posts");
  const otherWs = await createTestWorkspace("other");
  // Another workspace with the same words, subreddits and keyword texts: none of it may leak into ws.
  other = await seedWorkspace(otherWs.id, { count: 40, seed: 99, forumPrefix: "o3_" });
  seeded = await seedWorkspace(ws.id, { count: 130, seed: 7 });
});

// ---- the tests -------------------------------------------------------------------------------------

describe("GET /posts", () => {
  it("seeds every state the filters distinguish", () => {
    const p = seeded.posts;
    for (const value of ["high", "medium", "low", null]) expect(p.some((x) => x.priority === value)).toBe(true);
    for (const value of ["urgent", "not_urgent", null]) expect(p.some((x) => x.urgency === value)).toBe(true);
    for (const flag of ["is_answered", "archived", "skipped"] as const) {
      expect(p.some((x) => x[flag])).toBe(true);
      expect(p.some((x) => !x[flag])).toBe(true);
    }
    expect(new Set(p.map((x) => x.created_utc)).size).toBeLessThan(p.length);
    expect(p.some((x) => x.keywordIds.length === 0) && p.some((x) => x.keywordIds.length > 1)).toBe(true);
    expect(p.some((x) => x.competitorIds.length === 0) && p.some((x) => x.competitorIds.length > 0)).toBe(true);
    expect(p.some((x) => x.author === "[deleted]")).toBe(true);
  });

  it("defaults: archived excluded, skipped included, newest first, 100 a page", async () => {
    const expected = expectedPosts(seeded.posts, {});
    expect(expected.length).toBeGreaterThan(100);
    expect(expected.some((p) => p.skipped)).toBe(true);
    const body = await listPosts({});
    expect(body.count).toBe(expected.length);
    expect(body.data).toEqual(expected.slice(0, 100).map(toApiPost));
    expect(body.next_offset).toBe(100);
    expect(body.data.every((p) => !p.archived)).toBe(true);
  });

  it("returns exactly the fields and types docs/api.md gives a post", async () => {
    const body = await listPosts({ include_archived: "true", limit: "500" });
    expect(Object.keys(body).sort()).toEqual(["count", "count_is_estimate", "data", "next_offset"]);
    for (const post of body.data) {
      expect(Object.keys(post).sort()).toEqual(
        [
          "archived",
          "author",
          "created_utc",
          "forum_id",
          "id",
          "is_answered",
          "matched_keywords",
          "mentioned_competitors",
          "num_comments",
          "permalink",
          "priority",
          "score",
          "score_reasons",
          "selftext",
          "skipped",
          "subreddit",
          "title",
          "url",
          "urgency",
          "value",
        ].sort(),
      );
      expect(Number.isInteger(post.id) && Number.isInteger(post.score) && Number.isInteger(post.num_comments)).toBe(
        true,
      );
      // Only priority, urgency and value are nullable (docs/api.md, "Posts"); these posts' keywords have no metrics.
      expect(post.value).toBeNull();
      for (const field of ["forum_id", "subreddit", "title", "selftext", "author", "url", "permalink"] as const)
        expect(typeof post[field]).toBe("string");
      for (const field of ["is_answered", "archived", "skipped"] as const) expect(typeof post[field]).toBe("boolean");
      expect(post.created_utc).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect([null, "high", "medium", "low"]).toContain(post.priority);
      expect([null, "urgent", "not_urgent"]).toContain(post.urgency);
      expect(post.matched_keywords.every((k) => typeof k === "string")).toBe(true);
      expect(post.mentioned_competitors.every((k) => typeof k === "string")).toBe(true);
      // Why the post has its priority, one string per signal (docs/monitoring.md, "Score").
      expect(post.score_reasons.every((r) => typeof r === "string")).toBe(true);
    }
  });

  it("never shows another workspace's posts", async () => {
    const body = await listPosts({ include_archived: "true", limit: "500" });
    const foreign = new Set(other.posts.map((p) => p.id));
    expect(body.data.filter((p) => foreign.has(p.id))).toEqual([]);
    expect(body.count).toBe(seeded.posts.length);
  });

  const filterCases: Query[] = [
    { include_archived: "true" },
    { include_archived: "1" },
    { include_archived: "false" },
    { include_archived: "0" },
    ...SUBREDDITS.map((subreddit) => ({ subreddit })),
    { subreddit: "saas" },
    { subreddit: "r/Marketing" },
    { subreddit: "nosuchsub" },
    { priority: "high" },
    { priority: "medium" },
    { priority: "low" },
    { answered_status: "answered" },
    { answered_status: "unanswered" },
    { has_competitors: "true" },
    { has_competitors: "false" },
    { has_competitors: "1", include_archived: "true" },
  ];
  it.each(filterCases)("filter %o", async (q) => {
    await expectMatches(q);
  });

  it("filters by keyword_id, and another workspace's keyword id matches nothing", async () => {
    for (const keyword of seeded.keywords) {
      const rows = await expectMatches({ keyword_id: String(keyword.id), include_archived: "true" });
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((p) => p.matched_keywords.includes(keyword.keyword))).toBe(true);
    }
    const body = await listPosts({ keyword_id: String(other.keywords[0]!.id), include_archived: "true" });
    expect(body).toEqual({ data: [], count: 0, next_offset: null, count_is_estimate: false });
  });

  const sorts = ["priority", "urgency", "date", "score", "comments"];
  it.each(
    sorts.flatMap((sort_by): Query[] => [{ sort_by }, { sort_by, sort_order: "asc" }, { sort_by, sort_order: "desc" }]),
  )("sort %o", async (q) => {
    const rows = await expectMatches({ ...q, include_archived: "true" });
    if (q.sort_by === "priority") {
      const order = rows.map((p) => p.priority);
      const ranks = (
        q.sort_order === "asc" ? [null, "low", "medium", "high"] : ["high", "medium", "low", null]
      ) as unknown[];
      expect(order.map((p) => ranks.indexOf(p))).toEqual([...order.map((p) => ranks.indexOf(p))].sort((a, b) => a - b));
    }
  });

  it("sort_order alone applies to the date", async () => {
    await expectMatches({ sort_order: "asc" });
  });

  it("breaks ties by date, then id, in the sort direction", async () => {
    const body = await listPosts({ sort_by: "score", include_archived: "true", limit: "500" });
    const tied = body.data.filter((p, i, all) =>
      all.some((q, j) => j !== i && q.score === p.score && q.created_utc === p.created_utc),
    );
    expect(tied.length).toBeGreaterThan(0);
    for (let i = 1; i < body.data.length; i++) {
      const [a, b] = [body.data[i - 1]!, body.data[i]!];
      expect(
        a.score > b.score ||
          (a.score === b.score && (a.created_utc > b.created_utc || (a.created_utc === b.created_utc && a.id > b.id))),
      ).toBe(true);
    }
  });

  const searches = [
    "pricing",
    "PRICING",
    "pricing migration",
    '"customer support"',
    "integrat*",
    "customer support",
    "nosuchword",
  ];
  it.each(searches)("search %s with an explicit sort matches the same rows", async (search) => {
    const rows = await expectMatches({ search, sort_by: "date", include_archived: "true" });
    if (search !== "nosuchword") expect(rows.length).toBeGreaterThan(0);
  });

  it("a quoted phrase needs adjacent words, unquoted words do not", async () => {
    const phrase = expectedPosts(seeded.posts, { search: '"customer support"', sort_by: "date" });
    const words = expectedPosts(seeded.posts, { search: "customer support", sort_by: "date" });
    expect(words.length).toBeGreaterThan(phrase.length);
  });

  it("a prefix term matches every word that starts with it", async () => {
    const prefix = expectedPosts(seeded.posts, { search: "integrat*", sort_by: "date" });
    const exact = expectedPosts(seeded.posts, { search: "integration", sort_by: "date" });
    expect(prefix.length).toBeGreaterThan(exact.length);
    await expectMatches({ search: "integration", sort_by: "date" });
  });

  it("OR and NOT combine searches as sets", async () => {
    const ids = (search: string) => new Set(expectedPosts(seeded.posts, { search, sort_by: "date" }).map((p) => p.id));
    const [pricing, migration] = [ids("pricing"), ids("migration")];
    const union = expectedPosts(seeded.posts, { sort_by: "date" }).filter(
      (p) => pricing.has(p.id) || migration.has(p.id),
    );
    const difference = union.filter((p) => !migration.has(p.id));
    expect(difference.length).toBeGreaterThan(0);
    expect(
      (await listPosts({ search: "pricing OR migration", sort_by: "date", limit: "500" })).data.map((p) => p.id),
    ).toEqual(union.map((p) => p.id));
    expect(
      (await listPosts({ search: "pricing NOT migration", sort_by: "date", limit: "500" })).data.map((p) => p.id),
    ).toEqual(difference.map((p) => p.id));
  });

  it("search without sort_by ranks best match first; sort_order=asc reverses it", async () => {
    const best = await expectMatches({ search: "pricing" });
    const tf = (p: ModelPost) =>
      `${p.title} ${p.selftext}`
        .toLowerCase()
        .split(" ")
        .filter((t) => t === "pricing").length;
    expect(tf(best[0]!)).toBeGreaterThan(tf(best[best.length - 1]!));
    await expectMatches({ search: "pricing", sort_order: "asc" });
    await expectMatches({ search: "customer", include_archived: "true" });
  });

  it("combines search, filters and sort", async () => {
    const cases: Query[] = [
      { search: "pricing", subreddit: "SaaS", sort_by: "score", sort_order: "asc", include_archived: "true" },
      { search: "customer*", priority: "high", answered_status: "unanswered", sort_by: "priority" },
      {
        search: '"customer support"',
        has_competitors: "true",
        keyword_id: String(seeded.keywords[0]!.id),
        sort_by: "comments",
      },
      {
        keyword_id: String(seeded.keywords[1]!.id),
        has_competitors: "false",
        priority: "low",
        sort_by: "urgency",
        sort_order: "asc",
      },
      { subreddit: "webdev", answered_status: "answered", include_archived: "1", sort_by: "date", sort_order: "asc" },
    ];
    let nonEmpty = 0;
    for (const q of cases) if ((await expectMatches(q)).length > 0) nonEmpty++;
    expect(nonEmpty).toBeGreaterThanOrEqual(3);
  });

  const malformed = [
    '"unterminated',
    "pricing AND",
    "(",
    "*",
    "nosuchcolumn:pricing",
    "NEAR(pricing migration, x)",
    "don't",
    "e-mail",
    ")",
  ];
  it.each(malformed)("a malformed search %s is validation_failed, never a 500", async (search) => {
    const res = await callJson(`/api/v1/posts?${qs({ search })}`, { key: ws.readKey });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("validation_failed");
    expect(res.body.error.details).toEqual([{ path: "query.search", message: expect.any(String) }]);
    expect(res.body.error.request_id).toBe(res.res.headers.get("x-request-id"));
  });

  const odd = [
    "\u0000",
    "pricing\u0000",
    '""',
    '"',
    "NOT pricing",
    "-pricing",
    "+",
    ":",
    "title:",
    "{title}: pricing",
    "^pricing",
    "pri*ng",
    "pricing**",
    "😀",
    "ünïcödé",
    "\u2028",
    "a".repeat(500),
    "NEAR(pricing migration, 99999999999999999999)",
    "pricing AND (migration OR",
    "AND",
    "OR OR",
    "(())",
    "title:pricing",
    "selftext:customer",
  ];
  it.each(odd)("an unusual search %j answers 200 or 400 validation_failed, never 500", async (search) => {
    const res = await callJson(`/api/v1/posts?${qs({ search })}`, { key: ws.readKey });
    expect([200, 400], JSON.stringify(res.body)).toContain(res.status);
    if (res.status === 400) expect(res.body.error.code).toBe("validation_failed");
  });

  it("pages with limit/offset visit every row exactly once, and next_offset is null on the last page", async () => {
    for (const q of [
      { include_archived: "true" },
      { sort_by: "priority", sort_order: "asc" },
      { search: "customer", sort_by: "urgency" },
    ] as Query[]) {
      const expected = expectedPosts(seeded.posts, q).map((p) => p.id);
      const seen: number[] = [];
      let offset: number | null = 0;
      let pages = 0;
      while (offset !== null) {
        const body = await listPosts({ ...q, limit: "7", offset: String(offset) });
        expect(body.count).toBe(expected.length);
        expect(body.data.length).toBeLessThanOrEqual(7);
        seen.push(...body.data.map((p) => p.id));
        offset = body.next_offset;
        if (offset !== null) expect(offset).toBe(seen.length);
        pages++;
      }
      expect(seen).toEqual(expected);
      expect(new Set(seen).size).toBe(seen.length);
      expect(pages).toBe(Math.max(1, Math.ceil(expected.length / 7)));
    }
  });

  it("an offset past the end is an empty last page", async () => {
    const body = await listPosts({ offset: "10000" });
    expect(body.data).toEqual([]);
    expect(body.next_offset).toBeNull();
    expect(body.count).toBe(expectedPosts(seeded.posts, {}).length);
  });

  it("accepts limit 1 and 500, and refuses what is outside 1..500 or not an integer", async () => {
    expect((await listPosts({ limit: "1" })).data).toHaveLength(1);
    expect((await listPosts({ limit: "500" })).next_offset).toBeNull();
    const notPlainDecimal = ["", " 5", "5 ", "+5", "05", "5.0", "1e1", "0x10", "0b11", "0o7", "Infinity"];
    const refused = [
      ["limit", "0"],
      ["limit", "501"],
      ["limit", "2.5"],
      ["limit", "ten"],
      ["offset", "-1"],
      ["keyword_id", "0"],
      ["keyword_id", "x"],
    ];
    for (const name of ["limit", "offset", "keyword_id"])
      for (const value of notPlainDecimal) refused.push([name, value]);
    for (const [name, value] of refused) {
      const res = await callJson(`/api/v1/posts?${qs({ [name!]: value! })}`, { key: ws.readKey });
      expect(res.status, `${name}=${value}`).toBe(400);
      expect(res.body.error.code).toBe("validation_failed");
      expect(res.body.error.details[0].path).toBe(`query.${name}`);
    }
  });

  it("refuses enum values outside the documented ones", async () => {
    for (const [name, value] of [
      ["priority", "urgent"],
      ["answered_status", "yes"],
      ["sort_by", "title"],
      ["sort_order", "up"],
      ["has_competitors", "yes"],
      ["include_archived", "TRUE"],
    ]) {
      const res = await callJson(`/api/v1/posts?${qs({ [name!]: value! })}`, { key: ws.readKey });
      expect(res.status, `${name}=${value}`).toBe(400);
      expect(res.body.error.details[0].path).toBe(`query.${name}`);
    }
  });
});

describe("PATCH /posts/:id", () => {
  const patch = (id: number, body: unknown, key = ws.writeKey) =>
    callJson(`/api/v1/posts/${id}`, { key, method: "PATCH", body });

  it("sets and clears is_answered, archived and skipped, and the list follows", async () => {
    const target = seeded.posts.find((p) => !p.archived && !p.is_answered && !p.skipped)!;
    const res = await patch(target.id, { is_answered: true, skipped: true });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...toApiPost(target), is_answered: true, skipped: true });

    const archived = await patch(target.id, { archived: true });
    expect(archived.body).toEqual({ ...toApiPost(target), is_answered: true, skipped: true, archived: true });
    const hidden = await listPosts({ limit: "500" });
    expect(hidden.data.some((p) => p.id === target.id)).toBe(false);
    const shown = await listPosts({ limit: "500", include_archived: "true", answered_status: "answered" });
    expect(shown.data.find((p) => p.id === target.id)).toEqual(archived.body);

    const restored = await patch(target.id, { is_answered: false, archived: false, skipped: false });
    expect(restored.body).toEqual(toApiPost(target));
  });

  it("refuses an empty, unknown-field or non-boolean body and changes nothing", async () => {
    const target = seeded.posts.find((p) => !p.archived)!;
    for (const body of [
      {},
      { archived: true, pinned: true },
      { archived: "true" },
      { is_answered: 1 },
      { title: "x" },
    ]) {
      const res = await patch(target.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe("validation_failed");
      expect(res.body.error.details.length).toBeGreaterThan(0);
    }
    const unknown = await patch(target.id, { archived: true, pinned: true });
    expect(unknown.body.error.details).toContainEqual({ path: "body.pinned", message: "unknown field" });
    const after = await listPosts({ limit: "500" });
    expect(after.data.find((p) => p.id === target.id)).toEqual(toApiPost(target));
  });

  it("refuses an id not written in plain decimal digits, and changes no post (1e1 is not post 10)", async () => {
    // An id divisible by ten, so `${id / 10}e1` is the same number as the id.
    const target = seeded.posts.find((p) => !p.archived && p.id % 10 === 0)!;
    for (const spelled of [
      `${target.id}.0`,
      `0${target.id}`,
      `+${target.id}`,
      `%20${target.id}`,
      `0x${target.id.toString(16)}`,
      `${target.id / 10}e1`,
    ]) {
      const res = await callJson(`/api/v1/posts/${spelled}`, {
        key: ws.writeKey,
        method: "PATCH",
        body: { archived: true },
      });
      expect([spelled, res.status, res.body.error?.code, res.body.error?.details?.[0]?.path]).toEqual([
        spelled,
        400,
        "validation_failed",
        "path.id",
      ]);
    }
    const after = await listPosts({ limit: "500" });
    expect(after.data.find((p) => p.id === target.id)).toEqual(toApiPost(target));
  });

  it("is 404 for an id that does not exist or belongs to another workspace", async () => {
    for (const id of [999_999, other.posts[0]!.id]) {
      const res = await patch(id, { archived: true });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("not_found");
    }
  });
});

describe("stored posts", () => {
  it("refuse a NULL author, url or permalink on insert and on update, leaving the row as it was", async () => {
    const insert = (author: string | null, url: string | null, permalink: string | null) =>
      env.DB.prepare(
        "INSERT INTO posts (workspace_id, forum_id, subreddit, title, author, url, permalink, created_utc) VALUES (?, ?, 'x', 't', ?, ?, ?, ?)",
      )
        .bind(ws.id, `null-check-${author}-${url}-${permalink}`, author, url, permalink, new Date().toISOString())
        .run();
    for (const [author, url, permalink] of [
      [null, "u", "p"],
      ["a", null, "p"],
      ["a", "u", null],
    ]) {
      await expect(insert(author!, url!, permalink!), JSON.stringify([author, url, permalink])).rejects.toThrow(
        /NOT NULL constraint failed: posts\.author, posts\.url and posts\.permalink/,
      );
    }
    const target = seeded.posts[0]!;
    for (const column of ["author", "url", "permalink"]) {
      await expect(
        env.DB.prepare(`UPDATE posts SET ${column} = NULL WHERE id = ?`).bind(target.id).run(),
        column,
      ).rejects.toThrow(/NOT NULL constraint failed/);
    }
    expect((await listPosts({ include_archived: "true", limit: "500" })).data.find((p) => p.id === target.id)).toEqual(
      toApiPost(target),
    );
    await insert("a", "u", "p");
  });
});
