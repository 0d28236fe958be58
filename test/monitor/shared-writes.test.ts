// The ingester writes an item matched by many workspaces in shared batches (src/db/matched-items.ts,
// upsertItemsOfWorkspaces; docs/monitoring.md, "Writing what matched"): workspaces of one database share
// batches of ITEMS_PER_BATCH items, the read of which items are new runs inside each batch, a workspace moved
// to a second database (WORKSPACE_SHARDS) gets its rows there, and only workspaces with an active webhook are
// asked for their hooks. D1's bindings are wrapped only to count the round trips the writes make.
import { applyD1Migrations, env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { type ShardedEnv, type WorkspaceDb, workspaceDb } from "../../src/db/client";
import { type IngestedPost, ITEMS_PER_BATCH, upsertPostsOfWorkspaces } from "../../src/db/matched-items";
import { workspacesWithActiveWebhooks } from "../../src/db/webhooks";

/** A D1 binding that counts what reaches the database: batches, and statements run on their own. */
function counted(d1: D1Database) {
  const calls = { batches: 0, single: 0 };
  const prepare = (sql: string) => {
    const statement = d1.prepare(sql);
    const wrap = (s: D1PreparedStatement): D1PreparedStatement =>
      new Proxy(s, {
        get(target, prop) {
          if (prop === "bind") return (...values: unknown[]) => wrap(target.bind(...values));
          if (prop === "all" || prop === "first" || prop === "run" || prop === "raw") calls.single++;
          const value = Reflect.get(target, prop, target);
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
    return wrap(statement);
  };
  const binding = new Proxy(d1, {
    get(target, prop) {
      if (prop === "prepare") return prepare;
      if (prop === "batch")
        return (statements: D1PreparedStatement[]) => {
          calls.batches++;
          return target.batch(statements);
        };
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { binding, calls };
}

const IN_MAIN = 60;
const IN_SHARD = 5;
let main: { id: number; keywordId: number }[];
let shard: { id: number; keywordId: number }[];

async function workspaceWithKeyword(d1: D1Database, name: string, id?: number) {
  const row = await d1
    .prepare(`INSERT INTO workspaces (${id ? "id, " : ""}name) VALUES (${id ? "?, " : ""}?) RETURNING id`)
    .bind(...(id ? [id, name] : [name]))
    .first<{ id: number }>();
  const keyword = await d1
    .prepare("INSERT INTO keywords (workspace_id, keyword) VALUES (?, 'shared phrase') RETURNING id")
    .bind(row!.id)
    .first<{ id: number }>();
  return { id: row!.id, keywordId: keyword!.id };
}

beforeAll(async () => {
  await applyD1Migrations(env.DB_SHARD_1, env.TEST_MIGRATIONS);
  main = [];
  for (let i = 0; i < IN_MAIN + IN_SHARD; i++) main.push(await workspaceWithKeyword(env.DB, `shared ${i}`));
  // The last five live in the shard: their directory rows stay in DB, their data (and a copy of the row, for
  // the foreign keys) in DB_SHARD_1.
  shard = [];
  for (const w of main.splice(IN_MAIN))
    shard.push(await workspaceWithKeyword(env.DB_SHARD_1, `shared in shard ${w.id}`, w.id));
});

const post = (forumId: string, keywordId: number, score = 1): IngestedPost => ({
  forumId,
  subreddit: "SaaS",
  author: "someone",
  permalink: `/r/SaaS/comments/${forumId}/a_shared_phrase/`,
  score,
  createdUtc: "2026-12-01T10:00:00.000Z",
  priority: "medium",
  urgency: "not_urgent",
  scoreReasons: ["mentions a tracked keyword"],
  keywordIds: [keywordId],
  competitorIds: [],
  title: "A shared phrase everyone tracks",
  selftext: "",
  url: `https://www.reddit.com/r/SaaS/comments/${forumId}/a_shared_phrase/`,
  numComments: 0,
});

function shardedEnv() {
  const db = counted(env.DB);
  const shard1 = counted(env.DB_SHARD_1);
  const sharded: ShardedEnv = {
    DB: db.binding,
    DB_SHARD_1: shard1.binding,
    WORKSPACE_SHARDS: shard.map((w) => `${w.id}:DB_SHARD_1`).join(", "),
  };
  return { sharded, db: db.calls, shard: shard1.calls };
}

describe("writes of an item many workspaces matched", () => {
  it("share batches per database, read which are new inside them, and hear each new one once", async () => {
    const { sharded, db, shard: shardCalls } = shardedEnv();
    // A third of the main database's workspaces stored the post before, and triaged it.
    const before = main.slice(0, 20);
    await upsertPostsOfWorkspaces(
      before.map((w) => ({ w: workspaceDb(sharded, w.id), rows: [post("1abc", w.keywordId)] })),
    );
    await env.DB.prepare(
      `UPDATE posts SET is_answered = 1 WHERE forum_id = '1abc' AND workspace_id IN (${before.map((w) => w.id).join(",")})`,
    ).run();
    db.batches = 0;
    db.single = 0;

    const heard: [number, string[]][] = [];
    const counts = await upsertPostsOfWorkspaces(
      [...main, ...shard].map((w) => ({ w: workspaceDb(sharded, w.id), rows: [post("1abc", w.keywordId, 7)] })),
      async (w: WorkspaceDb, forumIds) => {
        heard.push([w.workspaceId, forumIds]);
      },
    );

    expect(counts).toEqual({ created: IN_MAIN - 20 + IN_SHARD, updated: 20 });
    // One round trip per ITEMS_PER_BATCH items of a database, nothing else: not one per workspace.
    expect(db).toEqual({ batches: Math.ceil(IN_MAIN / ITEMS_PER_BATCH), single: 0 });
    expect(shardCalls).toEqual({ batches: 1, single: 0 });
    expect(heard.sort((a, b) => a[0] - b[0])).toEqual(
      [...main.slice(20), ...shard].map((w) => [w.id, ["1abc"]]).sort((a, b) => (a[0] as number) - (b[0] as number)),
    );

    const rows = async (d1: D1Database) =>
      (
        await d1
          .prepare(
            `SELECT p.workspace_id, p.score, p.is_answered, k.keyword_id FROM posts p
             JOIN post_keywords k ON k.post_id = p.id WHERE p.forum_id = '1abc' ORDER BY p.workspace_id`,
          )
          .all<{ workspace_id: number; score: number; is_answered: number; keyword_id: number }>()
      ).results;
    // Every workspace stores it once, linked to its own keyword, in its own database; triage kept.
    expect(await rows(env.DB)).toEqual(
      main.map((w, i) => ({ workspace_id: w.id, score: 7, is_answered: i < 20 ? 1 : 0, keyword_id: w.keywordId })),
    );
    expect(await rows(env.DB_SHARD_1)).toEqual(
      shard.map((w) => ({ workspace_id: w.id, score: 7, is_answered: 0, keyword_id: w.keywordId })),
    );
  });

  it("asks only the workspaces with an active webhook, one read per database", async () => {
    const { sharded, db, shard: shardCalls } = shardedEnv();
    const hook = (d1: D1Database, workspaceId: number, active: number) =>
      d1
        .prepare(
          "INSERT INTO webhooks (workspace_id, url, secret_sealed, active) VALUES (?, 'https://x.test/', 's', ?)",
        )
        .bind(workspaceId, active)
        .run();
    await hook(env.DB, main[3]!.id, 1);
    await hook(env.DB, main[4]!.id, 0);
    await hook(env.DB_SHARD_1, shard[1]!.id, 1);
    // A webhook of a shard's workspace left behind in DB is not the workspace's.
    await hook(env.DB, shard[2]!.id, 1);

    const found = await workspacesWithActiveWebhooks([...main, ...shard].map((w) => workspaceDb(sharded, w.id)));
    expect([...found].sort((a, b) => a - b)).toEqual([main[3]!.id, shard[1]!.id]);
    expect(db).toEqual({ batches: 0, single: 1 });
    expect(shardCalls).toEqual({ batches: 0, single: 1 });
  });
});
