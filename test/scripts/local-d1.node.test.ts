// scripts/lib/local-d1.mjs opens the file of wrangler.toml's DB binding, not whichever .sqlite under the
// state directory is newest: a workspace moved to DB_SHARD_1 (docs/scaling.md) leaves a second database
// file beside it, written later. Real wrangler, its own temporary state directory.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: plain .mjs helpers of the project's scripts (no type declarations)
import { openLocalD1 } from "../../scripts/lib/local-d1.mjs";
// @ts-expect-error: see above
import { runWrangler } from "../../scripts/lib/wrangler.mjs";

let dir: string;

const mark = (binding: string, table: string) =>
  runWrangler(["d1", "execute", binding, "--local", "--persist-to", dir, "--command", `CREATE TABLE ${table} (x)`]);

async function tablesOf(binding?: string) {
  const db = await openLocalD1(dir, { readOnly: true, ...(binding ? { binding } : {}) });
  try {
    return db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'marker_%'")
      .all()
      .map((r: { name: string }) => r.name) as string[];
  } finally {
    db.close();
  }
}

describe("openLocalD1", () => {
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "tw-local-d1-"));
    await mark("DB", "marker_db");
    // The shard's file is written last, so it is the newest .sqlite in the directory.
    await mark("DB_SHARD_1", "marker_shard");
  });

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("opens the DB binding's database even when a shard's file is newer", async () => {
    expect(await tablesOf()).toEqual(["marker_db"]);
  });

  it("opens another binding's database when asked", async () => {
    expect(await tablesOf("DB_SHARD_1")).toEqual(["marker_shard"]);
  });
});
