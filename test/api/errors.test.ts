// The one error model (docs/api.md, "Errors"): every failure of every route answers in the documented shape.
import { beforeAll, describe, expect, it } from "vitest";
import { createApiRouter, openApiDocument } from "../../src/routes/api";
import { call, callJson, createTestWorkspace, type TestWorkspace } from "../helpers/api";

type Schema = Record<string, any>;
const doc = openApiDocument(createApiRouter()) as { paths: Record<string, Record<string, Schema>> };
const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, op]) => ({
    method: method.toUpperCase(),
    // Path parameters get an id that exists nowhere: validation must answer before any lookup.
    url: `/api/v1${path.replace(/\{[^}]+\}/g, "424242")}`,
    label: `${method.toUpperCase()} ${path}`,
    hasBody: Boolean(op.requestBody),
  })),
);
const withBody = operations.filter((op) => op.hasBody);
/** Each operation once per path parameter, that parameter spelled in a way `Number()` reads but an integer is not written. */
const pathParams = Object.entries(doc.paths).flatMap(([path, item]) =>
  [...path.matchAll(/\{([^}]+)\}/g)].flatMap(([, name]) =>
    Object.entries(item).map(([method, op]) => ({
      method: method.toUpperCase(),
      label: `${method.toUpperCase()} ${path} {${name}}`,
      name: name!,
      url: (spelled: string) => `/api/v1${path.replace(`{${name}}`, spelled).replace(/\{[^}]+\}/g, "424242")}`,
      hasBody: Boolean(op.requestBody),
    })),
  ),
);

let ws: TestWorkspace;
beforeAll(async () => {
  ws = await createTestWorkspace("errors");
});

/** Checks the documented error body and the request id pairing, and returns the error. */
function expectErrorShape(res: { status: number; body: any; res: Response }, status: number, code: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.res.headers.get("content-type")).toMatch(/^application\/json/);
  expect(Object.keys(res.body)).toEqual(["error"]);
  const { error } = res.body;
  expect(error.code).toBe(code);
  expect(typeof error.message).toBe("string");
  expect(error.message.length).toBeGreaterThan(0);
  expect(error.request_id).toMatch(/^req_[0-9a-f]{24}$/);
  expect(res.res.headers.get("x-request-id")).toBe(error.request_id);
  for (const key of Object.keys(error)) expect(["code", "message", "request_id", "details"]).toContain(key);
  return error as { code: string; message: string; request_id: string; details?: { path: string; message: string }[] };
}

describe("validation failures, on every route (one validation hook)", () => {
  it.each(operations.map((op) => [op.label, op] as const))("%s rejects an unknown query parameter", async (_, op) => {
    const res = await callJson(`${op.url}?not_a_param=1`, {
      key: ws.writeKey,
      method: op.method,
      body: op.hasBody ? {} : undefined,
    });
    const error = expectErrorShape(res, 400, "validation_failed");
    expect(error.details).toContainEqual({ path: "query.not_a_param", message: "unknown field" });
    for (const detail of error.details!) expect(Object.keys(detail).sort()).toEqual(["message", "path"]);
  });

  it.each(pathParams.map((op) => [op.label, op] as const))(
    "%s refuses an id not in plain decimal digits",
    async (_, op) => {
      for (const spelled of ["1e1", "0x1a", "026", "26.0", "%2026", "-1"]) {
        const res = await callJson(op.url(spelled), {
          key: ws.writeKey,
          method: op.method,
          body: op.hasBody ? {} : undefined,
        });
        const error = expectErrorShape(res, 400, "validation_failed");
        expect(
          error.details!.map((d) => d.path),
          spelled,
        ).toContain(`path.${op.name}`);
      }
    },
  );

  it.each(withBody.map((op) => [op.label, op] as const))("%s rejects an unknown body field", async (_, op) => {
    const res = await callJson(op.url, { key: ws.writeKey, method: op.method, body: { not_a_field: true } });
    const error = expectErrorShape(res, 400, "validation_failed");
    expect(error.details).toContainEqual({ path: "body.not_a_field", message: "unknown field" });
  });

  it.each(withBody.map((op) => [op.label, op] as const))(
    "%s answers invalid_json for a body that is not JSON or not sent as JSON",
    async (_, op) => {
      const cases: [string, BodyInit | undefined, Record<string, string>][] = [
        ["broken JSON", '{"a":', { "content-type": "application/json" }],
        ["an empty JSON body", "", { "content-type": "application/json" }],
        ["text/plain", "{}", { "content-type": "text/plain" }],
        ["a form", "a=1", { "content-type": "application/x-www-form-urlencoded" }],
        ["no content type", "{}", {}],
      ];
      for (const [what, rawBody, headers] of cases) {
        const res = await callJson(op.url, { key: ws.writeKey, method: op.method, rawBody, headers });
        expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(400);
        expectErrorShape(res, 400, "invalid_json");
      }
    },
  );

  it("accepts JSON sent with a charset parameter", async () => {
    const res = await callJson("/api/v1/keywords", {
      key: ws.writeKey,
      method: "POST",
      rawBody: JSON.stringify({ keyword: "charset" }),
      headers: { "content-type": "application/json; charset=utf-8" },
    });
    expect(res.status).toBe(201);
  });

  it("rejects booleans other than true|false|1|0", async () => {
    for (const value of ["yes", "no", "TRUE", "", "2"]) {
      const error = expectErrorShape(
        await callJson(`/api/v1/posts?include_archived=${value}`, { key: ws.readKey }),
        400,
        "validation_failed",
      );
      expect(error.details).toEqual([{ path: "query.include_archived", message: expect.any(String) }]);
    }
    expectErrorShape(
      await callJson("/api/v1/posts?has_competitors=yes", { key: ws.readKey }),
      400,
      "validation_failed",
    );
  });

  it("refuses a repeated query parameter instead of picking one", async () => {
    for (const query of ["priority=high&priority=low", "limit=5&limit=5", "search=a&sort_by=score&search=b"]) {
      const error = expectErrorShape(
        await callJson(`/api/v1/posts?${query}`, { key: ws.readKey }),
        400,
        "validation_failed",
      );
      const name = query.split("=")[0];
      expect(error.details).toEqual([{ path: `query.${name}`, message: "given more than once; give it once" }]);
      expect(error.message).toBe(`query.${name}: given more than once; give it once`);
    }
  });

  it("lists every failing field in details", async () => {
    const res = await callJson("/api/v1/posts?priority=top&sort_by=title&limit=0", { key: ws.readKey });
    const error = expectErrorShape(res, 400, "validation_failed");
    expect(error.details!.map((d) => d.path).sort()).toEqual(["query.limit", "query.priority", "query.sort_by"]);
    expect(error.message).toContain("and 2 more");
  });
});

describe("payload limits", () => {
  const big = JSON.stringify({ keyword: "x".repeat(1024 * 1024) });

  it.each(withBody.map((op) => [op.label, op] as const))(
    "%s refuses a body over 1 MB with 413 payload_too_large",
    async (_, op) => {
      const res = await callJson(op.url, {
        key: ws.writeKey,
        method: op.method,
        rawBody: big,
        headers: { "content-type": "application/json" },
      });
      expectErrorShape(res, 413, "payload_too_large");
    },
  );

  it("counts a streamed body without content-length too, and writes nothing", async () => {
    const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(new TextEncoder().encode('{"keyword":"'));
        if (sent >= 20) {
          controller.enqueue(new TextEncoder().encode('"}'));
          controller.close();
          return;
        }
        controller.enqueue(chunk);
        sent++;
      },
    });
    const before = (await callJson("/api/v1/keywords", { key: ws.readKey })).body;
    const res = await callJson("/api/v1/keywords", {
      key: ws.writeKey,
      method: "POST",
      rawBody: stream,
      headers: { "content-type": "application/json" },
    });
    expectErrorShape(res, 413, "payload_too_large");
    expect((await callJson("/api/v1/keywords", { key: ws.readKey })).body).toEqual(before);
  });

  it("accepts a body just under 1 MB (then validates it)", async () => {
    const res = await callJson("/api/v1/keywords", {
      key: ws.writeKey,
      method: "POST",
      rawBody: JSON.stringify({ keyword: "x".repeat(1000 * 1000) }),
      headers: { "content-type": "application/json" },
    });
    expectErrorShape(res, 400, "validation_failed");
  });
});

describe("request ids and unknown routes", () => {
  it("every response carries x-request-id, each one different", async () => {
    const responses = await Promise.all([
      call("/api/v1/keywords", { key: ws.readKey }),
      call("/api/v1/openapi.json"),
      call("/"),
      call("/api/v1/keywords", { key: ws.writeKey, method: "POST", body: { keyword: "request ids" } }),
      call("/api/v1/keywords"),
      call("/admin/v1/workspaces", { key: "test-admin-token" }),
      call("/nowhere"),
    ]);
    const ids = responses.map((r) => r.headers.get("x-request-id"));
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]{24}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("an unknown route is 404 not_found", async () => {
    expectErrorShape(await callJson("/api/v1/nothing-here", { key: ws.readKey }), 404, "not_found");
    expectErrorShape(await callJson("/api/v2/posts", { key: ws.readKey }), 404, "not_found");
    expectErrorShape(await callJson("/nothing-here"), 404, "not_found");
    expectErrorShape(await callJson("/api/v1/posts", { key: ws.writeKey, method: "PUT", body: {} }), 404, "not_found");
  });

  it("an unknown route under /api/v1 without a key is 401: routes are not revealed to anonymous callers", async () => {
    const res = await callJson("/api/v1/nothing-here");
    expectErrorShape(res, 401, "unauthorized");
    expect(res.res.headers.get("www-authenticate")).toBe("Bearer");
  });

  it("a non-integer or non-positive id in the path is validation_failed", async () => {
    for (const id of ["abc", "0", "-1", "1.5", "99999999999999999999"]) {
      const error = expectErrorShape(
        await callJson(`/api/v1/keywords/${id}`, { key: ws.writeKey, method: "DELETE" }),
        400,
        "validation_failed",
      );
      expect(error.details![0]!.path).toBe("path.id");
    }
  });
});
