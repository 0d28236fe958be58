// scripts/check-commit-subjects.mjs (part of `npm test`) on a throwaway repository: a subject of 73
// characters after the base fails, one of 72 passes, merge commits count, commits up to the base are left
// alone, and without the base in the history only HEAD's own subject is checked, as the output says.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runScript } from "./run-script";

/** git with no user or system configuration of this machine (signing, hooks, templates). */
const gitEnv: NodeJS.ProcessEnv = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: os.devNull,
  GIT_AUTHOR_NAME: "Test",
  GIT_AUTHOR_EMAIL: "test@example.com",
  GIT_COMMITTER_NAME: "Test",
  GIT_COMMITTER_EMAIL: "test@example.com",
};

const subjectOf = (length: number) => `Add ${"x".repeat(length - 4)}`;

let repo: string;
const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, env: gitEnv, encoding: "utf8" }).trim();
const commit = (subject: string) => {
  git("commit", "--allow-empty", "-q", "-m", subject, "-m", "Why, in the body, as long as it needs to be.");
  return git("rev-parse", "--short", "HEAD");
};
const check = (...args: string[]) => runScript("check-commit-subjects.mjs", args, gitEnv, repo);

beforeEach(() => {
  repo = fs.mkdtempSync(path.join(os.tmpdir(), "threadwatch-subjects-"));
  git("init", "-q", "-b", "main");
});
afterEach(() => fs.rmSync(repo, { recursive: true, force: true }));

describe("check-commit-subjects", () => {
  it("fails on a subject of 73 characters after the base, naming the commit; passes on 72", async () => {
    const base = commit(`An old commit from before the rule, ${"y".repeat(100)}`);
    commit(subjectOf(72));
    const passing = await check("--base", base);
    expect(passing.code).toBe(0);
    expect(passing.stdout).toContain(`checked 1 commit after ${base}; every subject is at most 72 characters`);

    const long = commit(subjectOf(73));
    const failing = await check("--base", base);
    expect(failing.code).toBe(1);
    expect(failing.stderr).toContain(`checked 2 commits after ${base}; 1 subject is over 72 characters`);
    expect(failing.stderr).toContain(`${long} (73): ${subjectOf(73)}`);
    expect(failing.stderr).not.toContain("An old commit");
  });

  it("counts merge commits", async () => {
    const base = commit("Start");
    git("checkout", "-q", "-b", "side");
    commit("Work on the side");
    git("checkout", "-q", "main");
    commit("Work on main");
    git("merge", "-q", "--no-ff", "side", "-m", subjectOf(73));
    const merge = git("rev-parse", "--short", "HEAD");
    const result = await check("--base", base);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`checked 3 commits after ${base}`);
    expect(result.stderr).toContain(`${merge} (73): `);
  });

  it("without the base in the history, checks HEAD's own subject only and says so", async () => {
    commit(`An older long subject, ${"z".repeat(80)}`);
    commit(subjectOf(72));
    const passing = await check("--base", "7b0e150");
    expect(passing.code).toBe(0);
    expect(passing.stdout).toContain("checked only HEAD's own subject: 7b0e150 is not in this history");

    const long = commit(subjectOf(73));
    const failing = await check();
    expect(failing.code).toBe(1);
    expect(failing.stderr).toContain("checked only HEAD's own subject: 7b0e150 is not in this history");
    expect(failing.stderr).toContain(`${long} (73): `);
  });

  it("names a shallow clone as such", async () => {
    const base = commit("Start");
    commit(subjectOf(72));
    const origin = repo;
    repo = fs.mkdtempSync(path.join(os.tmpdir(), "threadwatch-subjects-shallow-"));
    try {
      execFileSync("git", ["clone", "-q", "--depth", "1", `file://${origin}`, repo], { env: gitEnv });
      const result = await check("--base", base);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`${base} is not in this shallow clone's history (git fetch --unshallow`);
    } finally {
      fs.rmSync(origin, { recursive: true, force: true });
    }
  });
});
