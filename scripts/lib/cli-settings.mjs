// Where the command-line scripts take their settings from when a flag is not given, and the hints their
// errors carry. Pure functions (no Node APIs), so the tests run them as they are.

export const DEFAULT_BASE_URL = "http://localhost:8787";

/**
 * The admin CLI's service address and token: a flag first, then THREADWATCH_BASE_URL /
 * THREADWATCH_ADMIN_TOKEN, then (token only) ADMIN_TOKEN and .dev.vars' ADMIN_TOKEN.
 */
export function adminConnection(flags, env, devVars = {}) {
  const baseUrl = flags.baseUrl ?? (env.THREADWATCH_BASE_URL || undefined) ?? DEFAULT_BASE_URL;
  const token =
    flags.adminToken ??
    (env.THREADWATCH_ADMIN_TOKEN || undefined) ??
    (env.ADMIN_TOKEN || undefined) ??
    (devVars.ADMIN_TOKEN || undefined);
  return { baseUrl, token };
}

/**
 * Why `baseUrl` cannot be the service's address, or null when it can: it must be an absolute http(s) URL
 * (`localhost:8787` parses as a URL of the scheme `localhost:`, which no request could reach).
 */
export function baseUrlProblem(baseUrl) {
  let url;
  try {
    url = new URL(baseUrl);
  } catch {
    return `is not a URL: ${baseUrl}`;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return `is not an http(s) URL: ${baseUrl} (write it with its scheme, e.g. http://localhost:8787)`;
  return null;
}

/**
 * The demo keys `npm start` must issue again: only those that no longer work (revoked, expired, deleted),
 * so a key that still works is never duplicated.
 */
export function demoKeysToIssue(works, label = "demo") {
  return [
    ...(works.api_key ? [] : [{ field: "api_key", name: `${label} read_write`, scope: "read_write" }]),
    ...(works.read_key ? [] : [{ field: "read_key", name: `${label} read`, scope: "read" }]),
  ];
}

/** An extraction error, with the flag that lifts a refusal of a private address when it applies. */
export function extractErrorMessage(error, allowPrivate) {
  if (error.code === "blocked_address" && !allowPrivate)
    return `${error.message} (pass --allow-private to let the command reach private and local addresses, such as a local test server)`;
  return error.message;
}
