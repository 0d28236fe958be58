// A fresh `npm install` of the checkout: no EBADENGINE lines (npm may run on an older Node than the project's
// own Node 22, the devDependency "node" every npm script runs on), and one line saying why, printed by the
// preinstall step (scripts/node-note.mjs) only when npm's Node is older than the project's.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script of the project (no type declarations)
import { nodeNote, npmNodeVersion } from "../../scripts/node-note.mjs";
import { ROOT } from "./run-script";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "threadwatch-npm-install-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("npm install", () => {
  it("prints no engine warnings (a dry run of the lockfile, as a fresh clone has it)", async () => {
    for (const file of ["package.json", "package-lock.json", ".npmrc"])
      fs.copyFileSync(path.join(ROOT, file), path.join(dir, file));
    const { stdout, stderr } = await promisify(execFile)(
      "npm",
      ["install", "--dry-run", "--ignore-scripts", "--no-audit", "--no-fund"],
      { cwd: dir, timeout: 240_000, env: { ...process.env, npm_config_loglevel: undefined } },
    );
    expect(`${stdout}${stderr}`).not.toContain("EBADENGINE");
    expect(stdout).toMatch(/add(ed)? /);
  });

  it("says in one line why Node 22 is used when npm runs on an older Node, and nothing on Node 22", () => {
    expect(npmNodeVersion("npm/11.19.1 node/v20.20.2 linux x64 workspaces/false")).toBe("20.20.2");
    expect(npmNodeVersion(undefined)).toBeUndefined();
    const note = nodeNote("20.20.2") as string;
    expect(note.split("\n")).toHaveLength(1);
    expect(note).toContain("Node 20.20.2");
    expect(note).toContain("Node 22");
    expect(nodeNote("22.11.0")).toBeDefined();
    expect(nodeNote("22.12.0")).toBeUndefined();
    expect(nodeNote("24.1.0")).toBeUndefined();
  });
});
