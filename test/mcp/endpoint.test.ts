import { env } from "cloudflare:workers";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workspaceDb } from "../../src/db/client";
import { mcpInstructions, SYNC_STEPS } from "../../src/mcp/instructions";
import { toolName } from "../../src/mcp/tools";
import { rematchBatch } from "../../src/monitor/rematch";
import { call, callJson, createTestWorkspace } from "../helpers/api";
import { connectClient, postMcp } from "../helpers/mcp-client";
import { type SeededWorkspace, seedWorkspace } from "../helpers/mcp-workspace";

type ToolResult = Awaited<ReturnType<Client["callTool"]>>;
type Operation = { method: string; path: string; scope: string; tool: boolean };

const textOf = (result: ToolResult) => (result.content as { type: string; text: string }[]).map((c) => c.text).join("");
const withoutRequestId = (body: any) => ({ ...body, error: { ...body.error, request_id: undefined } });

/** The /api/v1 operations as the public OpenAPI document lists them. */
async function documentedOperations(): Promise<Operation[]> {
  const { body } = await callJson("/api/v1/openapi.json");
  return Object.entries(body.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method))
      .map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        scope: op["x-threadwatch-scope"],
        tool: op["x-threadwatch-tool"] !== false,
      })),
  );
}

let ws: SeededWorkspace;
let writer: Client;
let reader: Client;

beforeAll(async () => {
  ws = await seedWorkspace();
  writer = await connectClient(ws.writeKey);
  reader = await connectClient(ws.readKey);
});
afterAll(async () => {
  await writer?.close();
  await reader?.close();
});

describe("initialize", () => {
  it("identifies the server, offers tools and explains the recommended sync order", async () => {
    expect(writer.getServerVersion()).toEqual({ name: "threadwatch", version: "1.0.0" });
    expect(writer.getServerCapabilities()?.tools).toBeDefined();
    // The instructions are generated from the caller's tools: every sync step whose tool the key has is
    // named, in the recommended order, and no step whose tool it lacks.
    for (const [client, label] of [
      [writer, "read_write"],
      [reader, "read"],
    ] as const) {
      const instructions = client.getInstructions() ?? "";
      const listed = new Set((await client.listTools()).tools.map((t) => t.name));
      const named = SYNC_STEPS.map((s) => s.tool).filter((name) => instructions.includes(name));
      expect(named, label).toEqual(SYNC_STEPS.map((s) => s.tool).filter((name) => listed.has(name)));
      const positions = named.map((name) => instructions.indexOf(name));
      expect(
        [...positions].sort((a, b) => a - b),
        label,
      ).toEqual(positions);
    }
    // Every step exists now: listing, the dry run, readiness and the one-post preflight, in that order.
    expect(writer.getInstructions()).toContain(
      "Blog sync, in the recommended order: get_blog_subreddit_syncs; post_blog_subreddit_syncs_id_run with dry_run=true; post_blog_subreddit_syncs_id_readiness; post_blog_subreddit_syncs_id_publish_preflight for one selected synced post.",
    );
    expect(reader.getInstructions()).not.toContain("post_blog_subreddit_syncs_id_run");
  });

  it("would name readiness and preflight, in order, once their tools exist", () => {
    const text = mcpInstructions(SYNC_STEPS.map((s) => ({ name: s.tool })));
    const positions = SYNC_STEPS.map((s) => text.indexOf(s.tool));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(text).toContain("post_blog_subreddit_syncs_id_publish_preflight for one selected synced post");
    expect(mcpInstructions([])).not.toContain("Blog sync");
  });
});

describe("tools/list", () => {
  it("has exactly one tool for every /api/v1 operation except approval ones, named as docs/mcp.md says", async () => {
    const operations = await documentedOperations();
    const { tools } = await writer.listTools();
    const expected = operations.filter((op) => op.tool);
    expect(tools).toHaveLength(expected.length);
    for (const op of expected) {
      const matching = tools.filter((t) => t._meta?.["threadwatch/operation"] === `${op.method} ${op.path}`);
      expect(matching, `${op.method} ${op.path}`).toHaveLength(1);
      expect(matching[0]!.name).toBe(toolName(op.method, op.path));
    }
    for (const op of operations.filter((o) => !o.tool)) {
      expect(tools.map((t) => t.name)).not.toContain(toolName(op.method, op.path));
    }
    expect(new Set(tools.map((t) => t.name)).size).toBe(tools.length);
    expect(tools.some((t) => String(t._meta?.["threadwatch/operation"]).includes("/admin"))).toBe(false);
    // Approval is for a person (docs/mcp.md): an approve route declared without `tool: false` fails here.
    expect(tools.filter((t) => /approv/i.test(t.name))).toEqual([]);
  });

  it("gives each tool the operation's summary, parameters and body as its input, and method hints", async () => {
    const { body: doc } = await callJson("/api/v1/openapi.json");
    const { tools } = await writer.listTools();
    const getPosts = tools.find((t) => t.name === "get_posts")!;
    expect(getPosts.description).toBe(doc.paths["/posts"].get.summary);
    const queryNames = doc.paths["/posts"].get.parameters.map((p: any) => p.name);
    expect(Object.keys(getPosts.inputSchema.properties!)).toEqual(queryNames);
    expect(getPosts.inputSchema.properties!.priority).toMatchObject({
      type: "string",
      enum: ["high", "medium", "low"],
    });
    expect(getPosts.inputSchema.properties!.include_archived).toMatchObject({ type: "boolean" });
    expect(getPosts.inputSchema.required).toBeUndefined();
    expect(getPosts.inputSchema.additionalProperties).toBe(false);
    expect(getPosts.annotations).toEqual({ readOnlyHint: true });

    const patchPost = tools.find((t) => t.name === "patch_posts_id")!;
    expect(Object.keys(patchPost.inputSchema.properties!).sort()).toEqual(["archived", "id", "is_answered", "skipped"]);
    expect(patchPost.inputSchema.required).toEqual(["id"]);
    expect(patchPost.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });

    const createKeyword = tools.find((t) => t.name === "post_keywords")!;
    expect(createKeyword.inputSchema.required).toEqual(["keyword"]);
    expect(createKeyword.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(tools.find((t) => t.name === "delete_keywords_id")!.annotations).toMatchObject({ destructiveHint: true });
    expect(JSON.stringify(tools)).not.toContain("$ref");
  });

  it("lists only the read tools for a read key", async () => {
    const operations = await documentedOperations();
    const { tools } = await reader.listTools();
    const reads = operations.filter((op) => op.tool && op.scope === "read").map((op) => toolName(op.method, op.path));
    expect(tools.map((t) => t.name).sort()).toEqual(reads.sort());
    expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
    expect(tools.length).toBeGreaterThan(0);
  });
});

describe("tools/call answers exactly as REST does", () => {
  const filterSets: Record<string, unknown>[] = [
    {},
    { priority: "high", include_archived: true },
    { sort_by: "score", sort_order: "asc", limit: 4, offset: 2 },
    { subreddit: "r/webdev", answered_status: "unanswered", sort_by: "urgency" },
    { has_competitors: true, sort_by: "comments" },
    { has_competitors: false, include_archived: false, limit: 3 },
    { search: "crm", sort_order: "asc" },
    { search: '"kanban tool"' },
  ];

  it.each(filterSets)("get_posts %j equals GET /api/v1/posts", async (args) => {
    const query = new URLSearchParams(Object.entries(args).map(([k, v]) => [k, String(v)]));
    const rest = await call(`/api/v1/posts?${query}`, { key: ws.readKey });
    const restText = await rest.text();
    expect(rest.status).toBe(200);
    const result = await reader.callTool({ name: "get_posts", arguments: args });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe(restText);
    expect(result.structuredContent).toEqual(JSON.parse(restText));
    expect(result._meta?.["threadwatch/status"]).toBe(200);
  });

  it("keyword_id filters like REST and a keyword filter returns posts", async () => {
    const args = { keyword_id: ws.keywordIds[0]!, include_archived: true };
    const rest = await callJson(`/api/v1/posts?keyword_id=${args.keyword_id}&include_archived=true`, {
      key: ws.readKey,
    });
    const result = await reader.callTool({ name: "get_posts", arguments: args });
    expect(result.structuredContent).toEqual(rest.body);
    expect(rest.body.count).toBeGreaterThan(0);
  });

  it("get_keywords and get_competitors equal their REST lists", async () => {
    for (const [tool, path] of [
      ["get_keywords", "/api/v1/keywords"],
      ["get_competitors", "/api/v1/competitors"],
    ] as const) {
      const rest = await callJson(path, { key: ws.readKey });
      const result = await reader.callTool({ name: tool, arguments: {} });
      expect(result.structuredContent).toEqual(rest.body);
      expect(rest.body.count).toBeGreaterThan(0);
    }
  });

  it("write tools change the workspace through the REST handlers", async () => {
    const postId = ws.postIds[1]!;
    const patched = await writer.callTool({
      name: "patch_posts_id",
      arguments: { id: postId, is_answered: true, archived: true },
    });
    expect(patched.isError).toBeFalsy();
    expect(patched.structuredContent).toMatchObject({ id: postId, is_answered: true, archived: true });
    const listed = await callJson("/api/v1/posts?include_archived=true&limit=500", { key: ws.readKey });
    expect(listed.body.data.find((p: any) => p.id === postId)).toEqual(patched.structuredContent);

    const created = await writer.callTool({
      name: "post_keywords",
      arguments: { keyword: "helpdesk", is_ambiguous: true },
    });
    expect(created._meta?.["threadwatch/status"]).toBe(201);
    const keyword = created.structuredContent as { id: number; keyword: string; is_ambiguous: boolean };
    expect(keyword).toMatchObject({ keyword: "helpdesk", is_ambiguous: true });

    const renamed = await writer.callTool({
      name: "patch_keywords_id",
      arguments: { id: keyword.id, keyword: "help desk" },
    });
    expect(renamed.structuredContent).toMatchObject({ id: keyword.id, keyword: "help desk" });

    const deleted = await writer.callTool({ name: "delete_keywords_id", arguments: { id: keyword.id } });
    expect(deleted.isError).toBeFalsy();
    expect(deleted.content).toEqual([]);
    expect(deleted._meta?.["threadwatch/status"]).toBe(204);
    const keywords = await callJson("/api/v1/keywords", { key: ws.readKey });
    expect(keywords.body.data.map((k: any) => k.id)).not.toContain(keyword.id);

    // Creating and renaming the keyword queued background re-matches of the workspace's seeded posts
    // (monitor.rematch, docs/monitoring.md), which relink and re-score them with the real matcher. Run that to
    // the end now, so a late delivery changes nothing under the later tests' reads of those posts.
    for (let after: number | null = 0; after !== null; )
      after = (await rematchBatch(workspaceDb(env, ws.id), after)).next;
  });
});

describe("blog sync tools", () => {
  it("creates a config and lists it exactly as REST does", async () => {
    const { tools } = await writer.listTools();
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining([
        "get_blog_subreddit_syncs",
        "post_blog_subreddit_syncs",
        "post_blog_subreddit_syncs_id_run",
      ]),
    );
    const created = await writer.callTool({
      name: "post_blog_subreddit_syncs",
      arguments: { blog_url: `${env.FIXTURE_ORIGIN}/mcp-blog/`, subreddit: "r/webdev", max_posts: 3 },
    });
    expect(created._meta?.["threadwatch/status"]).toBe(201);
    expect(created.structuredContent).toMatchObject({ subreddit: "webdev", max_posts: 3 });
    const id = (created.structuredContent as { id: number }).id;

    const listed = await reader.callTool({ name: "get_blog_subreddit_syncs", arguments: {} });
    const rest = await call("/api/v1/actions/blog-subreddit-syncs", { key: ws.readKey });
    expect(textOf(listed)).toBe(await rest.text());
    const one = await reader.callTool({ name: "get_blog_subreddit_syncs_id", arguments: { id } });
    expect(one.structuredContent).toEqual(created.structuredContent);

    const refused = await reader.callTool({
      name: "post_blog_subreddit_syncs_id_run",
      arguments: { id, dry_run: true },
    });
    expect((refused.structuredContent as any).error.code).toBe("forbidden");
  });
});

describe("scopes", () => {
  it("refuses a write tool to a read key with the REST forbidden error and changes nothing", async () => {
    const postId = ws.postIds[2]!;
    const before = await callJson("/api/v1/posts?include_archived=true&limit=500", { key: ws.readKey });
    const result = await reader.callTool({ name: "patch_posts_id", arguments: { id: postId, archived: true } });
    expect(result.isError).toBe(true);
    expect((result.structuredContent as any).error.code).toBe("forbidden");
    expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
    expect(result._meta?.["threadwatch/status"]).toBe(403);
    const after = await callJson("/api/v1/posts?include_archived=true&limit=500", { key: ws.readKey });
    expect(after.body).toEqual(before.body);
  });

  it("refuses a write tool to a read key with 403 whatever its arguments, as REST judges the scope first", async () => {
    // REST: a read key's write is 403 before its path id is read.
    expect((await callJson("/api/v1/keywords/abc", { method: "DELETE", key: ws.readKey })).status).toBe(403);
    for (const args of [{}, { id: "" }, { id: ".." }]) {
      const result = await reader.callTool({ name: "delete_keywords_id", arguments: args });
      expect(result.isError).toBe(true);
      expect((result.structuredContent as any).error.code, JSON.stringify(args)).toBe("forbidden");
      expect(result._meta?.["threadwatch/status"]).toBe(403);
    }
  });

  it("keeps every tool inside the caller's workspace", async () => {
    const other = await createTestWorkspace("other");
    const client = await connectClient(other.writeKey);
    try {
      const posts = await client.callTool({ name: "get_posts", arguments: { include_archived: true } });
      expect(posts.structuredContent).toEqual({ data: [], count: 0, next_offset: null, count_is_estimate: false });
      const foreign = await client.callTool({
        name: "patch_posts_id",
        arguments: { id: ws.postIds[0]!, skipped: false },
      });
      expect(foreign.isError).toBe(true);
      expect((foreign.structuredContent as any).error.code).toBe("not_found");
    } finally {
      await client.close();
    }
  });
});

describe("errors", () => {
  it("returns REST's validation error body as a tool error", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ priority: "urgent" }, "priority=urgent"],
      [{ has_competitors: "maybe" }, "has_competitors=maybe"],
      [{ colour: "red" }, "colour=red"],
      [{ limit: 0 }, "limit=0"],
      [{ search: '"unterminated' }, `search=${encodeURIComponent('"unterminated')}`],
    ];
    for (const [args, query] of cases) {
      const rest = await callJson(`/api/v1/posts?${query}`, { key: ws.readKey });
      expect(rest.status).toBe(400);
      const result = await reader.callTool({ name: "get_posts", arguments: args });
      expect(result.isError, JSON.stringify(args)).toBe(true);
      expect(withoutRequestId(result.structuredContent)).toEqual(withoutRequestId(rest.body));
      expect((result.structuredContent as any).error.request_id).toBe(result._meta?.["threadwatch/request_id"]);
    }
  });

  it("rejects unknown body arguments and wrong body types like REST", async () => {
    const unknown = await writer.callTool({
      name: "patch_posts_id",
      arguments: { id: ws.postIds[3]!, archived: true, colour: "red" },
    });
    expect(unknown.isError).toBe(true);
    expect((unknown.structuredContent as any).error).toMatchObject({
      code: "validation_failed",
      details: [{ path: "body.colour", message: "unknown field" }],
    });
    const proto = await postMcp(
      '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"post_keywords","arguments":{"keyword":"x","__proto__":{"a":1}}}}',
      ws.writeKey,
    );
    expect(((await proto.json()) as any).result.structuredContent.error.details).toEqual([
      { path: "body.__proto__", message: "unknown field" },
    ]);
    const wrongType = await writer.callTool({ name: "post_keywords", arguments: { keyword: 42 } });
    expect((wrongType.structuredContent as any).error.code).toBe("validation_failed");
    expect((wrongType.structuredContent as any).error.details[0].path).toBe("body.keyword");
    const empty = await writer.callTool({ name: "patch_posts_id", arguments: { id: ws.postIds[3]! } });
    expect((empty.structuredContent as any).error.code).toBe("validation_failed");
  });

  it("reports a missing or unusable path parameter as validation_failed, not a wrong route", async () => {
    const result = await writer.callTool({ name: "patch_posts_id", arguments: { archived: true } });
    expect(result.isError).toBe(true);
    expect((result.structuredContent as any).error).toMatchObject({
      code: "validation_failed",
      details: [{ path: "path.id", message: "required" }],
    });
    for (const id of ["..", ".", ""]) {
      const dots = await writer.callTool({ name: "get_blog_subreddit_syncs_id", arguments: { id } });
      expect((dots.structuredContent as any).error).toMatchObject({
        code: "validation_failed",
        details: [{ path: "path.id" }],
      });
    }
    const unpaired = await writer.callTool({ name: "get_blog_subreddit_syncs_id", arguments: { id: "\ud800" } });
    expect((unpaired.structuredContent as any).error).toMatchObject({
      code: "validation_failed",
      details: [{ path: "path.id" }],
    });
    // A slash stays inside its segment, so REST sees one bad id rather than another route.
    const slashed = await writer.callTool({
      name: "patch_posts_id",
      arguments: { id: "../keywords/1", archived: true },
    });
    expect((slashed.structuredContent as any).error).toMatchObject({
      code: "validation_failed",
      details: [{ path: "path.id" }],
    });
  });

  it("answers not_found for an unknown id and an unknown tool", async () => {
    const missing = await writer.callTool({ name: "patch_posts_id", arguments: { id: 987654, archived: true } });
    expect((missing.structuredContent as any).error.code).toBe("not_found");
    expect(missing._meta?.["threadwatch/status"]).toBe(404);
    const unknown = await writer.callTool({ name: "drop_all_posts", arguments: {} });
    expect(unknown.isError).toBe(true);
    expect((unknown.structuredContent as any).error).toMatchObject({
      code: "not_found",
      message: "unknown tool drop_all_posts",
    });
  });

  it("answers 401 with the error body before any protocol work", async () => {
    for (const key of [null, `tw_live_${"x".repeat(40)}`, "not-a-key"]) {
      const res = await postMcp("this is not JSON-RPC", key);
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe("Bearer");
      const body = (await res.json()) as any;
      expect(body.error.code).toBe("unauthorized");
      expect(body.error.request_id).toBe(res.headers.get("x-request-id"));
    }
    expect((await call("/mcp", { method: "GET" })).status).toBe(401);
    await expect(connectClient(null)).rejects.toThrow(/401|unauthorized/i);
  });

  it("survives malformed JSON-RPC and answers it with protocol errors", async () => {
    const parse = await postMcp("{not json", ws.writeKey);
    expect(parse.status).toBe(400);
    expect(((await parse.json()) as any).error.code).toBe(-32700);

    const badArgs = await postMcp(
      JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "get_posts", arguments: "oops" } }),
      ws.writeKey,
    );
    const badArgsBody = (await badArgs.json()) as any;
    expect(badArgsBody).toMatchObject({ jsonrpc: "2.0", id: 7, error: { code: -32602 } });

    const unknownMethod = await postMcp(
      JSON.stringify({ jsonrpc: "2.0", id: 8, method: "tools/destroy" }),
      ws.writeKey,
    );
    expect(((await unknownMethod.json()) as any).error.code).toBe(-32601);

    const noName = await postMcp(
      JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", params: {} }),
      ws.writeKey,
    );
    expect(((await noName.json()) as any).error.code).toBe(-32602);

    // The endpoint still works afterwards.
    const ok = await postMcp(
      JSON.stringify({ jsonrpc: "2.0", id: 10, method: "tools/call", params: { name: "get_keywords", arguments: {} } }),
      ws.writeKey,
    );
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as any).result.structuredContent.count).toBe(2);
  });

  it("answers GET and DELETE with 405 (stateless: no event stream, no session)", async () => {
    for (const method of ["GET", "DELETE"]) {
      const res = await call("/mcp", { method, key: ws.readKey, headers: { accept: "text/event-stream" } });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
      expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    }
  });

  it("answers the protocol's own 400/405/406/415 with JSON-RPC error bodies, as docs/mcp.md says", async () => {
    const list = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    const cases = [
      [400, await postMcp("{not json", ws.readKey)],
      [405, await call("/mcp", { method: "GET", key: ws.readKey })],
      [406, await postMcp(list, ws.readKey, { accept: "text/html" })],
      [415, await postMcp(list, ws.readKey, { "content-type": "text/plain" })],
    ] as const;
    for (const [status, res] of cases) {
      expect(res.status).toBe(status);
      const body = (await res.json()) as any;
      expect(body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: expect.any(Number) } });
      expect(typeof body.error.message).toBe("string");
      expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    }
  });
});
