// `npm start` as a person runs it (docs/commands.md, "npm start"), on a random free port with its own state
// directory and secrets file: offline its output is our steps, wrangler's bindings table once, no stack
// trace, and our banner once; after the demo read key is revoked, a restart issues that key again and
// nothing else (one active demo read_write key, no spare revoked row).
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "./run-script";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const BANNER = "threadwatch is running on";
const START_TIMEOUT_MS = 240_000;

interface Started {
  child: ChildProcess;
  output: () => string;
}

/** Runs `npm start`'s script until its banner shows (or it exits, or the time is up). */
async function start(port: number, dir: string): Promise<Started> {
  const child = spawn(
    process.execPath,
    [
      path.join(ROOT, "scripts", "start.mjs"),
      "--port",
      String(port),
      "--persist-to",
      path.join(dir, "state"),
      "--dev-vars",
      path.join(dir, "dev.vars"),
    ],
    // Its own process group, so a failed test still ends wrangler and workerd with it.
    { cwd: ROOT, env: { ...process.env, CI: "true" }, stdio: ["ignore", "pipe", "pipe"], detached: true },
  );
  let text = "";
  for (const stream of [child.stdout, child.stderr]) stream?.on("data", (chunk) => (text += chunk));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no banner within ${START_TIMEOUT_MS} ms:\n${text}`)),
      START_TIMEOUT_MS,
    );
    const check = () => {
      // The banner ends with the admin CLI hint; wait for the whole of it.
      if (text.includes(BANNER) && /npm run admin -- .*workspaces list\n/.test(text)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on("data", check);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited (${code}) before its banner:\n${text}`));
    });
  });
  return { child, output: () => text };
}

/** Ctrl-C, as a person stops it; the whole group is killed if it has not ended within 30 s. */
async function stop(started: Started): Promise<void> {
  const { child } = started;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGINT");
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // already gone
    }
  }, 30_000);
  await exited;
  clearTimeout(timer);
}

const bannerValue = (output: string, label: string) => {
  const match = new RegExp(`${label}\\s+(\\S+)`).exec(output);
  if (!match) throw new Error(`no "${label}" in:\n${output}`);
  return match[1]!;
};

interface KeyRow {
  id: number;
  name: string;
  scope: string;
  revoked_at: string | null;
}

describe("npm start", () => {
  let dir: string;
  let port: number;
  const running: Started[] = [];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "threadwatch-start-"));
    port = await freePort();
  });

  afterAll(async () => {
    for (const started of running) await stop(started);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("starts quietly offline, then re-issues only the revoked demo key on a restart", async () => {
    const first = await start(port, dir);
    running.push(first);
    const out = first.output();

    // Point 8: our banner once, wrangler's bindings table once, no stack trace, no network look-up.
    expect(out.split(BANNER)).toHaveLength(2);
    expect(out.split("Your Worker has access to the following bindings:")).toHaveLength(2);
    expect(out).not.toMatch(/ENOTFOUND|getaddrinfo|EAI_AGAIN|Request\.cf|uncaught exception/i);
    expect(out).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
    // The readiness probe's requests are not logged as if a person had made them.
    expect(out).not.toContain("[wrangler:info] GET / ");
    expect(out).toContain("(seeded now)");

    const base = `http://127.0.0.1:${port}`;
    const workspace = Number(/demo workspace (\d+)/.exec(out)![1]);
    const writeKey = bannerValue(out, "read_write key:");
    const readKey = bannerValue(out, "read key:");
    const adminToken = bannerValue(out, "admin token:");
    const admin = (method: string, route: string) =>
      fetch(`${base}/admin/v1${route}`, { method, headers: { authorization: `Bearer ${adminToken}` } });
    const keys = async (): Promise<KeyRow[]> =>
      ((await (await admin("GET", `/workspaces/${workspace}/keys`)).json()) as { data: KeyRow[] }).data;
    const posts = (key: string) =>
      fetch(`${base}/api/v1/posts?limit=1`, { headers: { authorization: `Bearer ${key}` } }).then(async (res) => {
        await res.arrayBuffer();
        return res.status;
      });

    expect(await posts(readKey)).toBe(200);
    const before = await keys();
    expect(before.map((k) => [k.name, k.revoked_at])).toEqual(
      expect.arrayContaining([
        ["demo read_write", null],
        ["demo read", null],
      ]),
    );
    expect(before).toHaveLength(2);

    // Point 3: revoke the read key, restart.
    const readRow = before.find((k) => k.name === "demo read")!;
    const revoked = await admin("DELETE", `/workspaces/${workspace}/keys/${readRow.id}`);
    expect(revoked.status).toBe(200);
    await revoked.arrayBuffer();
    await stop(first);

    const second = await start(port, dir);
    running.push(second);
    const again = second.output();
    expect(again.split(BANNER)).toHaveLength(2);
    expect(again).toContain("(new demo keys: a remembered one was revoked or deleted)");
    expect(bannerValue(again, "read_write key:")).toBe(writeKey);
    const newReadKey = bannerValue(again, "read key:");
    expect(newReadKey).not.toBe(readKey);
    expect(await posts(newReadKey)).toBe(200);
    expect(await posts(readKey)).toBe(401);
    expect(await posts(writeKey)).toBe(200);

    const after = await keys();
    const active = (name: string) => after.filter((k) => k.name === name && k.revoked_at === null);
    expect(active("demo read_write")).toHaveLength(1);
    expect(active("demo read")).toHaveLength(1);
    // The one revoked by hand, and no other: nothing was issued and revoked at once on the way.
    expect(after.filter((k) => k.revoked_at !== null).map((k) => k.id)).toEqual([readRow.id]);
    expect(after).toHaveLength(3);
  });
});
