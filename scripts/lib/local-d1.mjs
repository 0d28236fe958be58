// Direct access to the local D1 database file that wrangler/miniflare keeps under <persist>/v3/d1/.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { unstable_readConfig } from "wrangler";
import { DEFAULT_PERSIST_DIR, ROOT } from "./paths.mjs";
import { applyLocalMigrations } from "./wrangler.mjs";

/** The Durable Object class miniflare keeps local D1 databases in (its uniqueKey is "miniflare-" + this). */
const D1_OBJECT_CLASS = "D1DatabaseObject";

/**
 * The file name workerd gives the local Durable Object named `name` of the namespace `uniqueKey`: the id
 * from idFromName, in hex. Miniflare names each D1 database's object after the binding's database_id, so
 * the file is known from wrangler.toml, whatever other databases (DB_SHARD_1, an old id) sit beside it.
 * How workerd derives a local id (server.c++, its actor id factory): the key is SHA-256(uniqueKey); the
 * first 16 bytes are HMAC-SHA-256(key, name), the next 16 the HMAC of those 16 bytes.
 */
export function localObjectFileName(uniqueKey, name) {
  const key = crypto.createHash("sha256").update(uniqueKey).digest();
  const head = crypto.createHmac("sha256", key).update(name).digest().subarray(0, 16);
  const tail = crypto.createHmac("sha256", key).update(head).digest().subarray(0, 16);
  return `${Buffer.concat([head, tail]).toString("hex")}.sqlite`;
}

/** The database_id of wrangler.toml's D1 binding `binding` (DB unless told). */
function databaseIdOf(binding) {
  const config = unstable_readConfig({ config: path.join(ROOT, "wrangler.toml") });
  const db = config.d1_databases.find((d) => d.binding === binding);
  if (!db?.database_id) throw new Error(`wrangler.toml has no D1 binding named ${binding} with a database_id`);
  return db.database_id;
}

/** The SQLite file of the D1 binding `binding` (default DB) under `persistTo`, or undefined before it exists. */
function localD1File(persistTo = DEFAULT_PERSIST_DIR, binding = "DB") {
  const dir = path.join(persistTo, "v3", "d1", `miniflare-${D1_OBJECT_CLASS}`);
  const file = path.join(dir, localObjectFileName(`miniflare-${D1_OBJECT_CLASS}`, databaseIdOf(binding)));
  return fs.existsSync(file) ? file : undefined;
}

/** node:sqlite, without its one-time "experimental" warning on stderr. */
async function loadSqlite() {
  const emitWarning = process.emitWarning;
  process.emitWarning = (warning, ...rest) => {
    if (/SQLite is an experimental feature/.test(String(warning))) return;
    emitWarning.call(process, warning, ...rest);
  };
  return import("node:sqlite");
}

/**
 * Opens the local D1 file of `binding` (default DB; migrations must have been applied, so the file exists).
 */
export async function openLocalD1(persistTo, { readOnly = false, binding = "DB" } = {}) {
  const file = localD1File(persistTo, binding);
  if (!file)
    throw new Error(
      `no local D1 database of ${binding} under ${persistTo ?? DEFAULT_PERSIST_DIR}; apply the migrations first`,
    );
  const { DatabaseSync } = await loadSqlite();
  const db = new DatabaseSync(file, { readOnly });
  db.exec("PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON;");
  return db;
}

/** Names of the migrations wrangler has recorded as applied (empty when the database is new). */
async function appliedMigrations(persistTo) {
  if (!localD1File(persistTo)) return new Set();
  const db = await openLocalD1(persistTo, { readOnly: true });
  try {
    const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'd1_migrations'").get();
    return new Set(
      table
        ? db
            .prepare("SELECT name FROM d1_migrations")
            .all()
            .map((r) => r.name)
        : [],
    );
  } finally {
    db.close();
  }
}

/**
 * Makes sure the local database exists and has every migration in migrations/. A quick read of
 * d1_migrations decides; wrangler (which records what it applies) runs only when something is missing.
 * Returns true when migrations were applied.
 */
export async function ensureLocalDatabase(persistTo) {
  const wanted = fs.readdirSync(path.join(ROOT, "migrations")).filter((f) => f.endsWith(".sql"));
  const applied = await appliedMigrations(persistTo);
  if (wanted.every((name) => applied.has(name))) return false;
  await applyLocalMigrations({ persistTo });
  return true;
}

/**
 * Fills `persistTo` (new and empty) with a local database that has every migration applied, by copying a
 * migrated one kept in the system's temporary directory. The copy is made once per set of migrations,
 * wrangler.toml and wrangler version (they name the copy), by `wrangler d1 migrations apply`, which takes
 * seconds where the copy takes milliseconds. Used by the console tests, which start from a new database each.
 */
export async function copyMigratedDatabase(persistTo) {
  const hash = crypto.createHash("sha256");
  const migrations = path.join(ROOT, "migrations");
  for (const name of fs.readdirSync(migrations).sort()) {
    if (name.endsWith(".sql")) hash.update(name).update(fs.readFileSync(path.join(migrations, name)));
  }
  hash.update(fs.readFileSync(path.join(ROOT, "wrangler.toml")));
  hash.update(fs.readFileSync(path.join(ROOT, "node_modules", "wrangler", "package.json")));
  const template = path.join(os.tmpdir(), `threadwatch-migrated-${hash.digest("hex").slice(0, 16)}`);
  if (!fs.existsSync(template)) {
    const building = fs.mkdtempSync(`${template}-building-`);
    try {
      await applyLocalMigrations({ persistTo: building });
      fs.renameSync(building, template);
    } catch (err) {
      fs.rmSync(building, { recursive: true, force: true });
      if (!fs.existsSync(template)) throw err; // otherwise another process made it first: use theirs
    }
  }
  fs.cpSync(template, persistTo, { recursive: true });
}
