#!/usr/bin/env node
// npm run seed -- --posts N [--json] [--name NAME] [--persist-to DIR] [--seed S]
// Creates a new workspace with keywords, competitors, N synthetic posts and two API keys in the local D1
// database (applying migrations first when needed), whether or not `npm start` is running.
import { integerOption, parseCommandLine, runMain, UsageError } from "./lib/cli.mjs";
import { ensureLocalDatabase } from "./lib/local-d1.mjs";
import { progress } from "./lib/progress.mjs";
import { seedWorkspace } from "./lib/seed-workspace.mjs";

const USAGE = `usage: npm run seed -- [--posts N] [--json] [--name NAME] [--persist-to DIR] [--seed S]

  --posts N         synthetic posts to create (0..1000000, default 200)
  --json            print only {"workspace_id", "api_key", "read_key"} as one JSON line
  --name NAME       workspace name, 1 to 200 characters as the admin API takes it (default "Seeded workspace <time>")
  --persist-to DIR  local state directory, as for wrangler (default .wrangler/state)
  --seed S          seed of the data generator, for repeatable content (default: random)`;

runMain(async () => {
  const { values } = parseCommandLine(process.argv.slice(2), {
    posts: { type: "string", default: "200" },
    json: { type: "boolean", default: false },
    name: { type: "string" },
    "persist-to": { type: "string" },
    seed: { type: "string" },
  });
  const posts = integerOption("posts", values.posts, { min: 0, max: 1_000_000 });
  const seed = values.seed === undefined ? undefined : integerOption("seed", values.seed, { min: 0, max: 2 ** 32 - 1 });
  // The admin API's rule for a workspace name (src/routes/admin.ts): trimmed, 1 to 200 characters.
  const name = values.name?.trim() ?? `Seeded workspace ${new Date().toISOString()}`;
  if (name.length < 1 || name.length > 200)
    throw new UsageError(`--name must be 1 to 200 characters once trimmed (got ${name.length})`);
  const persistTo = values["persist-to"];
  const log = values.json ? () => {} : (line) => console.log(line);

  if (await ensureLocalDatabase(persistTo)) log("applied migrations to the local database");
  // One request to the seed worker writes everything, so the line counts time, not posts (on a terminal
  // only; nothing with --json or when piped).
  const line = progress(`seeding ${posts} posts through workerd`, undefined, { json: values.json });
  const { workspaceId, keys, seconds } = await seedWorkspace({ name, posts, persistTo, seed }).finally(() =>
    line.end(),
  );
  const result = { workspace_id: workspaceId, api_key: keys[0], read_key: keys[1] };
  if (values.json) {
    console.log(JSON.stringify(result));
  } else {
    log(`created workspace ${workspaceId} "${name}" with ${posts} posts in ${seconds.toFixed(1)} s`);
    log(`  read_write key: ${result.api_key}`);
    log(`  read key:       ${result.read_key}`);
  }
  return 0;
}, USAGE);
