import { OpenAPIHono } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import { forumCallback } from "./console/pages/forum-callback";
import { createConsoleRouter } from "./console/router";
import { ApiError, onError, respondError, validationFailed, validationHook, zodDetails } from "./errors";
import { refuseDeleteBody } from "./http/delete-body";
import type { AppEnv } from "./http/hono-env";
import { noQuery } from "./http/openapi";
import { toHex } from "./lib/crypto";
import { adminRouter } from "./routes/admin";
import { adminPersonasRouter } from "./routes/admin-personas";
import { createApiRouter, openApiDocument } from "./routes/api";
import { createMcpRouter } from "./routes/mcp";

const MAX_BODY_BYTES = 1024 * 1024;

const newRequestId = () => `req_${toHex(crypto.getRandomValues(new Uint8Array(12)))}`;

/** Builds the Worker's HTTP app: middleware order, error handling, the API, its document and admin. */
export function createApp() {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const api = createApiRouter();

  app.use("*", async (c, next) => {
    const requestId = newRequestId();
    c.set("requestId", requestId);
    await next();
    c.res.headers.set("x-request-id", requestId);
  });
  // Over the limit, bodyLimit throws Hono's 413, which onError answers as `payload_too_large`.
  app.use("*", bodyLimit({ maxSize: MAX_BODY_BYTES }));
  app.use("*", refuseDeleteBody);

  app.get("/", (c) => c.json({ service: "threadwatch", api: "/api/v1", openapi: "/api/v1/openapi.json", mcp: "/mcp" }));
  // Public, registered before the API's key check.
  app.get("/api/v1/openapi.json", (c) => {
    const query = noQuery.safeParse(c.req.query());
    if (!query.success) throw validationFailed(zodDetails(query.error, "query"));
    return c.json(openApiDocument(api) as object);
  });
  app.route("/api/v1", api);
  app.route("/admin/v1", adminRouter);
  app.route("/admin/v1", adminPersonasRouter);
  app.route("/app", createConsoleRouter());
  // The forum's OAuth redirect (docs/publishing.md, "Connecting"): no key, the state is the credential.
  app.get("/oauth/forum/callback", forumCallback);
  app.route(
    "/mcp",
    createMcpRouter(api, (request, env, ctx) => app.fetch(request, env, ctx)),
  );

  app.notFound((c) => respondError(c, new ApiError("not_found", `no route for ${c.req.method} ${c.req.path}`)));
  app.onError(onError);
  return { app, api };
}
