// The command-line scripts' settings and hints: admin CLI environment variables, which demo keys
// `npm start` issues again, and the extract command's hint about --allow-private.
import { describe, expect, it } from "vitest";
import { adminConnection, demoKeysToIssue, extractErrorMessage } from "../../scripts/lib/cli-settings.mjs";

describe("admin CLI connection", () => {
  it("reads THREADWATCH_BASE_URL and THREADWATCH_ADMIN_TOKEN when no flag is given", () => {
    expect(
      adminConnection({}, { THREADWATCH_BASE_URL: "https://tw.example", THREADWATCH_ADMIN_TOKEN: "from-env" }),
    ).toEqual({ baseUrl: "https://tw.example", token: "from-env" });
  });

  it("flags win over the environment; ADMIN_TOKEN and .dev.vars come after THREADWATCH_ADMIN_TOKEN", () => {
    expect(
      adminConnection(
        { baseUrl: "http://127.0.0.1:8851", adminToken: "flag" },
        { THREADWATCH_BASE_URL: "https://tw.example", THREADWATCH_ADMIN_TOKEN: "env" },
      ),
    ).toEqual({ baseUrl: "http://127.0.0.1:8851", token: "flag" });
    expect(adminConnection({}, { THREADWATCH_ADMIN_TOKEN: "tw", ADMIN_TOKEN: "plain" }).token).toBe("tw");
    expect(adminConnection({}, { ADMIN_TOKEN: "plain" }, { ADMIN_TOKEN: "dev" }).token).toBe("plain");
    expect(adminConnection({}, {}, { ADMIN_TOKEN: "dev" })).toEqual({
      baseUrl: "http://localhost:8787",
      token: "dev",
    });
    expect(adminConnection({}, { THREADWATCH_BASE_URL: "" }).baseUrl).toBe("http://localhost:8787");
  });
});

describe("demo keys issued again by npm start", () => {
  it("only the key that stopped working: revoking the read key adds no read_write key", () => {
    expect(demoKeysToIssue({ api_key: true, read_key: false })).toEqual([
      { field: "read_key", name: "demo read", scope: "read" },
    ]);
    expect(demoKeysToIssue({ api_key: false, read_key: true })).toEqual([
      { field: "api_key", name: "demo read_write", scope: "read_write" },
    ]);
    expect(demoKeysToIssue({ api_key: true, read_key: true })).toEqual([]);
    expect(demoKeysToIssue({}).map((k) => k.scope)).toEqual(["read_write", "read"]);
  });
});

describe("extract's refusal of a private address", () => {
  it("names --allow-private, and only when it would help", () => {
    const blocked = { code: "blocked_address", message: "127.0.0.1 is a private or local address" };
    expect(extractErrorMessage(blocked, false)).toContain("--allow-private");
    expect(extractErrorMessage(blocked, true)).toBe(blocked.message);
    expect(extractErrorMessage({ code: "timeout", message: "slow" }, false)).toBe("slow");
  });
});
