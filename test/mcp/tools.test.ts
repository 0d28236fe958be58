import { z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { idParam, queryBoolean } from "../../src/contracts/params";
import { ApiError } from "../../src/errors";
import { apiRoute, createRouter, jsonBody, jsonResponse } from "../../src/http/openapi";
import type { Role } from "../../src/lib/role";
import { toolRequest } from "../../src/mcp/call";
import { toJsonSchema } from "../../src/mcp/json-schema";
import { type OpenApiDocumentLike, toolName, toolsFor, toolsFromOpenApi } from "../../src/mcp/tools";

const documentOf = (router: ReturnType<typeof createRouter>) =>
  router.getOpenAPIDocument({ openapi: "3.0.3", info: { title: "t", version: "1" } }) as unknown as OpenApiDocumentLike;

describe("tool names (docs/mcp.md), readiness and preflight included", () => {
  it.each([
    ["GET", "/posts", "get_posts"],
    ["PATCH", "/posts/{id}", "patch_posts_id"],
    ["GET", "/actions/blog-subreddit-syncs", "get_blog_subreddit_syncs"],
    ["POST", "/actions/blog-subreddit-syncs/{id}/run", "post_blog_subreddit_syncs_id_run"],
    ["POST", "/actions/blog-subreddit-syncs/{id}/readiness", "post_blog_subreddit_syncs_id_readiness"],
    ["POST", "/actions/blog-subreddit-syncs/{id}/publish-preflight", "post_blog_subreddit_syncs_id_publish_preflight"],
    ["GET", "/actions/blog-subreddit-syncs/{id}/items", "get_blog_subreddit_syncs_id_items"],
    ["POST", "/actions/personas/connect", "post_personas_connect"],
    ["DELETE", "/actions/personas/{id}", "delete_personas_id"],
  ])("%s %s → %s", (method, path, name) => {
    expect(toolName(method, path)).toBe(name);
  });
});

describe("OpenAPI 3.0 → JSON Schema", () => {
  it("resolves references, turns nullable into a null type and converts 3.0-only keywords", () => {
    const components = {
      Inner: {
        type: "object",
        properties: { when: { type: "string", nullable: true, example: "2026-01-01" } },
        required: ["when"],
      },
      Loop: { type: "object", properties: { next: { $ref: "#/components/schemas/Loop" } } },
    };
    const out = toJsonSchema(
      {
        type: "object",
        properties: {
          inner: { $ref: "#/components/schemas/Inner" },
          level: { type: "string", enum: ["a", "b"], nullable: true },
          ratio: { type: "number", minimum: 0, exclusiveMinimum: true, maximum: 1, exclusiveMaximum: false },
          loop: { $ref: "#/components/schemas/Loop" },
          list: { type: "array", items: { $ref: "#/components/schemas/Inner" } },
        },
        "x-internal": true,
      },
      components,
    );
    expect(out).toEqual({
      type: "object",
      properties: {
        inner: {
          type: "object",
          properties: { when: { type: ["string", "null"], examples: ["2026-01-01"] } },
          required: ["when"],
        },
        level: { type: ["string", "null"], enum: ["a", "b", null] },
        ratio: { type: "number", exclusiveMinimum: 0, maximum: 1 },
        loop: { type: "object", properties: { next: {} } },
        list: {
          type: "array",
          items: {
            type: "object",
            properties: { when: { type: ["string", "null"], examples: ["2026-01-01"] } },
            required: ["when"],
          },
        },
      },
    });
  });
});

describe("tool generation from a route table", () => {
  const Thing = z.object({ id: z.number().int(), label: z.string().nullable() }).openapi("Thing");
  const ThingInput = z
    .strictObject({ label: z.string().min(1), colour: z.enum(["red", "blue"]).nullable().optional() })
    .openapi("ThingInput");
  const groupParam = z.object({
    id: z.coerce
      .number()
      .int()
      .min(1)
      .openapi({ param: { name: "id", in: "path" }, type: "integer", minimum: 1, example: 7 }),
  });
  const router = createRouter()
    .openapi(
      apiRoute({
        method: "get",
        path: "/things",
        summary: "List things",
        scope: "read",
        request: {
          query: z.strictObject({
            archived: queryBoolean.optional(),
            limit: z.coerce.number().int().optional().openapi({ type: "integer" }),
          }),
        },
        responses: { 200: jsonResponse(z.object({ data: z.array(Thing) }), "Things") },
      }),
      (c) => c.json({ data: [] }, 200),
    )
    .openapi(
      apiRoute({
        method: "post",
        path: "/actions/thing-groups/{id}/things",
        summary: "Add a thing to a group",
        description: "The group must exist.",
        scope: "read_write",
        request: { params: groupParam, body: jsonBody(ThingInput) },
        responses: { 201: jsonResponse(Thing, "Created") },
      }),
      (c) => c.json({ id: 1, label: "x" }, 201),
    )
    .openapi(
      apiRoute({
        method: "post",
        path: "/actions/thing-groups/{id}/things/{thing_id}/approve",
        summary: "Approve a thing (a person does this)",
        scope: "read_write",
        tool: false,
        request: { params: z.object({ id: z.string(), thing_id: z.string() }) },
        responses: { 200: jsonResponse(Thing, "Approved") },
      }),
      (c) => c.json({ id: 1, label: "x" }, 200),
    )
    .openapi(
      apiRoute({
        method: "delete",
        path: "/things/{id}",
        summary: "Delete a thing",
        scope: "read_write",
        request: { params: idParam() },
        responses: { 204: { description: "Deleted" } },
      }),
      (c) => c.body(null, 204),
    );
  const tools = toolsFromOpenApi(documentOf(router));
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));

  it("makes one tool per operation and none for operations marked tool: false", () => {
    expect(tools.map((t) => t.name).sort()).toEqual(["delete_things_id", "get_things", "post_thing_groups_id_things"]);
  });

  it("merges path parameters, query parameters and body fields into one input schema", () => {
    const add = byName.post_thing_groups_id_things!;
    expect(add.description).toBe("Add a thing to a group\n\nThe group must exist.");
    expect(add.inputSchema).toEqual({
      type: "object",
      properties: {
        id: { type: "integer", minimum: 1, examples: [7] },
        label: { type: "string", minLength: 1 },
        colour: { type: ["string", "null"], enum: ["red", "blue", null] },
      },
      required: ["id", "label"],
      additionalProperties: false,
    });
    expect(add).toMatchObject({ access: { scope: "read_write", role: "owner" }, body: "fields", pathParams: ["id"] });
    expect(byName.get_things!.inputSchema.properties).toEqual({
      archived: { type: "boolean" },
      limit: { type: "integer" },
    });
    expect([...byName.get_things!.queryParams]).toEqual(["archived", "limit"]);
    expect(JSON.stringify(tools)).not.toContain("$ref");
  });

  it("derives hints from the method and hides write tools from read keys", () => {
    expect(byName.get_things!.annotations).toEqual({ readOnlyHint: true });
    expect(byName.post_thing_groups_id_things!.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
    });
    expect(byName.delete_things_id!.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
    });
    const grant = (scope: "read" | "read_write", role: Role) => ({ scope, role, person: false });
    expect(toolsFor(tools, grant("read", "owner")).map((t) => t.name)).toEqual(["get_things"]);
    expect(toolsFor(tools, grant("read_write", "owner"))).toHaveLength(3);
    // These writes have no entry in the roles table: for owners only, so a lower ceiling hides them too.
    for (const role of ["viewer", "member", "admin"] as const)
      expect(toolsFor(tools, grant("read_write", role)).map((t) => t.name)).toEqual(["get_things"]);
  });

  it("refuses a route table whose names or arguments would collide", () => {
    const clashingNames: OpenApiDocumentLike = {
      paths: { "/a-b": { get: { summary: "x" } }, "/a_b": { get: { summary: "y" } } },
    };
    expect(() => toolsFromOpenApi(clashingNames)).toThrow(/get_a_b/);
    const clashingArgs = createRouter().openapi(
      apiRoute({
        method: "patch",
        path: "/things/{id}",
        summary: "Clash",
        scope: "read_write",
        request: { params: idParam(), body: jsonBody(z.object({ id: z.number() })) },
        responses: { 200: jsonResponse(Thing, "ok") },
      }),
      (c) => c.json({ id: 1, label: null }, 200),
    );
    expect(() => toolsFromOpenApi(documentOf(clashingArgs))).toThrow(/argument "id"/);
  });
});

describe("tool arguments → REST request", () => {
  const Choice = z
    .union([z.object({ kind: z.literal("a"), n: z.number() }), z.object({ kind: z.literal("b") })])
    .openapi("Choice");
  const router = createRouter()
    .openapi(
      apiRoute({
        method: "get",
        path: "/things",
        summary: "List things",
        scope: "read",
        request: {
          query: z.strictObject({
            archived: queryBoolean.optional(),
            tag: z.array(z.string()).optional(),
            limit: z.coerce.number().optional(),
          }),
        },
        responses: { 200: jsonResponse(z.object({}), "ok") },
      }),
      (c) => c.json({}, 200),
    )
    .openapi(
      apiRoute({
        method: "patch",
        path: "/things/{id}",
        summary: "Change a thing",
        scope: "read_write",
        request: {
          params: idParam(),
          query: z.strictObject({ dry: queryBoolean.optional() }),
          body: jsonBody(z.strictObject({ label: z.string(), archived: z.boolean() })),
        },
        responses: { 200: jsonResponse(z.object({}), "ok") },
      }),
      (c) => c.json({}, 200),
    )
    .openapi(
      apiRoute({
        method: "post",
        path: "/choices",
        summary: "Make a choice",
        scope: "read_write",
        request: { body: jsonBody(Choice) },
        responses: { 200: jsonResponse(z.object({}), "ok") },
      }),
      (c) => c.json({}, 200),
    );
  const tools = Object.fromEntries(toolsFromOpenApi(documentOf(router)).map((t) => [t.name, t]));
  const base = { origin: "http://threadwatch.test", authorization: "Bearer tw_live_example" };
  const build = (name: string, args: Record<string, unknown>) => {
    const built = toolRequest(tools[name]!, args, base);
    if (built instanceof ApiError) throw built;
    return built;
  };

  it("puts query arguments in the query string: booleans and numbers as text, arrays repeated, null left out", async () => {
    const req = build("get_things", { archived: false, tag: ["x", "y z"], limit: 5, colour: null });
    expect(req.method).toBe("GET");
    expect(req.url).toBe("http://threadwatch.test/api/v1/things?archived=false&tag=x&tag=y+z&limit=5");
    expect(req.headers.get("authorization")).toBe(base.authorization);
    expect(req.body).toBeNull();
  });

  it("substitutes path parameters, keeps declared query parameters in the query and the rest in the JSON body", async () => {
    const req = build("patch_things_id", { id: 12, dry: true, label: "new", archived: false, surprise: 1 });
    expect(req.url).toBe("http://threadwatch.test/api/v1/things/12?dry=true");
    expect(req.headers.get("content-type")).toBe("application/json");
    expect(await req.json()).toEqual({ label: "new", archived: false, surprise: 1 });
  });

  it("sends an empty object when a body operation gets no body arguments, so REST validates it", async () => {
    expect(await build("patch_things_id", { id: 1 }).json()).toEqual({});
  });

  it("takes a body that is not a plain object schema as one `body` argument", async () => {
    const tool = tools.post_choices!;
    expect(tool.body).toBe("whole");
    expect(Object.keys(tool.inputSchema.properties)).toEqual(["body"]);
    expect(tool.inputSchema.required).toEqual(["body"]);
    expect(JSON.stringify(tool.inputSchema)).not.toContain("$ref");
    expect(await build("post_choices", { body: { kind: "a", n: 2 } }).json()).toEqual({ kind: "a", n: 2 });
  });
});
