// Versioned migrations of a Durable Object's own SQLite storage, as migrations/ is for D1: an ordered list,
// each applied once, in order, recorded in `_migrations`. A new table or column is a NEW entry at the end of
// the list; an entry that has shipped is never edited (objects already ran it). See docs/architecture.md.

export interface StorageMigration {
  /** 1, 2, 3, ... in list order: the schema version the object is at after this migration. */
  version: number;
  /** What it does, recorded beside the version for whoever inspects an object's storage. */
  name: string;
  /** Statements run in order, all in the same storage transaction as the version record. */
  statements: readonly string[];
}

const LEDGER = `CREATE TABLE IF NOT EXISTS _migrations (
  version INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  applied_at INTEGER NOT NULL
)`;

/** The highest version recorded in the object's storage (0 for a fresh object). */
export function storageVersion(sql: SqlStorage): number {
  sql.exec(LEDGER);
  const row = sql.exec<{ version: number | null }>("SELECT max(version) AS version FROM _migrations").one();
  return row.version ?? 0;
}

/**
 * Applies the migrations newer than the object's version, each with its version record in one transaction
 * (a migration that throws leaves neither its changes nor its record, and the error propagates). Meant for
 * the object's constructor inside `ctx.blockConcurrencyWhile`, so no call sees a half-migrated object.
 * Returns the versions it applied.
 */
export function applyStorageMigrations(
  storage: Pick<DurableObjectStorage, "sql" | "transactionSync">,
  migrations: readonly StorageMigration[],
  now: number,
): number[] {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`storage migration ${m.name}: version ${m.version}, expected ${i + 1}`);
  });
  const current = storageVersion(storage.sql);
  if (current > migrations.length)
    throw new Error(`storage is at version ${current}, newer than this code knows (${migrations.length})`);
  const applied: number[] = [];
  for (const migration of migrations.slice(current)) {
    storage.transactionSync(() => {
      for (const statement of migration.statements) storage.sql.exec(statement);
      storage.sql.exec(
        "INSERT INTO _migrations (version, name, applied_at) VALUES (?, ?, ?)",
        migration.version,
        migration.name,
        now,
      );
    });
    applied.push(migration.version);
  }
  return applied;
}
