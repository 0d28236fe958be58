import { applyD1Migrations, env, reset } from "cloudflare:test";

// Runs before each test file. The workers project shares one workerd (Miniflare) between its files
// (`isolate: false` in vitest.config.ts), so each file starts from empty storage here instead of from a new
// runtime: `reset()` deletes the data of every Durable Object, which in Miniflare holds D1, the rate
// limiters' counters and our own Durable Objects; the D1 migrations are then applied again.
//
// One thing a new runtime gave that reset() does not: the queues' pending messages survive it (Miniflare's
// queue broker is kept). So ids are never reused: each table's AUTOINCREMENT counter is carried over, and a
// message a previous file left behind names a workspace, config or post that no longer exists, which the
// consumers drop, instead of one of this file's. A consumer still running when reset() comes (a pass or a
// sync run the previous file's cron queued) fails once with "Application called deleteAllDurableObjects()"
// in the output, is retried, and then finds nothing to do.
type Sequence = { name: string; seq: number };

const carried = await env.DB.prepare("SELECT name, seq FROM sqlite_sequence WHERE name != 'd1_migrations'")
  .all<Sequence>()
  .then((r) => r.results)
  .catch(() => [] as Sequence[]); // the first file: no table has taken an id yet
await reset();
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
if (carried.length > 0) {
  await env.DB.batch(
    carried.map((s) => env.DB.prepare("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)").bind(s.name, s.seq)),
  );
}
