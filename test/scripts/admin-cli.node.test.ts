// `npm run admin` (scripts/admin.mjs) run as a person runs it, for mistakes on the command line: exit 2 with
// the reason, before any request (exit 3 is kept for a service that cannot be reached).
import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

function admin(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = { ...process.env };
  for (const name of ["THREADWATCH_BASE_URL", "THREADWATCH_ADMIN_TOKEN", "ADMIN_TOKEN"]) delete env[name];
  const child = spawn(process.execPath, [path.join(ROOT, "scripts", "admin.mjs"), ...args], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, stdout, stderr })));
}

describe("npm run admin", () => {
  it("refuses a --base-url without an http(s) scheme as a wrong command line, not as an unreachable service", async () => {
    for (const base of ["localhost:8787", "ftp://example.com", "not a url"]) {
      const { code, stderr } = await admin(["--admin-token", "t", "--base-url", base, "workspaces", "list"]);
      expect(stderr).toContain(`--base-url is not`);
      expect(stderr).toContain(base);
      expect(stderr).not.toContain("cannot reach");
      expect(code, stderr).toBe(2);
    }
  });
});
