// The OpenAPI 3.0.3 document (docs/api.md): public, generated from the route schemas, with
// security and the shared error responses on every operation.
import { describe, expect, it } from "vitest";
import { createApiRouter, openApiDocument } from "../../src/routes/api";
import { callJson } from "../helpers/api";

type Schema = Record<string, any>;
let served: Schema;

const fetchDoc = async () => {
  const res = await callJson("/api/v1/openapi.json");
  expect(res.status).toBe(200);
  expect(res.res.headers.get("content-type")).toMatch(/^application\/json/);
  return res.body as Schema;
};

const operations = (doc: Schema) =>
  Object.entries(doc.paths as Record<string, Record<string, Schema>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ label: `${method.toUpperCase()} ${path}`, method, path, op })),
  );

const resolve = (doc: Schema, schema: Schema): Schema =>
  schema.$ref ? resolve(doc, doc.components.schemas[schema.$ref.replace("#/components/schemas/", "")]) : schema;

describe("GET /api/v1/openapi.json", () => {
  it("is served without a key, as OpenAPI 3.0.3 version 1.0.0, generated from the API router", async () => {
    served = await fetchDoc();
    expect(served.openapi).toBe("3.0.3");
    expect(served.info.version).toBe("1.0.0");
    expect(served).toEqual(JSON.parse(JSON.stringify(openApiDocument(createApiRouter()))));
    expect(await fetchDoc()).toEqual(served);
  });

  it("refuses unknown query parameters like every other route", async () => {
    const res = await callJson("/api/v1/openapi.json?format=yaml");
    expect([res.status, res.body.error?.code, res.body.error?.details]).toEqual([
      400,
      "validation_failed",
      [{ path: "query.format", message: "unknown field" }],
    ]);
  });

  it("declares the bearer scheme and requires it globally", () => {
    expect(served.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(served.security).toEqual([{ bearerAuth: [] }]);
  });

  it("every operation declares security, a summary, its scope and the shared error responses", () => {
    for (const { label, method, op } of operations(served)) {
      expect(op.security, label).toEqual([{ bearerAuth: [] }]);
      expect(typeof op.summary, label).toBe("string");
      expect(["read", "read_write"], label).toContain(op["x-threadwatch-scope"]);
      const statuses = Object.keys(op.responses);
      const needed = ["400", "401", "404", "429", "500", ...(method === "get" ? [] : ["403", "413"])];
      for (const status of needed) {
        expect(statuses, `${label} documents ${status}`).toContain(status);
        expect(op.responses[status].content["application/json"].schema, `${label} ${status}`).toEqual({
          $ref: "#/components/schemas/Error",
        });
      }
      expect(
        statuses.some((s) => s.startsWith("2")),
        label,
      ).toBe(true);
    }
  });

  it("documents the error body of docs/api.md with the closed set of codes", () => {
    const error = resolve(served, served.components.schemas.Error);
    expect(error.required).toEqual(["error"]);
    const inner = resolve(served, error.properties.error);
    expect(inner.required.sort()).toEqual(["code", "message", "request_id"]);
    expect(inner.properties.code.enum.sort()).toEqual(
      [
        "browser_busy",
        "browser_unavailable",
        "forbidden",
        "forum_unreachable",
        "internal_error",
        "invalid_json",
        "invalid_state",
        "not_found",
        "payload_too_large",
        "persona_not_ready",
        "rate_limited",
        "run_in_progress",
        "unauthorized",
        "validation_failed",
      ].sort(),
    );
    expect(resolve(served, inner.properties.details.items).required.sort()).toEqual(["message", "path"]);
  });

  it("documents every /posts parameter of docs/api.md with its type and enum", () => {
    const op = served.paths["/posts"].get;
    const params = Object.fromEntries(op.parameters.map((p: Schema) => [p.name, p]));
    expect(Object.keys(params).sort()).toEqual(
      [
        "answered_status",
        "has_competitors",
        "include_archived",
        "keyword_id",
        "limit",
        "offset",
        "priority",
        "search",
        "sort_by",
        "sort_order",
        "subreddit",
      ].sort(),
    );
    for (const p of Object.values(params) as Schema[]) {
      expect(p.in).toBe("query");
      expect(p.required ?? false).toBe(false);
    }
    expect(params.priority.schema.enum).toEqual(["high", "medium", "low"]);
    expect(params.answered_status.schema.enum).toEqual(["answered", "unanswered"]);
    expect(params.sort_by.schema.enum).toEqual(["priority", "urgency", "date", "score", "comments"]);
    expect(params.sort_order.schema.enum).toEqual(["asc", "desc"]);
    expect(params.has_competitors.schema.type).toBe("boolean");
    expect(params.include_archived.schema.type).toBe("boolean");
    expect(params.keyword_id.schema.type).toBe("integer");
    expect(params.limit.schema).toMatchObject({ type: "integer", minimum: 1, maximum: 500 });
    expect(params.offset.schema).toMatchObject({ type: "integer", minimum: 0 });
    expect(params.subreddit.schema.type).toBe("string");
    expect(params.search.schema.type).toBe("string");
  });

  it("every path parameter is a documented, required integer id", () => {
    for (const { label, path, op } of operations(served)) {
      const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const declared = (op.parameters ?? []).filter((p: Schema) => p.in === "path");
      expect(declared.map((p: Schema) => p.name).sort(), label).toEqual(names.sort());
      for (const p of declared) expect(p.required, label).toBe(true);
    }
  });

  it("describes Post, Keyword and Competitor with the fields and types of docs/api.md", () => {
    const typeOf = (schema: Schema) =>
      `${schema.type}${schema.nullable ? "?" : ""}${schema.type === "array" ? `<${schema.items.type}>` : ""}`;
    const shape = (name: string) =>
      Object.fromEntries(
        Object.entries(resolve(served, served.components.schemas[name]).properties as Record<string, Schema>).map(
          ([k, v]) => [k, typeOf(v)],
        ),
      );
    expect(shape("Post")).toEqual({
      id: "integer",
      forum_id: "string",
      subreddit: "string",
      title: "string",
      selftext: "string",
      author: "string",
      url: "string",
      score: "integer",
      num_comments: "integer",
      created_utc: "string",
      permalink: "string",
      matched_keywords: "array<string>",
      mentioned_competitors: "array<string>",
      is_answered: "boolean",
      archived: "boolean",
      skipped: "boolean",
      priority: "string?",
      urgency: "string?",
      score_reasons: "array<string>",
    });
    const post = resolve(served, served.components.schemas.Post).properties;
    expect(post.priority.enum).toEqual(["high", "medium", "low", null]);
    expect(post.urgency.enum).toEqual(["urgent", "not_urgent", null]);
    expect(shape("Keyword")).toEqual({
      id: "integer",
      keyword: "string",
      active: "boolean",
      is_ambiguous: "boolean",
      search_volume: "integer?",
      cpc: "string?",
      serp_forum_position: "integer?",
      serp_forum_url: "string?",
      serp_checked_at: "string?",
      created_at: "string",
    });
    expect(shape("Competitor")).toEqual({
      id: "integer",
      name: "string",
      website_url: "string?",
      keywords: "array<string>",
      active: "boolean",
      is_ambiguous: "boolean",
      created_at: "string",
    });
    const list = (path: string) =>
      resolve(served, served.paths[path].get.responses["200"].content["application/json"].schema);
    for (const path of ["/posts", "/keywords", "/competitors"]) {
      expect(list(path).required, path).toEqual(expect.arrayContaining(["data", "count"]));
      expect(list(path).properties.count.type).toBe("integer");
    }
  });

  it("is valid OpenAPI 3.0: no 3.1-only constructs, every $ref resolves", () => {
    const refs: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (Array.isArray(node)) {
        node.forEach((n, i) => {
          walk(n, `${at}[${i}]`);
        });
        return;
      }
      if (!node || typeof node !== "object") return;
      const obj = node as Schema;
      // `properties` maps field names to schemas: a field named `type` (a delivery's) is not a schema keyword.
      const isSchema = !at.endsWith(".properties");
      if (isSchema && "type" in obj && typeof obj.type !== "string" && at.includes("schema"))
        throw new Error(`${at}: type must be a string in 3.0`);
      if (isSchema && obj.type === "null") throw new Error(`${at}: type null is 3.1 only`);
      for (const key of ["const", "examples", "prefixItems", "$defs"]) expect(Object.keys(obj), at).not.toContain(key);
      if (typeof obj.$ref === "string") refs.push(obj.$ref);
      for (const [k, v] of Object.entries(obj)) walk(v, `${at}.${k}`);
    };
    walk(served, "$");
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      expect(ref).toMatch(/^#\/components\/schemas\//);
      expect(served.components.schemas[ref.replace("#/components/schemas/", "")], ref).toBeDefined();
    }
  });
});
