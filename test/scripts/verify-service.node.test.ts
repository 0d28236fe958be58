// `npm run verify` (scripts/verify.mjs) against a live service (wrangler dev on a random port, a fresh local
// database, the fixture server as the blog): with two configs and no --config it refuses to guess (it lists
// them, exit 2); with --config it verifies that one; either way its report names every temporary key it
// created, the clean state's reader included, and says it deleted them, and none is left usable.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: plain .mjs helpers of the project's scripts (no type declarations)
import { startDevServer, stopDevServer, waitUntilReady } from "../../scripts/lib/dev-server.mjs";
// @ts-expect-error: see above
import { copyMigratedDatabase } from "../../scripts/lib/local-d1.mjs";
// @ts-expect-error: see above
import { seedWorkspace } from "../../scripts/lib/seed-workspace.mjs";
import { type FixtureServer, startFixtureServer } from "../fixtures/server";
import { freePort, runScript } from "./run-script";

const ADMIN_TOKEN = "verify-service-admin-token";

interface KeyRow {
  id: number;
  prefix: string;
  scope: string;
  revoked_at: string | null;
}

let persistTo: string;
let fixtures: FixtureServer;
let server: ReturnType<typeof startDevServer> | undefined;
let base: string;
let workspaceId: number;
let writeKey: string;
const configs: { id: number; blog_url: string; subreddit: string }[] = [];

async function call(route: string, bearer: string, method = "GET", body?: unknown) {
  const res = await fetch(`${base}${route}`, {
    method,
    headers: { authorization: `Bearer ${bearer}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

const keyRows = async (): Promise<KeyRow[]> =>
  (await call(`/admin/v1/workspaces/${workspaceId}/keys`, ADMIN_TOKEN)).body.data;

const verify = (...extra: string[]) =>
  runScript("verify.mjs", [
    "--base-url",
    base,
    "--workspace",
    String(workspaceId),
    "--admin-token",
    ADMIN_TOKEN,
    ...extra,
  ]);

beforeAll(async () => {
  persistTo = fs.mkdtempSync(path.join(os.tmpdir(), "threadwatch-verify-"));
  fixtures = await startFixtureServer();
  await copyMigratedDatabase(persistTo);
  const seeded = await seedWorkspace({ name: "Verify", posts: 0, persistTo, keyName: "verify-test", seed: 3 });
  workspaceId = seeded.workspaceId;
  writeKey = seeded.keys[0];
  const port = await freePort();
  server = startDevServer({
    port,
    persistTo,
    capture: true,
    vars: { ADMIN_TOKEN, ALLOW_PRIVATE_FETCH: "true", FORUM_BASE_URL: `${fixtures.origin}/forum` },
    extraArgs: ["--inspector-port", String(await freePort())],
  });
  base = `http://127.0.0.1:${port}`;
  await waitUntilReady(server, `${base}/`, 180_000);
  // Two tutorials' configs in one workspace: the blog-sync one and the publishing one.
  for (const subreddit of ["first_demo", "second_demo"]) {
    const made = await call("/api/v1/actions/blog-subreddit-syncs", writeKey, "POST", {
      blog_url: `${fixtures.origin}/__console/feed.xml`,
      subreddit,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    configs.push(made.body);
  }
}, 240_000);

afterAll(async () => {
  if (server) await stopDevServer(server);
  await fixtures?.close();
  if (persistTo) fs.rmSync(persistTo, { recursive: true, force: true });
});

/** The keys the run made: the rows not in `before`. */
const madeSince = async (before: KeyRow[]) => {
  const ids = new Set(before.map((k) => k.id));
  return (await keyRows()).filter((k) => !ids.has(k.id)).sort((a, b) => a.id - b.id);
};

describe("npm run verify on a workspace with several configs", () => {
  it("refuses to guess: lists the configs, asks for --config, exit 2, and deletes the keys it made", async () => {
    const before = await keyRows();
    const { code, stdout, stderr } = await verify();
    expect(code, stdout + stderr).toBe(2);
    expect(stderr).toContain(`workspace ${workspaceId} has 2 sync configs; say which one to verify`);
    for (const config of configs)
      expect(stderr).toContain(`--config ${config.id}   ${config.blog_url} → r/${config.subreddit}`);
    // Nothing was verified against a guessed config.
    expect(stdout).not.toContain("dry run");
    expect(stdout).not.toMatch(/^clean/m);

    const made = await madeSince(before);
    expect(made.map((k) => k.scope).sort()).toEqual(["read", "read_write"]);
    expect(made.filter((k) => k.revoked_at === null)).toEqual([]);
    const summary = stdout.split("\n").find((l) => l.startsWith("temporary keys: "));
    expect(summary).toBe(
      `temporary keys: created 2 and deleted all 2: ${made.map((k, i) => `${k.prefix}… (id ${k.id}, ${["read", "read_write"][i]})`).join(", ")}`,
    );
  });

  it("with --config: verifies that config, and its report names all three keys it made and deleted", async () => {
    const chosen = configs[1]!;
    const before = await keyRows();
    const { stdout, stderr } = await verify("--config", String(chosen.id));
    expect(stdout, stderr).toContain(
      `ok    get_blog_subreddit_syncs: 2 configs; using ${chosen.id} (${chosen.blog_url} → r/${chosen.subreddit})`,
    );
    expect(stdout).toContain("ok    dry run: completed");

    const made = await madeSince(before);
    expect(made.map((k) => k.scope)).toEqual(["read", "read_write", "read"]);
    expect(made.filter((k) => k.revoked_at === null)).toEqual([]);
    const lines = stdout.split("\n");
    for (const key of made) expect(lines.filter((l) => l.includes(`${key.prefix}…`)).length).toBeGreaterThanOrEqual(2);
    expect(lines.some((l) => l.startsWith(`ok    create clean-state read key: ${made[2]!.prefix}… expires `))).toBe(
      true,
    );
    expect(lines.some((l) => l.startsWith(`ok    delete clean-state read key ${made[2]!.prefix}…`))).toBe(true);
    const purposes = ["read", "read_write", "clean-state read"];
    expect(lines.find((l) => l.startsWith("temporary keys: "))).toBe(
      `temporary keys: created 3 and deleted all 3: ${made.map((k, i) => `${k.prefix}… (id ${k.id}, ${purposes[i]})`).join(", ")}`,
    );
  });

  it("--json carries the same list of keys", async () => {
    const before = await keyRows();
    const { stdout } = await verify("--config", String(configs[0]!.id), "--json");
    const report = JSON.parse(stdout) as { keys: { id: number; prefix: string; purpose: string; deleted: boolean }[] };
    const made = await madeSince(before);
    expect(report.keys).toEqual(
      made.map((k, i) => ({
        id: k.id,
        prefix: k.prefix,
        scope: k.scope,
        purpose: ["read", "read_write", "clean-state read"][i],
        deleted: true,
      })),
    );
  });
});
