// The WorkspaceCoordinator's storage schema, version by version (storage-migrations.ts applies them).
// Append a new entry to change it; never edit one that has shipped. Version 1 is the schema the coordinator
// created before migrations were versioned, with IF NOT EXISTS, so objects made by that code (tables
// present, no `_migrations` ledger) adopt it without losing a lease.
import type { StorageMigration } from "./storage-migrations";

export const COORDINATOR_MIGRATIONS: readonly StorageMigration[] = [
  {
    version: 1,
    name: "run leases, config fingerprints, browser slot, meta",
    statements: [
      // run-leases.ts: which run holds each config, and the fingerprint it started with.
      `CREATE TABLE IF NOT EXISTS run_leases (
         config_id INTEGER PRIMARY KEY,
         token TEXT NOT NULL,
         run_id INTEGER,
         started_fingerprint TEXT NOT NULL,
         deadline INTEGER NOT NULL
       )`,
      `CREATE TABLE IF NOT EXISTS config_fingerprints (
         config_id INTEGER PRIMARY KEY,
         revision INTEGER NOT NULL,
         fingerprint TEXT NOT NULL
       )`,
      // browser-slot.ts: the one holder of the workspace's browser.
      `CREATE TABLE IF NOT EXISTS browser_slot (
         id INTEGER PRIMARY KEY CHECK (id = 1),
         token TEXT NOT NULL,
         operation TEXT NOT NULL,
         acquired_at INTEGER NOT NULL,
         deadline INTEGER NOT NULL
       )`,
      // The workspace id the object serves (its name is ws:<id>, which the object itself cannot read).
      "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    ],
  },
  {
    version: 2,
    name: "preview leases (one dry run at a time per config)",
    statements: [
      // preview-leases.ts: the dry run that holds each config, until its deadline.
      `CREATE TABLE IF NOT EXISTS preview_leases (
         config_id INTEGER PRIMARY KEY,
         token TEXT NOT NULL,
         deadline INTEGER NOT NULL
       )`,
    ],
  },
  {
    version: 3,
    name: "the warm browser (one kept open between browser operations)",
    statements: [
      // warm-browser.ts: the browser kept after an operation, idle until idle_until or lent to a slot holder.
      `CREATE TABLE IF NOT EXISTS warm_browser (
         id INTEGER PRIMARY KEY CHECK (id = 1),
         session_id TEXT NOT NULL,
         lent_to TEXT,
         idle_until INTEGER
       )`,
    ],
  },
];
