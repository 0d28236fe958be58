// `npm run admin` (scripts/admin.mjs) run as a person runs it, for mistakes on the command line: exit 2 with
// the reason, before any request (exit 3 is kept for a service that cannot be reached).
import { describe, expect, it } from "vitest";
import { runScript } from "./run-script";

function admin(args: string[]) {
  const env = { ...process.env };
  for (const name of ["THREADWATCH_BASE_URL", "THREADWATCH_ADMIN_TOKEN", "ADMIN_TOKEN"]) delete env[name];
  return runScript("admin.mjs", args, env);
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
