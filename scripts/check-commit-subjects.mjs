#!/usr/bin/env node
// Fails when a commit made since the rule began has a subject over 72 characters: a subject says what the
// commit does in one line that `git log --oneline` shows whole; the why goes in the body. Commits up to
// 7b0e150, the last one before the rule, are left as they are. Merge commits count too (git's own merge
// subjects are short). Part of `npm test`; alone: `npm run lint:commits`.
//
// Usage: node scripts/check-commit-subjects.mjs [--base <commit>]
//   --base: the last commit not checked (default 7b0e150). Runs on the repository of the current directory.
// Exit 0: every subject checked fits (or there is no history to check); 1: some do not; 2: bad usage.
import { execFileSync } from "node:child_process";

const MAX = 72;
const DEFAULT_BASE = "7b0e150";
const NAME = "check-commit-subjects";

function usage(message) {
  console.error(`${NAME}: ${message}\nusage: node scripts/check-commit-subjects.mjs [--base <commit>]`);
  process.exit(2);
}

function parseArgs(argv) {
  let base = DEFAULT_BASE;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--base" && argv[i + 1]) base = argv[++i];
    else usage(`unknown argument ${argv[i]}`);
  }
  return { base };
}

/** git's output, or null when git fails (not a repository, an unknown commit). */
function git(...args) {
  try {
    return execFileSync("git", args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  } catch {
    return null;
  }
}

/** [hash, subject] of each commit `git log` lists for `range` (merges included: git log lists them). */
function subjects(range) {
  const out = git("log", "--format=%h%x00%s%x00", ...range) ?? "";
  const fields = out.split("\0");
  const commits = [];
  for (let i = 0; i + 1 < fields.length; i += 2) commits.push([fields[i].trim(), fields[i + 1]]);
  return commits;
}

function main() {
  const { base } = parseArgs(process.argv.slice(2));
  if (git("rev-parse", "--is-inside-work-tree")?.trim() !== "true") {
    console.log(`${NAME}: not inside a git repository: no commit checked`);
    return 0;
  }
  if (git("rev-parse", "--verify", "--quiet", "HEAD^{commit}") === null) {
    console.log(`${NAME}: the repository has no commit yet: nothing checked`);
    return 0;
  }
  const baseKnown = git("rev-parse", "--verify", "--quiet", `${base}^{commit}`) !== null;
  const inHistory = baseKnown && git("merge-base", "--is-ancestor", base, "HEAD") !== null;
  let commits;
  let what;
  if (inHistory) {
    commits = subjects([`${base}..HEAD`]);
    what = `${commits.length} commit${commits.length === 1 ? "" : "s"} after ${base}`;
  } else {
    // A shallow clone (or a history rewritten past the base): what is "new" cannot be told, so only the
    // commit under test is checked, and the output says so.
    const shallow = git("rev-parse", "--is-shallow-repository")?.trim() === "true";
    commits = subjects(["-1", "HEAD"]);
    what =
      `only HEAD's own subject: ${base} is not in this ${shallow ? "shallow clone's " : ""}history` +
      (shallow ? " (git fetch --unshallow, then run again, checks every new commit)" : "");
  }
  const long = commits.filter(([, subject]) => [...subject].length > MAX);
  if (long.length === 0) {
    console.log(`${NAME}: checked ${what}; every subject is at most ${MAX} characters`);
    return 0;
  }
  console.error(
    `${NAME}: checked ${what}; ${long.length} subject${long.length === 1 ? " is" : "s are"} over ${MAX} characters:`,
  );
  for (const [hash, subject] of long) console.error(`  ${hash} (${[...subject].length}): ${subject}`);
  console.error(
    `Say what the commit does in at most ${MAX} characters and move the rest to the body (git commit --amend, or git rebase -i ${inHistory ? base : "HEAD~1"} with "reword").`,
  );
  return 1;
}

process.exit(main());
