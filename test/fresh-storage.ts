import { applyD1Migrations, env, listDurableObjectIds, reset, runInDurableObject } from "cloudflare:test";
import { afterAll, afterEach, expect } from "vitest";
import { closeBrowserSession } from "../src/browser/forum-browser";
import type { WorkspaceCoordinator } from "../src/durable/workspace-coordinator";
import { installLogJournal } from "./helpers/logs";

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

// What a file leaves running ends with the file: each workspace's coordinator keeps its warm browser for
// BROWSER_KEEP_WARM_SECONDS and its alarm closes it then, which would be in the middle of the next file (whose
// reset() cuts it off) or during the runner's teardown (vitest: "Closing rpc while ... was pending"). Here
// the alarms are cleared and the browsers closed before the next file starts.
afterAll(async () => {
  const warm: string[] = [];
  for (const id of await listDurableObjectIds(env.WORKSPACE)) {
    await runInDurableObject(env.WORKSPACE.get(id), async (coordinator: WorkspaceCoordinator, state) => {
      await state.storage.deleteAlarm();
      // The storage-migration tests leave coordinators whose storage predates the warm browser's table.
      const tables = state.storage.sql.exec("SELECT 1 FROM sqlite_master WHERE name = 'warm_browser'").toArray();
      const kept = tables.length > 0 ? coordinator.browserStatus().warm : null;
      if (kept) warm.push(kept.sessionId);
    });
  }
  await Promise.all(warm.map((sessionId) => closeBrowserSession(env.BROWSER, sessionId)));
});

// The product's log lines a test expects are kept for it, not printed (test/helpers/logs.ts).
const declaredButNotLogged = installLogJournal();
afterEach(() => {
  expect(declaredButNotLogged(), "log lines the test declared with expectLogged that never came").toEqual([]);
});
