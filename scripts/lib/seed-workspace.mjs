// Creates a workspace with its API keys and synthetic content in the local D1 database.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { displayPrefix, generateApiKey } from "../../src/auth/keys.ts";
import { sha256Hex } from "../../src/lib/crypto.ts";
import { sqlValue, workspaceContentSql } from "./seed-data.mjs";
import { executeLocalFile, queryLocal } from "./wrangler.mjs";

/** A new key as SPEC 2 stores it: the plain key (shown once) and the row that holds only its digest. */
async function newKey(workspaceId, name, scope) {
  const key = generateApiKey();
  const row = `(${sqlValue(workspaceId)}, ${sqlValue(name)}, ${sqlValue(await sha256Hex(key))}, ${sqlValue(displayPrefix(key))}, ${sqlValue(scope)})`;
  return { key, row };
}

/** INSERT for the keys; returns the plain keys in the order asked. */
export async function keysSql(workspaceId, specs) {
  const keys = await Promise.all(specs.map(({ name, scope }) => newKey(workspaceId, name, scope)));
  return {
    keys: keys.map((k) => k.key),
    sql: `INSERT INTO api_keys (workspace_id, name, key_hash, prefix, scope) VALUES ${keys.map((k) => k.row).join(", ")};`,
  };
}

/** The two keys every seeded workspace gets: read_write first, then read. */
export const defaultKeys = (label) => [
  { name: `${label} read_write`, scope: "read_write" },
  { name: `${label} read`, scope: "read" },
];

/**
 * Seeds one workspace through `wrangler d1 execute --local`, the door wrangler itself supports while
 * `wrangler dev` holds the database open (see docs/commands.md for the measured alternative). Returns the
 * workspace id, the plain keys (read_write first, then read, then `extraReadKeys` more read keys) and how
 * long the writes took.
 */
export async function seedWorkspace({ name, posts, persistTo, extraReadKeys = 0, seed, keyName = "seed" }) {
  const keySpecs = [
    ...defaultKeys(keyName),
    ...Array.from({ length: extraReadKeys }, (_, i) => ({ name: `bench read ${i + 1}`, scope: "read" })),
  ];
  const started = performance.now();
  const [row] = await queryLocal(`INSERT INTO workspaces (name) VALUES (${sqlValue(name)}) RETURNING id`, {
    persistTo,
  });
  const workspaceId = Number(row.id);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "threadwatch-seed-"));
  try {
    const { keys, sql } = await keysSql(workspaceId, keySpecs);
    const file = path.join(dir, "seed.sql");
    const out = fs.createWriteStream(file);
    out.write(`${sql}\n`);
    for (const statement of workspaceContentSql(workspaceId, posts, { seed })) out.write(`${statement}\n`);
    await new Promise((resolve, reject) => out.end((err) => (err ? reject(err) : resolve())));
    await executeLocalFile(file, { persistTo });
    return { workspaceId, keys, seconds: (performance.now() - started) / 1000 };
  } catch (err) {
    // Nothing half written: the workspace goes, and its rows with it (foreign keys cascade).
    await queryLocal(`DELETE FROM workspaces WHERE id = ${workspaceId}`, { persistTo }).catch(() => {});
    throw err;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
