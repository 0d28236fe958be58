// `npm run verify` (scripts/verify.mjs) run as a person runs it, for a mistake on the command line: exit 2 with
// the reason, before any request (as `npm run admin` does, test/scripts/admin-cli.node.test.ts).
import { describe, expect, it } from "vitest";
import { runScript } from "./run-script";

describe("npm run verify", () => {
  it("refuses a --base-url without an http(s) scheme as a wrong command line, before any request", async () => {
    for (const base of ["localhost:8787", "ftp://example.com", "not a url"]) {
      const { code, stderr } = await runScript("verify.mjs", [
        "--workspace",
        "1",
        "--admin-token",
        "t",
        "--base-url",
        base,
      ]);
      expect(stderr).toContain("--base-url is not");
      expect(stderr).toContain(base);
      expect(code, stderr).toBe(2);
    }
  });
});
