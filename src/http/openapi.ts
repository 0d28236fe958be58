import { createRoute, OpenAPIHono, type RouteConfig, z } from "@hono/zod-openapi";
import type { AppEnv } from "../app-env";
import type { KeyScope } from "../auth/keys";
import { requireScope } from "../auth/middleware";
import { errorResponses, validationHook } from "../errors";
import { requireUtf8Body } from "./utf8-body";

/** Every router is built here, so every one of them answers schema failures with our error body. */
export const createRouter = () => new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

/** OpenAPI extension names carrying what MCP tool generation needs (src/routes/mcp.ts). */
export const SCOPE_EXTENSION = "x-threadwatch-scope";
export const TOOL_EXTENSION = "x-threadwatch-tool";

/** The query schema of an operation that takes no query parameters: any given one is refused. */
export const noQuery = z.strictObject({});

type ApiRouteInput = Omit<RouteConfig, "security" | "middleware"> & {
  /** The key scope the operation needs; every non-GET operation needs `read_write`. */
  scope: KeyScope;
  /** `false` keeps an operation out of the tool protocol (approval: a person approves, not an agent). */
  tool?: boolean;
  /** Documents a 409 and its codes. */
  conflict?: string;
};

/**
 * Declares an /api/v1 operation: bearer security, the shared error responses, the scope check as route
 * middleware and the extensions the MCP tool generator reads. Routes read like the API docs.
 */
export function apiRoute<const R extends ApiRouteInput>(input: R) {
  const { scope, tool, conflict, ...route } = input;
  const write = scope === "read_write";
  return createRoute({
    ...route,
    // An operation without query parameters still rejects unknown ones (a typo is not "no filter": docs/api.md).
    request: { query: noQuery, ...route.request },
    security: [{ bearerAuth: [] }],
    responses: { ...errorResponses({ write, conflict }), ...route.responses },
    middleware: write ? [requireScope("read_write"), requireUtf8Body] : [],
    [SCOPE_EXTENSION]: scope,
    [TOOL_EXTENSION]: tool ?? true,
  } as unknown as Omit<R, "scope" | "tool" | "conflict">);
}

/** Query booleans: `true|false|1|0` and nothing else (docs/api.md). Documented as boolean. */
export const queryBoolean = z
  .enum(["true", "false", "1", "0"])
  .transform((v) => v === "true" || v === "1")
  .openapi({ type: "boolean" });

/**
 * An integer written in a query string or path segment: plain decimal digits, nothing else. `Number()`
 * (what `z.coerce` calls) also reads `1e1`, `0x1a`, `26.0`, ` 26` and the empty string, so a request
 * for `/posts/1e1` would have changed post 10; those are refused. Documented as an OpenAPI integer.
 */
export const integerParam = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .regex(/^(0|[1-9][0-9]*)$/, "expected a whole number in decimal digits (no sign, leading zero, point or exponent)")
    .transform((digits, ctx) => {
      // One message for a number out of range, however far out (a 20-digit offset is not also "not an int").
      const n = Number(digits);
      if (n >= min && n <= max) return n;
      ctx.addIssue({
        code: "custom",
        message:
          max === Number.MAX_SAFE_INTEGER
            ? `must be a whole number from ${min} up to ${max}`
            : `must be from ${min} to ${max}`,
      });
      return z.NEVER;
    })
    .openapi({ type: "integer", minimum: min, ...(max === Number.MAX_SAFE_INTEGER ? {} : { maximum: max }) });

/** A positive integer id in a path segment. */
export const pathId = (name: string) => integerParam(1).openapi({ param: { name, in: "path" }, example: 1 });

/**
 * A path segment read as `pathId` reads it, else undefined. The console's form actions take ids in the path
 * too: with this, `/app/posts/1e1` changes no post, as `/api/v1/posts/1e1` changes none.
 */
export function readPathId(segment: string | undefined): number | undefined {
  const parsed = integerParam(1).safeParse(segment);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The body of an action that takes no fields: it may be omitted, and a body that is sent must be a JSON object
 * without fields (an unknown field is refused, not ignored: docs/api.md). `name` is its OpenAPI component.
 */
export const noFieldsBody = (name: string) => ({
  ...jsonBody(
    z.strictObject({}).openapi(name, { description: "No fields; the body may be omitted" }),
    "No fields; the body may be omitted",
  ),
  required: false,
});

/** `{id}` path parameters. */
export const idParam = () => z.object({ id: pathId("id") });

export const jsonBody = <T extends z.ZodType>(schema: T, description?: string) => ({
  required: true,
  description,
  content: { "application/json": { schema } },
});

export const jsonResponse = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

export const listEnvelope = <T extends z.ZodType>(item: T, name: string) =>
  z.object({ data: z.array(item), count: z.number().int() }).openapi(name);

/** One page of a paged list: the items, the total over all pages and where the next page starts. */
export const pageEnvelope = <T extends z.ZodType>(
  item: T,
  name: string,
  countDescription = "Items matching the filter (all pages)",
) =>
  z
    .object({
      data: z.array(item),
      count: z.number().int().openapi({ description: countDescription }),
      next_offset: z
        .number()
        .int()
        .nullable()
        .openapi({ description: "Offset of the next page; null on the last page" }),
    })
    .openapi(name);

/** `next_offset` of a page of `n` items read at `offset` out of `count`: null on the last page. */
export const nextOffset = (offset: number, n: number, count: number): number | null =>
  offset + n < count ? offset + n : null;
