// Bad text (docs/security.md, "Bad text"): a body that is not UTF-8 is 400 invalid_json on every JSON route, and
// control, line-break and bidi-override characters are refused in keyword and competitor names and terms,
// with a message naming the character and where it is. Nothing is stored in either case.
import { describe, expect, it } from "vitest";
import { ADMIN_TOKEN, call, callJson, createTestWorkspace } from "../helpers/api";

// `ff fe c3 28`: the bytes (not UTF-8), and a JSON document whose string holds one stray byte.
const NOT_UTF8 = new Uint8Array([0xff, 0xfe, 0xc3, 0x28]);
const jsonWithByte = (prefix: string, suffix: string) =>
  new Uint8Array([...new TextEncoder().encode(prefix), 0xff, ...new TextEncoder().encode(suffix)]);
const json = { "content-type": "application/json" };

describe("a body that is not valid UTF-8", () => {
  it("is 400 invalid_json on POST /keywords, and nothing is stored", async () => {
    const ws = await createTestWorkspace("utf8 keywords");
    for (const rawBody of [NOT_UTF8, jsonWithByte('{"keyword": "caf', '"}')]) {
      const res = await callJson("/api/v1/keywords", { key: ws.writeKey, method: "POST", rawBody, headers: json });
      expect([res.status, res.body.error.code]).toEqual([400, "invalid_json"]);
      expect(res.body.error.message).toContain("UTF-8");
      expect(res.body.error.request_id).toBe(res.res.headers.get("x-request-id"));
    }
    expect((await callJson("/api/v1/keywords", { key: ws.readKey })).body.count).toBe(0);
  });

  it("is 400 invalid_json on the other JSON routes: competitors, sync configs, admin, MCP", async () => {
    const ws = await createTestWorkspace("utf8 others");
    const created = await callJson("/api/v1/competitors", {
      key: ws.writeKey,
      method: "POST",
      body: { name: "Acme" },
    });
    expect(created.status).toBe(201);
    const calls = [
      callJson(`/api/v1/competitors/${created.body.id}`, {
        key: ws.writeKey,
        method: "PATCH",
        rawBody: jsonWithByte('{"name": "Acm', '"}'),
        headers: json,
      }),
      callJson("/api/v1/actions/blog-subreddit-syncs", {
        key: ws.writeKey,
        method: "POST",
        rawBody: jsonWithByte('{"blog_url": "https://blog.example.com/', '", "subreddit": "test"}'),
        headers: json,
      }),
      callJson("/admin/v1/workspaces", {
        key: ADMIN_TOKEN,
        method: "POST",
        rawBody: jsonWithByte('{"name": "w', '"}'),
        headers: json,
      }),
    ];
    for (const res of await Promise.all(calls))
      expect([res.status, res.body.error.code]).toEqual([400, "invalid_json"]);
    const mcp = await call("/mcp", {
      key: ws.readKey,
      method: "POST",
      rawBody: jsonWithByte('{"jsonrpc": "2.0", "id": 1, "method": "tools/lis', '"}'),
      headers: { ...json, accept: "application/json, text/event-stream" },
    });
    expect(mcp.status).toBe(400);
    expect(((await mcp.json()) as any).error.code).toBe("invalid_json");
    expect((await callJson(`/api/v1/competitors`, { key: ws.readKey })).body.data[0].name).toBe("Acme");
    expect((await callJson("/api/v1/actions/blog-subreddit-syncs", { key: ws.readKey })).body.count).toBe(0);
  });

  it("still accepts UTF-8 text in any script", async () => {
    const ws = await createTestWorkspace("utf8 ok");
    for (const keyword of ["Überweisung", "日本語の検索", "naïve café 🚀"]) {
      const res = await callJson("/api/v1/keywords", { key: ws.writeKey, method: "POST", body: { keyword } });
      expect([res.status, res.body.keyword]).toEqual([201, keyword]);
    }
  });
});

describe("control and bidi characters in names and terms", () => {
  it("refuses U+202E in a keyword, naming the character and its position", async () => {
    const ws = await createTestWorkspace("bidi keyword");
    const res = await callJson("/api/v1/keywords", {
      key: ws.writeKey,
      method: "POST",
      body: { keyword: "abc\u202Eexe.pdf" },
    });
    expect([res.status, res.body.error.code]).toEqual([400, "validation_failed"]);
    expect(res.body.error.message).toBe("body.keyword: contains U+202E RIGHT-TO-LEFT OVERRIDE at position 4");
    expect(res.body.error.details).toEqual([
      { path: "body.keyword", message: "contains U+202E RIGHT-TO-LEFT OVERRIDE at position 4" },
    ]);
    expect((await callJson("/api/v1/keywords", { key: ws.readKey })).body.count).toBe(0);
  });

  it.each([
    ["NUL", "a\u0000b", "U+0000 NULL at position 2"],
    ["a line feed", "two\nlines", "U+000A LINE FEED at position 4"],
    ["a carriage return", "x\r", "U+000D CARRIAGE RETURN at position 2"],
    ["a tab", "\tx", "U+0009 CHARACTER TABULATION at position 1"],
    ["an escape", "x\u001b[31m", "U+001B ESCAPE at position 2"],
    ["a C1 control", "x\u0085y", "U+0085 NEXT LINE at position 2"],
    ["a line separator", "a\u2028b", "U+2028 LINE SEPARATOR at position 2"],
    ["an embedding", "\u202Ax", "U+202A LEFT-TO-RIGHT EMBEDDING at position 1"],
    ["a pop", "x\u202C", "U+202C POP DIRECTIONAL FORMATTING at position 2"],
    ["an isolate", "🚀\u2066x", "U+2066 LEFT-TO-RIGHT ISOLATE at position 2"],
    ["the last isolate", "x\u2069", "U+2069 POP DIRECTIONAL ISOLATE at position 2"],
    ["an unpaired surrogate", "x\ud800", "U+D800 UNPAIRED SURROGATE at position 2"],
  ])("refuses %s in a keyword", async (_, keyword, problem) => {
    const ws = await createTestWorkspace("control keyword");
    const res = await callJson("/api/v1/keywords", { key: ws.writeKey, method: "POST", body: { keyword } });
    expect([res.status, res.body.error.code]).toEqual([400, "validation_failed"]);
    expect(res.body.error.details).toContainEqual({ path: "body.keyword", message: `contains ${problem}` });
  });

  it("refuses them in a keyword change, a competitor name and a competitor's alias", async () => {
    const ws = await createTestWorkspace("control competitor");
    const keyword = await callJson("/api/v1/keywords", { key: ws.writeKey, method: "POST", body: { keyword: "ok" } });
    const patched = await callJson(`/api/v1/keywords/${keyword.body.id}`, {
      key: ws.writeKey,
      method: "PATCH",
      body: { keyword: "o\u202Dk" },
    });
    expect(patched.body.error.message).toBe("body.keyword: contains U+202D LEFT-TO-RIGHT OVERRIDE at position 2");

    const name = await callJson("/api/v1/competitors", {
      key: ws.writeKey,
      method: "POST",
      body: { name: "Acme\nInc" },
    });
    expect(name.body.error.message).toBe("body.name: contains U+000A LINE FEED at position 5");
    const alias = await callJson("/api/v1/competitors", {
      key: ws.writeKey,
      method: "POST",
      body: { name: "Acme", keywords: ["acme", "ac\u2067me"] },
    });
    expect(alias.body.error.message).toBe("body.keywords.1: contains U+2067 RIGHT-TO-LEFT ISOLATE at position 3");
    const competitor = await callJson("/api/v1/competitors", {
      key: ws.writeKey,
      method: "POST",
      body: { name: "Acme", keywords: ["acme"] },
    });
    expect(competitor.status).toBe(201);
    const renamed = await callJson(`/api/v1/competitors/${competitor.body.id}`, {
      key: ws.writeKey,
      method: "PATCH",
      body: { keywords: ["acme\u0000"] },
    });
    expect(renamed.body.error.message).toBe("body.keywords.0: contains U+0000 NULL at position 5");

    expect((await callJson("/api/v1/keywords", { key: ws.readKey })).body.data.map((k: any) => k.keyword)).toEqual([
      "ok",
    ]);
    const competitors = (await callJson("/api/v1/competitors", { key: ws.readKey })).body.data;
    expect(competitors.map((c: any) => [c.name, c.keywords])).toEqual([["Acme", ["acme"]]]);
  });
});
