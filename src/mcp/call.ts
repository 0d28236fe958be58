import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { type ApiError, type ErrorDetail, errorBody, validationFailed } from "../errors";
import type { ApiTool } from "./tools";

/**
 * A tool call is an /api/v1 request: the arguments become path parameters, the query string and the JSON
 * body, and the request goes through the same app (key check, scope, validation, handler, error model)
 * as any REST call. There is no second implementation of an operation.
 */

export type ToolArguments = Record<string, unknown>;

const queryValues = (value: unknown): string[] => {
  if (value === undefined || value === null) return []; // an explicit null is an absent optional filter
  if (Array.isArray(value)) return value.flatMap(queryValues);
  return [typeof value === "object" ? JSON.stringify(value) : String(value)];
};

/**
 * One path segment from an argument, or why it cannot be one: missing; empty, "." or ".." (the URL would
 * resolve them away and reach another route); not encodable (lone surrogates). Encoding keeps a "/"
 * inside the segment.
 */
function pathSegment(value: unknown): { segment: string } | { problem: string } {
  if (value === undefined || value === null) return { problem: "required" };
  const text = typeof value === "object" ? JSON.stringify(value) : String(value);
  if (text === "" || text === "." || text === "..") return { problem: "not a valid path segment" };
  try {
    return { segment: encodeURIComponent(text) };
  } catch {
    return { problem: "not a valid path segment" };
  }
}

/**
 * Builds the REST request for a call, or the `validation_failed` error when a path parameter is missing
 * or cannot be a path segment (the one check REST cannot make: without it there is no URL to call).
 */
export function toolRequest(
  tool: ApiTool,
  args: ToolArguments,
  base: { origin: string; authorization: string },
): Request | ApiError {
  const segments = new Map<string, string>();
  const invalid: ErrorDetail[] = [];
  for (const name of tool.pathParams) {
    const result = pathSegment(args[name]);
    if ("segment" in result) segments.set(name, result.segment);
    else invalid.push({ path: `path.${name}`, message: result.problem });
  }
  if (invalid.length) return validationFailed(invalid);

  const query = new URLSearchParams();
  const fields: [string, unknown][] = [];
  let wholeBody: unknown;
  for (const [name, value] of Object.entries(args)) {
    if (segments.has(name)) continue;
    if (tool.body === "whole" && name === "body") wholeBody = value;
    else if (tool.body === "fields" && !tool.queryParams.has(name)) fields.push([name, value]);
    // Query parameters, and unknown arguments of an operation without body fields: REST checks them there
    // (unknown body fields are rejected by the strict body schema, unknown query parameters likewise).
    else for (const v of queryValues(value)) query.append(name, v);
  }
  // fromEntries defines each field as an own property, so even "__proto__" reaches REST (and is refused).
  const body = tool.body === "fields" ? Object.fromEntries(fields) : tool.body === "whole" ? wholeBody : undefined;

  const url = new URL(
    `/api/v1${tool.path.replace(/\{([^}]+)\}/g, (_, name: string) => segments.get(name)!)}`,
    base.origin,
  );
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
