// `npm run verify` (docs/commands.md, "verify") as a client of a live service: scripts/verify.mjs runs against wrangler
// dev with the local forum, a persona checked and approved, and a config with drafts. A non-public verification reports
// a clean state (exit 0) and the forum receives nothing; a key left behind or a closed gate (the destination turned
// private) makes it exit non-zero with a readable reason.
import { execFile } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, type Harness, startHarness } from "./harness";

let h: Harness;
let configId: number;
const ACCOUNT = "verify_author";
const SUBREDDIT = "verify_demo";
const VERIFY = path.join(import.meta.dirname, "..", "..", "scripts", "verify.mjs");

const timings = (label: string, since: number) => {
  if (process.env.CONSOLE_TEST_TIMINGS) console.log(`${label}: ${Date.now() - since} ms`);
};

beforeAll(async () => {
  const started = Date.now();
  h = await startHarness();
  timings("harness", started);
  await h.forum("/accounts", { username: ACCOUNT });
  await h.forum("/subreddits", { name: SUBREDDIT, type: "public" });
  const connected = await h.connect(ACCOUNT);
  expect(connected.status, connected.html).toBe(200);
  const persona = { body: (await h.api(h.writeKey, "GET", "/actions/personas")).body.data[0] };
  expect(persona.body.username).toBe(ACCOUNT);
  const checked = await h.api(h.writeKey, "POST", `/actions/personas/${persona.body.id}/preflight`);
  expect(checked.body.persona.browser_ready, JSON.stringify(checked.body)).toBe(true);
  timings("persona checked", started);
  expect((await h.admin("POST", `/workspaces/${h.workspaceId}/personas/${persona.body.id}/approve`)).status).toBe(200);
  const config = await h.api(h.writeKey, "POST", "/actions/blog-subreddit-syncs", {
    blog_url: `${h.fixtureOrigin}/__console/feed.xml`,
    subreddit: SUBREDDIT,
    persona_id: persona.body.id,
    publish_immediately: true,
  });
  expect(config.status).toBe(201);
  configId = config.body.id;
  // Drafts from a real run that queues nothing (what an operator has before a verification).
  const run = await h.api(h.writeKey, "POST", `/actions/blog-subreddit-syncs/${configId}/run`, { publish: false });
  expect(run.body.run).toMatchObject({ status: "completed", created: 2, queued: 0 });
  timings("drafts written", started);
}, 400_000);

afterAll(async () => {
  await h?.close();
});

/** Runs scripts/verify.mjs as a separate Node process against the service: its exit code and output. */
function verify(...extra: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const args = [VERIFY, "--base-url", h.base, "--workspace", String(h.workspaceId), "--admin-token", ADMIN_TOKEN];
  return new Promise((resolve) => {
    execFile(process.execPath, [...args, ...extra], { timeout: 110_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === "number" ? err.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

const liveKeys = async () => {
  const keys = (await h.admin("GET", `/workspaces/${h.workspaceId}/keys`)).body.data as {
    expires_at: string | null;
    revoked_at: string | null;
  }[];
  return keys.filter((k) => k.expires_at && !k.revoked_at && Date.parse(k.expires_at) > Date.now());
};

describe("npm run verify against a live service", () => {
  it("a non-public verification: every step ok, exit 0, the clean report, nothing sent to the forum", async () => {
    const keysBefore = (await h.admin("GET", `/workspaces/${h.workspaceId}/keys`)).body.data.map(
      (k: { id: number }) => k.id,
    );
    const { code, stdout, stderr } = await verify();
    expect(stderr).toBe("");
    expect(code, stdout).toBe(0);
    const lines = stdout.split("\n");
    expect(lines.filter((l) => l.startsWith("FAIL"))).toEqual([]);
    for (const step of [
      "ok    create temporary read key: ",
      "ok    create temporary read_write key: ",
      `ok    get_blog_subreddit_syncs: 1 configs; using ${configId} (${h.fixtureOrigin}/__console/feed.xml → r/${SUBREDDIT})`,
      "ok    dry run: completed, 2 items previewed, source feed",
      `ok    readiness: persona u/${ACCOUNT}, r/${SUBREDDIT}, 0 media uploaded`,
      "ok    publish preflight of post ",
      "ok    clean state: no temporary API keys",
      "ok    clean state: no queued posts: 0 queued",
      "ok    clean state: no failed sync items: 0 failed",
      "ok    clean state: zero published posts: 0 published",
      "ok    clean state: last_error null",
    ])
      expect(
        lines.some((l) => l.startsWith(step)),
        step,
      ).toBe(true);
    expect(lines.filter((l) => l.startsWith("ok    delete temporary key "))).toHaveLength(2);
    expect(stdout).toContain("clean: verification made no public change and everything passed");
    // Nothing public, nothing uploaded, no key left: the temporary keys are gone from the workspace.
    expect((await h.forum(`/submissions?account=${ACCOUNT}`)).data).toEqual([]);
    expect((await h.forum(`/uploads?account=${ACCOUNT}`)).data).toEqual([]);
    expect(await liveKeys()).toEqual([]);
    // The temporary keys and the clean-state reader: made by this run, revoked by it (DELETE revokes).
    const made = (await h.admin("GET", `/workspaces/${h.workspaceId}/keys`)).body.data.filter(
      (k: { id: number }) => !keysBefore.includes(k.id),
    );
    expect(made.map((k: { scope: string }) => k.scope).sort()).toEqual(["read", "read", "read_write"]);
    expect(made.filter((k: { revoked_at: string | null }) => k.revoked_at === null)).toEqual([]);
    const items = await h.api(h.readKey, "GET", `/actions/blog-subreddit-syncs/${configId}/items`);
    expect(items.body.data.map((i: { state: string }) => i.state)).toEqual(["draft", "draft"]);
  });

  it("a temporary key left behind: exit 1, the FAIL line names the key", async () => {
    const left = await h.admin("POST", `/workspaces/${h.workspaceId}/keys`, {
      name: "left behind",
      scope: "read",
      expires_in_seconds: 600,
    });
    expect(left.status).toBe(201);
    try {
      const { code, stdout } = await verify("--json");
      expect(code).toBe(1);
      const report = JSON.parse(stdout) as { clean: boolean; steps: { name: string; ok: boolean; detail: string }[] };
      expect(report.clean).toBe(false);
      expect(report.steps.filter((s) => !s.ok)).toEqual([
        {
          name: "clean state: no temporary API keys",
          ok: false,
          detail: expect.stringContaining(`1 still usable: ${left.body.prefix}… (id ${left.body.id}, "left behind"`),
        },
      ]);
    } finally {
      await h.admin("DELETE", `/workspaces/${h.workspaceId}/keys/${left.body.id}`);
    }
  });

  it("a closed gate (the destination turned private): exit 1 with the reason a person can act on", async () => {
    await h.forum("/subreddits", { name: SUBREDDIT, type: "private" });
    try {
      const { code, stdout } = await verify();
      expect(code).toBe(1);
      const fails = stdout.split("\n").filter((l) => l.startsWith("FAIL"));
      expect(fails).toEqual([
        expect.stringMatching(
          new RegExp(
            `^FAIL  readiness: subreddit: r/${SUBREDDIT} is private and this account is not an approved member`,
          ),
        ),
        expect.stringMatching(/^FAIL {2}publish preflight of post \d+: .*subreddit: r\/verify_demo is private/),
      ]);
      expect(stdout).toContain("NOT clean: see FAIL lines above");
      expect(await liveKeys()).toEqual([]);
    } finally {
      await h.forum("/subreddits", { name: SUBREDDIT, type: "public" });
    }
  });
});
