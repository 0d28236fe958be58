import { createRoute, OpenAPIHono, type RouteConfig, z } from "@hono/zod-openapi";
import type { KeyScope } from "../auth/keys";
import { type Access, apiAccess } from "../auth/roles";
import { errorResponses, validationHook } from "../errors";
import { requireAccess } from "./auth-middleware";
import type { AppEnv } from "./hono-env";
import { requireUtf8Body } from "./utf8-body";

/** Every router is built here, so every one of them answers schema failures with our error body. */
export const createRouter = () => new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

/** OpenAPI extension names carrying what MCP tool generation needs (src/routes/mcp.ts). */
export const SCOPE_EXTENSION = "x-threadwatch-scope";
export const ROLE_EXTENSION = "x-threadwatch-role";
export const TOOL_EXTENSION = "x-threadwatch-tool";

/** The query schema of an operation that takes no query parameters: any given one is refused. */
export const noQuery = z.strictObject({});

type ApiRouteInput = Omit<RouteConfig, "security" | "middleware"> & {
  /**
   * The key scope the operation needs; every non-GET operation needs `read_write`. What is enforced is the
   * operation's entry in src/auth/roles.ts (scope and role); the table test checks the two agree.
   */
  scope: KeyScope;
  /** `false` keeps an operation out of the tool protocol (approval: a person approves, not an agent). */
  tool?: boolean;
  /** Documents a 409 and its codes. */
  conflict?: string;
  /** Documents 502 `forum_unreachable` (`"forum"`), and 503 `browser_unavailable` too (`"browser"`). */
  outside?: "forum" | "browser";
};

/** The 403 an operation documents: what its roles-table entry asks beyond a read key of any ceiling. */
function forbiddenText(access: Access): string | undefined {
  const scope = access.scope === "read_write" ? "a read_write key" : undefined;
  const role = access.role !== "viewer" ? `a role ceiling of ${access.role} or above` : undefined;
  if (!scope && !role) return undefined;
  return `Needs ${[scope, role].filter(Boolean).join(" with ")} (\`forbidden\`)`;
}

/**
 * Declares an /api/v1 operation: bearer security, the shared error responses, the scope check as route
 * middleware and the extensions the MCP tool generator reads. Routes read like the API docs.
 */
export function apiRoute<const R extends ApiRouteInput>(input: R) {
  const { scope, tool, conflict, outside, ...route } = input;
  const access = apiAccess(route.method, route.path, scope);
  const changes = route.method !== "get";
  return createRoute({
    ...route,
    // An operation without query parameters still rejects unknown ones (a typo is not "no filter": docs/api.md).
    request: { query: noQuery, ...route.request },
    security: [{ bearerAuth: [] }],
    responses: {
      ...errorResponses({ write: changes, conflict, forbidden: forbiddenText(access), outside }),
      ...route.responses,
    },
    middleware: changes ? [requireAccess(access), requireUtf8Body] : [requireAccess(access)],
    [SCOPE_EXTENSION]: access.scope,
    [ROLE_EXTENSION]: access.role,
    [TOOL_EXTENSION]: tool ?? true,
  } as unknown as Omit<R, "scope" | "tool" | "conflict" | "outside">);
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

export const jsonBody = <T extends z.ZodType>(schema: T, description?: string) => ({
  required: true,
  description,
  content: { "application/json": { schema } },
});

export const jsonResponse = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

/** `next_offset` of a page of `n` items read at `offset` out of `count`: null on the last page. */
export const nextOffset = (offset: number, n: number, count: number): number | null =>
  offset + n < count ? offset + n : null;
