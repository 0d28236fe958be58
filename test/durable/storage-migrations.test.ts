// The coordinator's storage schema is versioned (src/durable/storage-migrations.ts): a fresh object is
// migrated to the latest version before its first call; an object at an older version (or one made before
// versions existed) is brought up to date keeping its data; a failing migration leaves nothing behind.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { COORDINATOR_MIGRATIONS } from "../../src/durable/coordinator-migrations";
import { applyStorageMigrations, type StorageMigration, storageVersion } from "../../src/durable/storage-migrations";
import { coordinatorFor, type WorkspaceCoordinator } from "../../src/durable/workspace-coordinator";
import { createTestWorkspace } from "../helpers/api";

const FP = "c".repeat(64);

const tables = (sql: SqlStorage) =>
  sql
    .exec<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY name",
    )
    .toArray()
    .map((r) => r.name);

const ledger = (sql: SqlStorage) =>
  sql.exec<{ version: number; name: string }>("SELECT version, name FROM _migrations ORDER BY version").toArray();

/** Runs `fn` on the storage of a new workspace's coordinator, wiped to look like a brand-new object. */
async function onEmptyStorage(fn: (storage: DurableObjectStorage) => void | Promise<void>) {
  const ws = await createTestWorkspace("storage migrations");
  await runInDurableObject(coordinatorFor(env, ws.id), async (_instance: WorkspaceCoordinator, state) => {
    for (const table of tables(state.storage.sql)) state.storage.sql.exec(`DROP TABLE ${table}`);
    await fn(state.storage);
  });
}

const V1: StorageMigration = {
  version: 1,
  name: "notes",
  statements: ["CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)"],
};
const V2: StorageMigration = {
  version: 2,
  name: "notes get a pinned flag",
  statements: ["ALTER TABLE notes ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0"],
};

describe("the coordinator's storage", () => {
  it("is at the latest version before its first call, with every table the coordinator uses", async () => {
    const ws = await createTestWorkspace("storage fresh");
    const coordinator = coordinatorFor(env, ws.id);
    // The first call on a fresh object already finds the schema in place.
    expect(await coordinator.activeRuns()).toEqual([]);
    await runInDurableObject(coordinator, (_instance: WorkspaceCoordinator, state) => {
      expect(storageVersion(state.storage.sql)).toBe(COORDINATOR_MIGRATIONS.length);
      expect(ledger(state.storage.sql)).toEqual(
        COORDINATOR_MIGRATIONS.map((m) => ({ version: m.version, name: m.name })),
      );
      expect(tables(state.storage.sql)).toEqual([
        "_migrations",
        "browser_slot",
        "config_fingerprints",
        "meta",
        "preview_leases",
        "run_leases",
        "warm_browser",
      ]);
      // Applying again is a no-op.
      expect(applyStorageMigrations(state.storage, COORDINATOR_MIGRATIONS, Date.now())).toEqual([]);
    });
  });

  it("adopts an object made before versions existed (tables, no ledger), keeping its leases", async () => {
    const ws = await createTestWorkspace("storage unversioned");
    const coordinator = coordinatorFor(env, ws.id);
    const claim = await coordinator.beginRun({ workspaceId: ws.id, configId: 3, revision: 1, fingerprint: FP });
    if (!claim.ok) throw new Error("claim failed");
    await runInDurableObject(coordinator, (_instance: WorkspaceCoordinator, state) => {
      state.storage.sql.exec("DROP TABLE _migrations"); // as the code before versioned migrations left it
      expect(storageVersion(state.storage.sql)).toBe(0);
      expect(applyStorageMigrations(state.storage, COORDINATOR_MIGRATIONS, Date.now())).toEqual(
        COORDINATOR_MIGRATIONS.map((m) => m.version),
      );
      expect(storageVersion(state.storage.sql)).toBe(COORDINATOR_MIGRATIONS.length);
    });
    expect(await coordinator.checkRun(3, claim.token)).toEqual({ ok: true });
    expect((await coordinator.activeRuns()).map((l) => l.token)).toEqual([claim.token]);
  });
});

describe("applyStorageMigrations", () => {
  it("a fresh object gets every migration in order, each recorded once", async () => {
    await onEmptyStorage((storage) => {
      expect(applyStorageMigrations(storage, [V1, V2], 1_000)).toEqual([1, 2]);
      expect(ledger(storage.sql)).toEqual([
        { version: 1, name: "notes" },
        { version: 2, name: "notes get a pinned flag" },
      ]);
      storage.sql.exec("INSERT INTO notes (body, pinned) VALUES ('x', 1)");
      expect(applyStorageMigrations(storage, [V1, V2], 2_000)).toEqual([]);
    });
  });

  it("an object at an older version gets only the newer migrations and keeps its rows", async () => {
    await onEmptyStorage((storage) => {
      expect(applyStorageMigrations(storage, [V1], 1_000)).toEqual([1]);
      storage.sql.exec("INSERT INTO notes (body) VALUES ('kept')");
      expect(storageVersion(storage.sql)).toBe(1);
      // The next release appends V2: V1 is not run again (it would fail: the table exists).
      expect(applyStorageMigrations(storage, [V1, V2], 2_000)).toEqual([2]);
      expect(storageVersion(storage.sql)).toBe(2);
      expect(storage.sql.exec("SELECT body, pinned FROM notes").toArray()).toEqual([{ body: "kept", pinned: 0 }]);
      expect(
        storage.sql
          .exec<{ version: number; applied_at: number }>("SELECT version, applied_at FROM _migrations")
          .toArray(),
      ).toEqual([
        { version: 1, applied_at: 1_000 },
        { version: 2, applied_at: 2_000 },
      ]);
    });
  });

  it("a migration that fails leaves neither its changes nor its version, and says so", async () => {
    const broken: StorageMigration = {
      version: 2,
      name: "half of it works",
      statements: ["CREATE TABLE tags (name TEXT)", "ALTER TABLE no_such_table ADD COLUMN x INTEGER"],
    };
    await onEmptyStorage((storage) => {
      expect(() => applyStorageMigrations(storage, [V1, broken], 1_000)).toThrow(/no_such_table/);
      expect(storageVersion(storage.sql)).toBe(1);
      expect(tables(storage.sql)).toEqual(["_migrations", "notes"]);
    });
  });

  it("refuses a list out of order, and storage newer than the code", async () => {
    await onEmptyStorage((storage) => {
      expect(() => applyStorageMigrations(storage, [V2], 1_000)).toThrow(/expected 1/);
      expect(storageVersion(storage.sql)).toBe(0);
      applyStorageMigrations(storage, [V1, V2], 1_000);
      expect(() => applyStorageMigrations(storage, [V1], 2_000)).toThrow(/newer than this code/);
    });
  });
});
