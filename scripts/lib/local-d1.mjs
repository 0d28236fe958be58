// Direct access to the local D1 database file that wrangler/miniflare keeps under <persist>/v3/d1/.
import fs from "node:fs";
import path from "node:path";
import { DEFAULT_PERSIST_DIR, ROOT } from "./paths.mjs";
import { applyLocalMigrations } from "./wrangler.mjs";

/** The SQLite file of the DB binding (miniflare names it after a hash; metadata.sqlite is its own). */
function localD1File(persistTo = DEFAULT_PERSIST_DIR) {
  const dir = path.join(persistTo, "v3", "d1", "miniflare-D1DatabaseObject");
  const files = fs.existsSync(dir)
    ? fs.readdirSync(dir).filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite")
    : [];
  if (files.length === 0) return undefined;
  // Only one database is bound; if an old database id left a second file behind, the newest is ours.
  const newest = files.map((f) => path.join(dir, f)).sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0];
  return newest;
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

/** Opens the local D1 file (migrations must have been applied, so the file exists). */
export async function openLocalD1(persistTo, { readOnly = false } = {}) {
  const file = localD1File(persistTo);
  if (!file)
    throw new Error(`no local D1 database under ${persistTo ?? DEFAULT_PERSIST_DIR}; apply the migrations first`);
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
