// `npm start` on a port another service already has: it says which port is taken and how to choose another,
// announces nothing (no "running on" banner, no keys), and exits non-zero, before any set-up work.
import fs from "node:fs";
import http from "node:http";
import type net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runScript } from "./run-script";

let dir: string;
let busy: http.Server;
let port: number;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "threadwatch-busy-port-"));
  // Another service on the port that answers 200, as another `npm start` would: the readiness probe took its
  // answer for ours.
  busy = http.createServer((_req, res) => res.end("someone else"));
  await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
  port = (busy.address() as net.AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => busy.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

it("refuses a taken port, names it and says how to choose another", async () => {
  const { code, stdout, stderr } = await runScript(
    "start.mjs",
    ["--port", String(port), "--persist-to", path.join(dir, "state"), "--dev-vars", path.join(dir, "dev.vars")],
    { ...process.env, CI: "true" },
  );
  const out = stdout + stderr;

  expect(code).toBe(1);
  expect(out).toContain(`port ${port} is already in use`);
  const suggested = /npm start -- --port (\d+)/.exec(out);
  expect(suggested, out).not.toBeNull();
  expect(Number(suggested![1])).not.toBe(port);
  expect(out).not.toContain("threadwatch is running on");
  expect(out).not.toMatch(/key:|admin token/);
  // Nothing was set up for a service that cannot start.
  expect(out).not.toContain("[start]");
  expect(fs.existsSync(path.join(dir, "dev.vars"))).toBe(false);
});
