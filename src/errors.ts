import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { DomainError, type DomainErrorKind } from "./lib/domain-errors";
import { log } from "./lib/log";

/** The closed set of error codes (docs/api.md, "Errors") and the status each one answers with. */
export const ERROR_STATUS = {
  invalid_json: 400,
  validation_failed: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  run_in_progress: 409,
  persona_not_ready: 409,
  browser_busy: 409,
  invalid_state: 409,
  payload_too_large: 413,
  rate_limited: 429,
  internal_error: 500,
  forum_unreachable: 502,
  browser_unavailable: 503,
} as const satisfies Record<string, ContentfulStatusCode>;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorDetail {
  path: string;
  message: string;
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly details?: ErrorDetail[];
  readonly headers?: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: ErrorDetail[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.details = options.details;
    this.headers = options.headers;
  }

  get status(): ContentfulStatusCode {
    return ERROR_STATUS[this.code];
  }
}

export interface ErrorBody {
  error: { code: ErrorCode; message: string; request_id: string; details?: ErrorDetail[] };
}

export function errorBody(error: ApiError, requestId: string): ErrorBody {
  return {
    error: {
      code: error.code,
      message: error.message,
      request_id: requestId,
      ...(error.details ? { details: error.details } : {}),
    },
  };
}

/** Converts zod issues into the `details` list of a `validation_failed` error. */
export function zodDetails(error: z.ZodError, prefix?: string): ErrorDetail[] {
  return error.issues.flatMap((issue) => {
    const segments = [...(prefix ? [prefix] : []), ...issue.path.map(String)];
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({ path: [...segments, key].join("."), message: "unknown field" }));
    }
    return [{ path: segments.join(".") || "(root)", message: issue.message }];
  });
}

/** A `validation_failed` error for these details, its message naming the first. */
export function validationFailed(details: ErrorDetail[]): ApiError {
  const first = details[0];
  const message = first ? `${first.path}: ${first.message}` : "request is invalid";
  return new ApiError(
    "validation_failed",
    details.length > 1 ? `${message} (and ${details.length - 1} more)` : message,
    { details },
  );
}

/**
 * The one validation hook every OpenAPIHono router is built with: a failed schema becomes our
 * `validation_failed` error instead of the library's own body.
 */
export function validationHook(
  result: { success: true } | { success: false; error: z.ZodError; target: string },
  c: Context,
): void {
  if (result.success) return;
  const target = result.target === "json" ? "body" : result.target === "param" ? "path" : result.target;
  const details = zodDetails(result.error, target);
  if (target === "query") {
    // A parameter given twice reaches the schema as an array; say so rather than "expected string".
    const names = [...new URL(c.req.url).searchParams.keys()];
    const repeated = new Set(names.filter((name, i) => names.indexOf(name) !== i).map((name) => `query.${name}`));
    for (const detail of details) if (repeated.has(detail.path)) detail.message = "given more than once; give it once";
  }
  throw validationFailed(details);
}

export function requestIdOf(c: Context): string {
  return (c.get("requestId" as never) as string | undefined) ?? "unknown";
}

export function respondError(c: Context, error: ApiError): Response {
  const response = c.json(errorBody(error, requestIdOf(c)), error.status);
  for (const [name, value] of Object.entries(error.headers ?? {})) response.headers.set(name, value);
  if (error.code === "unauthorized") response.headers.set("www-authenticate", "Bearer");
  return response;
}

const CODE_OF_KIND: Record<DomainErrorKind, ErrorCode> = {
  not_found: "not_found",
  invalid_input: "validation_failed",
  invalid_state: "invalid_state",
  run_in_progress: "run_in_progress",
  persona_not_ready: "persona_not_ready",
  browser_busy: "browser_busy",
  forum_unreachable: "forum_unreachable",
  browser_unavailable: "browser_unavailable",
  forbidden: "forbidden",
};

/** The one place a domain error becomes an HTTP error: its code, status, details and `retry-after`. */
export function fromDomainError(err: DomainError): ApiError {
  return new ApiError(CODE_OF_KIND[err.kind], err.message, {
    details: err.problems,
    headers: err.retryAfterSeconds === undefined ? undefined : { "retry-after": String(err.retryAfterSeconds) },
  });
}

/**
 * Four tiers: ours at the edge (ApiError), the domain's (DomainError, mapped by fromDomainError), Hono's
 * (HTTPException), and the unexpected (logged, 500, no internals).
 */
export function onError(err: Error, c: Context): Response {
  if (err instanceof ApiError) return respondError(c, err);
  if (err instanceof DomainError) return respondError(c, fromDomainError(err));
  if (err instanceof HTTPException) {
    if (err.status === 413)
      return respondError(c, new ApiError("payload_too_large", "request body is larger than 1 MB"));
    if (err.status === 400) return respondError(c, new ApiError("invalid_json", "request body is not valid JSON"));
    // zod-openapi's media-type gate: a body sent without `content-type: application/json`.
    if (err.status === 415)
      return respondError(
        c,
        new ApiError("invalid_json", "send the request body as JSON with content-type: application/json"),
      );
    if (err.status === 401) return respondError(c, new ApiError("unauthorized", "missing or invalid API key"));
    if (err.status === 404) return respondError(c, new ApiError("not_found", "not found"));
  }
  // drizzle wraps driver errors ("Failed query: ..."); the cause is what says what went wrong.
  const cause = err.cause instanceof Error ? err.cause.message : undefined;
  log("error", "unexpected error", {
    request_id: requestIdOf(c),
    method: c.req.method,
    path: c.req.path,
    error: err.message,
    cause,
    stack: err.stack,
  });
  return respondError(
    c,
    new ApiError("internal_error", "an unexpected error occurred; quote the request id when reporting it"),
  );
}

/** OpenAPI schema of the error body, shared by every route's documented error responses. */
export const ErrorSchema = z
  .object({
    error: z.object({
      code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]),
      message: z.string(),
      request_id: z.string(),
      details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    }),
  })
  .openapi("Error");

const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: ErrorSchema } },
});

/** The error responses every authenticated route declares. */
export function errorResponses(
  options: { write?: boolean; conflict?: string; forbidden?: string; outside?: "forum" | "browser" } = {},
) {
  const forbidden = options.forbidden ?? (options.write ? "The key is read-only (`forbidden`)" : undefined);
  return {
    400: errorResponse("Invalid JSON or a query/body that fails validation (`invalid_json`, `validation_failed`)"),
    401: errorResponse("Missing or invalid API key (`unauthorized`)"),
    ...(forbidden ? { 403: errorResponse(forbidden) } : {}),
    404: errorResponse("Unknown route or id not in this workspace (`not_found`)"),
    ...(options.conflict ? { 409: errorResponse(options.conflict) } : {}),
    ...(options.write ? { 413: errorResponse("Body over 1 MB (`payload_too_large`)") } : {}),
    429: errorResponse(
      "Rate limit reached: the key's own, or (without a valid key) the client address's (`rate_limited`, see `retry-after`)",
    ),
    500: errorResponse("Unexpected failure (`internal_error`), logged with the request id"),
    ...(options.outside
      ? {
          502: errorResponse(
            "The forum or its OAuth host could not be reached (`forum_unreachable`); the message names the address",
          ),
        }
      : {}),
    ...(options.outside === "browser"
      ? {
          503: errorResponse(
            "The browser could not be started, after one retry on a fresh one (`browser_unavailable`, see `retry-after`)",
          ),
        }
      : {}),
  } as const;
}
