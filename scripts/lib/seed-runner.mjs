// Starts scripts/seed-worker.ts in workerd (wrangler's programmatic dev server, as extract-runner.mjs
// does) with the project's D1 binding, persisted where `wrangler dev` keeps it, so Node scripts seed
// through the product's own data layer (src/seed, src/db) instead of writing SQL of their own.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { unstable_readConfig, unstable_startWorker } from "wrangler";
import { DEFAULT_PERSIST_DIR, ROOT } from "./paths.mjs";

/** Runs `work(seeder)` with a seed worker bound to the local database under `persistTo`, then stops it. */
export async function withSeeder(persistTo, work) {
  process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";
  const project = unstable_readConfig({ config: path.join(ROOT, "wrangler.toml") });
  const db = project.d1_databases.find((d) => d.binding === "DB");
  if (!db) throw new Error("wrangler.toml has no D1 binding named DB");
  const configPath = path.join(os.tmpdir(), `threadwatch-seed-${process.pid}.toml`);
  fs.writeFileSync(
    configPath,
    [
      `name = "threadwatch-seed"`,
      `main = ${JSON.stringify(path.join(ROOT, "scripts/seed-worker.ts"))}`,
      `compatibility_date = ${JSON.stringify(project.compatibility_date)}`,
      `compatibility_flags = ["nodejs_compat"]`,
      `[[d1_databases]]`,
      `binding = "DB"`,
      `database_name = ${JSON.stringify(db.database_name)}`,
      `database_id = ${JSON.stringify(db.database_id)}`,
    ].join("\n"),
  );
  const worker = await unstable_startWorker({
    config: configPath,
    dev: {
      server: { hostname: "127.0.0.1", port: 0 },
      inspector: false,
      watch: false,
      logLevel: "error",
      persist: path.resolve(persistTo ?? DEFAULT_PERSIST_DIR),
    },
  }).finally(() => fs.rmSync(configPath, { force: true }));
  const post = async (route, body) => {
    const res = await worker.fetch(`http://seed.local${route}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const json = await res.json();
    if (!res.ok) throw new Error(`seeding failed: ${json.error ?? res.status}`);
    return json;
  };
  try {
    return await work({
      /** A new workspace with synthetic content: `{workspace_id, keys, posts, elapsed_ms}`. */
      seed: (input) => post("/seed", input),
      /** A new read_write and read key for a workspace, or exactly `keys` ([{name, scope}]): `{keys}`. */
      issueKeys: (workspaceId, keyLabel, keys) =>
        post("/keys", { workspace_id: workspaceId, key_label: keyLabel, ...(keys ? { keys } : {}) }),
    });
  } finally {
    await worker.dispose();
  }
}
