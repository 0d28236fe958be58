// Creates a workspace with its API keys and synthetic content in the local D1 database, through the
// product's seeding module (scripts/seed/workspace.ts) run in workerd by scripts/seed-worker.ts.
import { withSeeder } from "./seed-runner.mjs";

/**
 * Seeds one workspace. Returns the workspace id, the plain keys (read_write first, then read, then
 * `extraReadKeys` more read keys) and how long it took, start of workerd included. If a write fails, the
 * seeding module deletes the workspace again: nothing is left half written.
 */
export async function seedWorkspace({ name, posts, persistTo, extraReadKeys = 0, seed, keyName = "seed" }) {
  const started = performance.now();
  const result = await withSeeder(persistTo, (seeder) =>
    seeder.seed({
      name,
      posts,
      seed: seed ?? Math.floor(Math.random() * 2 ** 32),
      key_label: keyName,
      extra_read_keys: extraReadKeys,
    }),
  );
  return { workspaceId: result.workspace_id, keys: result.keys, seconds: (performance.now() - started) / 1000 };
}

/**
 * New keys for an existing workspace: a read_write and a read key (read_write first), or exactly `keys`
 * ([{name, scope}], in that order). Returns the plain keys.
 */
export async function issueSeedKeys(workspaceId, { persistTo, keyName = "seed", keys } = {}) {
  return (await withSeeder(persistTo, (seeder) => seeder.issueKeys(workspaceId, keyName, keys))).keys;
}
