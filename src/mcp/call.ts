import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ApiError, errorBody, type ErrorDetail } from "../errors";
import type { ApiTool } from "./tools";

/**
 * A tool call is an /api/v1 request: the arguments become path parameters, the query string and the JSON
 * body, and the request goes through the same app (key check, scope, validation, handler, error model)
 * as any REST call. There is no second implementation of an operation.
 */

export type ToolArguments = Record<string, unknown>;

const DOT_SEGMENT = /^\.{0,2}$/;

const queryValues = (value: unknown): string[] => {
  if (value === undefined || value === null) return []; // an explicit null is an absent optional filter
  if (Array.isArray(value)) return value.flatMap(queryValues);
  return [typeof value === "object" ? JSON.stringify(value) : String(value)];
};

/**
 * Builds the REST request for a call, or the `validation_failed` error when a path parameter is missing
 * or cannot be a path segment (the one check REST cannot make: without it there is no URL to call).
 */
export function toolRequest(
  tool: ApiTool,
  args: ToolArguments,
  base: { origin: string; authorization: string },
): Request | ApiError {
  const invalid: ErrorDetail[] = tool.pathParams.flatMap((name) => {
    const value = args[name];
    if (value === undefined || value === null) return [{ path: `path.${name}`, message: "required" }];
    // "." and ".." would be resolved away by the URL and reach another route; "" would leave the segment empty.
    if (DOT_SEGMENT.test(String(value))) return [{ path: `path.${name}`, message: "not a valid path segment" }];
    return [];
  });
  if (invalid.length) {
    const first = invalid[0]!;
    return new ApiError("validation_failed", `${first.path}: ${first.message}`, { details: invalid });
  }

  const path = tool.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(args[name])));
  const query = new URLSearchParams();
  let body: Record<string, unknown> | unknown = tool.body === "none" ? undefined : {};
  for (const [name, value] of Object.entries(args)) {
    if (tool.pathParams.includes(name)) continue;
    if (tool.body === "whole" && name === "body") body = value;
    else if (tool.queryParams.has(name) || tool.body !== "fields") {
      // Unknown arguments go where REST checks them: the body when there is one (strict body schemas
      // reject unknown fields), the query string otherwise.
      for (const v of queryValues(value)) query.append(name, v);
    } else (body as Record<string, unknown>)[name] = value;
  }

  const url = new URL(`/api/v1${path}`, base.origin);
  url.search = query.toString();
  const headers = new Headers({ authorization: base.authorization, accept: "application/json" });
  if (body !== undefined) headers.set("content-type", "application/json");
  return new Request(url, {
    method: tool.method.toUpperCase(),
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Keys of the tool result's `_meta`: the REST status, its request id, and `retry-after` when given. */
export const META_STATUS = "threadwatch/status";
export const META_REQUEST_ID = "threadwatch/request_id";
export const META_RETRY_AFTER = "threadwatch/retry_after";

const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The REST response as a tool result: the body verbatim as text, the parsed object as structured content,
 * and any non-2xx as a tool error carrying the documented error body.
 */
export async function toolResult(response: Response): Promise<CallToolResult> {
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  const retryAfter = response.headers.get("retry-after");
  return {
    content: text ? [{ type: "text", text }] : [],
    ...(isJsonObject(json) ? { structuredContent: json } : {}),
    ...(response.ok ? {} : { isError: true }),
    _meta: {
      [META_STATUS]: response.status,
      [META_REQUEST_ID]: response.headers.get("x-request-id"),
      ...(retryAfter ? { [META_RETRY_AFTER]: retryAfter } : {}),
    },
  };
}

/** A failure found before any REST call (unknown tool, missing path parameter), in the same error shape. */
export function toolError(error: ApiError, requestId: string): CallToolResult {
  const body = errorBody(error, requestId);
  return {
    content: [{ type: "text", text: JSON.stringify(body) }],
    structuredContent: body as unknown as Record<string, unknown>,
    isError: true,
    _meta: { [META_STATUS]: error.status, [META_REQUEST_ID]: requestId },
  };
}
