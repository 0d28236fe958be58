import { createMiddleware } from "hono/factory";
import { validationFailed } from "../errors";
import type { AppEnv } from "./hono-env";

/**
 * A DELETE names what it deletes in its path; a body would be silently ignored, which breaks the rule that
 * every route refuses what it does not understand (docs/api.md, "Errors"). Any DELETE carrying a non-empty body is
 * `validation_failed` before a route runs, on every route (API, admin and MCP alike), and nothing is deleted.
 */
export const refuseDeleteBody = createMiddleware<AppEnv>(async (c, next) => {
  if (c.req.method === "DELETE" && c.req.raw.body !== null && (await c.req.raw.clone().arrayBuffer()).byteLength > 0)
    throw validationFailed([{ path: "body", message: "a DELETE takes no body; send the request without one" }]);
  await next();
});
