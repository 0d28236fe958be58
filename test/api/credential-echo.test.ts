// Every way a newcomer gets a credential wrong, on every door that takes one (/api/v1, /admin/v1, /mcp): no
// answer body, answer header or log line repeats the credential, nor any 8-character piece of it beyond the
// part a key is shown by (displayPrefix, src/auth/keys.ts). Answers are kept by proxies and logs; the product
// logs through src/lib/log.ts to console.*, so the console methods are what is searched.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createApp } from "../../src/app";
import { displayPrefix } from "../../src/auth/keys";
import { ADMIN_TOKEN, createTestWorkspace, type TestWorkspace } from "../helpers/api";

let ws: TestWorkspace;

beforeAll(async () => {
  ws = await createTestWorkspace("credential echo");
});

afterEach(() => vi.restoreAllMocks());

const MCP_INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
});

interface Attempt {
  what: string;
  path: string;
  headers: Record<string, string>;
  method?: string;
  body?: string;
}

/** The mistakes, each made with `secret` (a key, or the admin token) on the door at `path`. */
function mistakes(secret: string, path: string): Attempt[] {
  const middle = Math.floor(secret.length / 2);
  const spaced = `${secret.slice(0, middle)} ${secret.slice(middle)}`;
  const attempts: Attempt[] = [
    { what: "no scheme", path, headers: { authorization: secret } },
    { what: "the key twice, no scheme", path, headers: { authorization: `${secret} ${secret}` } },
    { what: "Basic scheme", path, headers: { authorization: `Basic ${secret}` } },
    { what: "Token scheme", path, headers: { authorization: `Token ${secret}` } },
    { what: "Bearer with a colon", path, headers: { authorization: `Bearer: ${secret}` } },
    { what: "a made-up scheme", path, headers: { authorization: `X${secret} ${secret}` } },
    { what: "key in the query string", path: `${path}?api_key=${secret}`, headers: {} },
    { what: "key as a query parameter name", path: `${path}?${secret}`, headers: {} },
    { what: "key with a space inside", path, headers: { authorization: `Bearer ${spaced}` } },
    { what: "key and another word", path, headers: { authorization: `Bearer ${secret} extra` } },
    { what: "key with a character too many", path, headers: { authorization: `Bearer ${secret}!` } },
    { what: "key in another header", path, headers: { "x-api-key": secret } },
  ];
  return attempts.map((attempt) =>
    path === "/mcp"
      ? {
          ...attempt,
          method: "POST",
          body: MCP_INITIALIZE,
          headers: {
            ...attempt.headers,
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
          },
        }
      : attempt,
  );
}

/** The pieces of `secret` that must appear nowhere: every 8-character window not wholly inside `shown`. */
function pieces(secret: string, shown: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 8 <= secret.length; i++) if (i + 8 > shown.length) out.push(secret.slice(i, i + 8));
  return out;
}

/** Sends the attempt through the Worker's app in this isolate, with every console method written down. */
async function send(attempt: Attempt) {
  const logged: string[] = [];
  for (const method of ["log", "info", "warn", "error", "debug"] as const)
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" ")));
  const ctx = createExecutionContext();
  const res = await createApp().app.fetch(
    new Request(`http://threadwatch.test${attempt.path}`, {
      method: attempt.method ?? "GET",
      headers: attempt.headers,
      body: attempt.body,
    }),
    env,
    ctx,
  );
  const body = await res.text();
  await waitOnExecutionContext(ctx);
  vi.restoreAllMocks();
  const headers = [...res.headers].map(([name, value]) => `${name}: ${value}`);
  return { status: res.status, seen: [body, ...headers, ...logged].join("\n"), body };
}

async function expectNoEcho(secret: string, shown: string, path: string) {
  const leaks: string[] = [];
  for (const attempt of mistakes(secret, path)) {
    const { status, seen } = await send(attempt);
    expect(status, `${attempt.what} on ${path}`).toBeGreaterThanOrEqual(400);
    const found = pieces(secret, shown).filter((piece) => seen.includes(piece));
    if (found.length > 0) leaks.push(`${attempt.what} on ${path}: ${found.length} pieces, e.g. ${found[0]} in ${seen}`);
  }
  expect(leaks).toEqual([]);
}

describe("no credential comes back in an answer or a log line", () => {
  it("the pieces searched for are the key's, beyond its display prefix", () => {
    const shown = displayPrefix(ws.readKey);
    expect(shown).toHaveLength("tw_live_".length + 4);
    expect(pieces(ws.readKey, shown)).toHaveLength(ws.readKey.length - shown.length);
    // The searcher finds a leak: the message this test was written against repeated the whole key.
    expect(pieces(ws.readKey, shown).some((piece) => `uses the ${ws.readKey} scheme`.includes(piece))).toBe(true);
  });

  it("an API key sent wrongly to the API", async () => {
    await expectNoEcho(ws.readKey, displayPrefix(ws.readKey), "/api/v1/posts");
  });

  it("an API key sent wrongly to MCP", async () => {
    await expectNoEcho(ws.writeKey, displayPrefix(ws.writeKey), "/mcp");
  });

  it("an API key sent to the admin API, rightly or wrongly", async () => {
    const path = "/admin/v1/workspaces";
    await expectNoEcho(ws.writeKey, displayPrefix(ws.writeKey), path);
    const right = await send({ what: "bearer", path, headers: { authorization: `Bearer ${ws.writeKey}` } });
    expect(right.status).toBe(401);
    expect(pieces(ws.writeKey, displayPrefix(ws.writeKey)).filter((piece) => right.seen.includes(piece))).toEqual([]);
  });

  it("the admin token sent to the API and to MCP, rightly or wrongly", async () => {
    for (const path of ["/api/v1/posts", "/mcp"]) {
      await expectNoEcho(ADMIN_TOKEN, "", path);
      const right = await send({
        what: "bearer",
        path,
        method: path === "/mcp" ? "POST" : "GET",
        body: path === "/mcp" ? MCP_INITIALIZE : undefined,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      });
      expect(right.status).toBe(401);
      expect(pieces(ADMIN_TOKEN, "").filter((piece) => right.seen.includes(piece))).toEqual([]);
    }
  });

  it("the admin token sent wrongly to the admin API", async () => {
    await expectNoEcho(ADMIN_TOKEN, "", "/admin/v1/workspaces");
  });

  it("a key without its scheme is told to add Bearer, without being repeated", async () => {
    const { status, body } = await send({
      what: "no scheme",
      path: "/api/v1/posts",
      headers: { authorization: ws.readKey },
    });
    expect(status).toBe(401);
    expect(JSON.parse(body).error.message).toBe(
      "the Authorization header does not start with Bearer; send the API key as Authorization: Bearer <key>",
    );
    const spaced = await send({
      what: "spaces",
      path: "/api/v1/posts",
      headers: { authorization: `Bearer ${ws.readKey} extra` },
    });
    expect(JSON.parse(spaced.body).error.message).toBe(
      "the Authorization header has more than one word after Bearer; send the key alone, without spaces: Authorization: Bearer <key>",
    );
  });
});
