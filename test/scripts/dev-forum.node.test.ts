// `npm run dev:forum` (scripts/dev-forum.mjs), and `npm run dev:reddit`, the same command, as a person runs
// it: it prints the four origins of the local forum, a web-app client and the variables for `npm start`, and
// what it prints works: the client gets a token at the printed token endpoint, the OAuth host lists the
// newest posts (ids allocated as it runs), the public site answers the demo account's profile.
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "./run-script";

/** A port with the next four free too (the cookie forum and the four origins). */
async function freeRun(n = 5): Promise<number> {
  const taken = (port: number) =>
    new Promise<boolean>((resolve) => {
      const s = net.createServer();
      s.once("error", () => resolve(true));
      s.listen(port, "127.0.0.1", () => s.close(() => resolve(false)));
    });
  for (;;) {
    const base = 20_000 + Math.floor(Math.random() * 40_000);
    let free = true;
    for (let i = 0; i < n && free; i++) free = !(await taken(base + i));
    if (free) return base;
  }
}

const running: ChildProcess[] = [];
afterAll(() => {
  for (const child of running) child.kill("SIGTERM");
});

function value(out: string, pattern: RegExp): string {
  const m = pattern.exec(out);
  if (!m) throw new Error(`not printed: ${pattern}\n${out}`);
  return m[1]!;
}

describe("npm run dev:forum", () => {
  let out = "";
  let port = 0;
  beforeAll(async () => {
    port = await freeRun();
    const child = spawn(
      process.execPath,
      [path.join(ROOT, "scripts", "dev-forum.mjs"), "--port", String(port), "--every", "0"],
      {
        cwd: ROOT,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    running.push(child);
    for (const stream of [child.stdout, child.stderr]) stream.on("data", (chunk) => (out += chunk));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", () => out.includes("npm start") && resolve());
      child.once("exit", (code) => reject(new Error(`dev:forum exited (${code}):\n${out}`)));
    });
  });

  it("prints the four origins, the client and the variables for npm start, on the ports after --port", () => {
    expect(value(out, /www \(consent page.*: (\S+)/)).toBe(`http://127.0.0.1:${port + 1}`);
    expect(value(out, /api \(the OAuth host\):\s+(\S+)/)).toBe(`http://127.0.0.1:${port + 2}`);
    expect(value(out, /site \(the public site, logged out\):\s+(\S+)/)).toBe(`http://127.0.0.1:${port + 3}`);
    expect(value(out, /upload \(the upload host\):\s+(\S+)/)).toBe(`http://127.0.0.1:${port + 4}`);
    for (const name of [
      "REDDIT_CLIENT_ID",
      "REDDIT_CLIENT_SECRET",
      "REDDIT_AUTHORIZE_URL",
      "REDDIT_AUTH_URL",
      "REDDIT_API_BASE_URL",
      "FORUM_BASE_URL",
    ])
      expect(out).toContain(`${name}=`);
  });

  it("the printed client gets a token, the OAuth host lists the newest posts, the site shows the account", async () => {
    const id = value(out, /REDDIT_CLIENT_ID=(\S+)/);
    const secret = value(out, /REDDIT_CLIENT_SECRET=(\S+)/);
    const tokenUrl = value(out, /REDDIT_AUTH_URL=(\S+)/);
    const apiBase = value(out, /REDDIT_API_BASE_URL=(\S+)/);
    const res = await fetch(tokenUrl, {
      method: "POST",
      headers: { authorization: `Basic ${btoa(`${id}:${secret}`)}` },
      body: new URLSearchParams({ grant_type: "client_credentials" }),
    });
    const token = (await res.json()) as { access_token: string };
    const listing = (await (
      await fetch(`${apiBase}/r/all/new?limit=5`, {
        headers: { authorization: `bearer ${token.access_token}`, "user-agent": "test:dev-forum:1.0" },
      })
    ).json()) as { data: { children: { data: { id: string } }[] } };
    expect(listing.data.children).toHaveLength(5);
    const ids = listing.data.children.map((c) => Number.parseInt(c.data.id, 36));
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    const site = value(out, /site \(the public site, logged out\):\s+(\S+)/);
    const about = (await (await fetch(`${site}/user/demo_author/about.json`)).json()) as { kind: string };
    expect(about.kind).toBe("t2");
  });

  it("npm run dev:reddit is the same command", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
    expect(pkg.scripts["dev:reddit"]).toBe(pkg.scripts["dev:forum"]);
  });
});
