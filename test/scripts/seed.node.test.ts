// `npm run seed` (scripts/seed.mjs) run as a person runs it, for mistakes on the command line: exit 2 with the
// reason, before the local database is touched.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runScript } from "./run-script";

describe("npm run seed", () => {
  it("refuses a workspace name the admin API would refuse (empty once trimmed, over 200 characters)", async () => {
    const state = fs.mkdtempSync(path.join(os.tmpdir(), "threadwatch-seed-args-"));
    try {
      for (const name of ["", "   ", "x".repeat(201)]) {
        const { code, stdout, stderr } = await runScript("seed.mjs", [
          "--posts",
          "0",
          "--json",
          "--name",
          name,
          "--persist-to",
          state,
        ]);
        expect(stderr).toContain("--name must be 1 to 200 characters");
        expect(stdout).toBe("");
        expect(code, stderr).toBe(2);
      }
      // Nothing was written: no local database was made.
      expect(fs.readdirSync(state)).toEqual([]);
    } finally {
      fs.rmSync(state, { recursive: true, force: true });
    }
  }, 120_000);
});
