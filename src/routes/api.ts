import { requireApiKey } from "../http/auth-middleware";
import { createRouter } from "../http/openapi";
import { auditRouter } from "./audit";
import { blogSyncsRouter } from "./blog-syncs";
import { commentsRouter } from "./comments";
import { competitorsRouter } from "./competitors";
import { exclusionsRouter } from "./exclusions";
import { insightsRouter } from "./insights";
import { keywordsRouter } from "./keywords";
import { membersRouter } from "./members";
import { monitoringRouter } from "./monitoring";
import { personasRouter } from "./personas";
import { postsRouter } from "./posts";
import { publishingRouter } from "./publishing";
import { webhooksRouter } from "./webhooks";

/**
 * Every /api/v1 operation. The OpenAPI document and the MCP tools are both generated from this router's
 * registry, so adding a route here is all it takes to document it and expose it as a tool.
 */
export function createApiRouter() {
  const api = createRouter();
  api.use("*", requireApiKey);
  api.route("/", postsRouter);
  api.route("/", commentsRouter);
  api.route("/", keywordsRouter);
  api.route("/", competitorsRouter);
  api.route("/", blogSyncsRouter);
  api.route("/", monitoringRouter);
  api.route("/", exclusionsRouter);
  api.route("/", personasRouter);
  api.route("/", publishingRouter);
  api.route("/", webhooksRouter);
  api.route("/", insightsRouter);
  api.route("/", membersRouter);
  api.route("/", auditRouter);
  api.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description: "An API key of the workspace: `Authorization: Bearer tw_live_...`",
  });
  return api;
}

export type ApiRouter = ReturnType<typeof createApiRouter>;

const documents = new WeakMap<ApiRouter, unknown>();

/** The OpenAPI 3.0.3 document, generated once per router and then served from memory. */
export function openApiDocument(api: ApiRouter) {
  let doc = documents.get(api);
  if (!doc) {
    doc = api.getOpenAPIDocument({
      openapi: "3.0.3",
      info: {
        title: "threadwatch API",
        version: "1.0.0",
        description:
          "Forum monitoring (posts, keywords, competitors) and blog-to-subreddit sync. Every error body is " +
          '`{"error": {"code", "message", "request_id", "details"?}}`.',
      },
      servers: [{ url: "/api/v1" }],
      security: [{ bearerAuth: [] }],
    });
    documents.set(api, doc);
  }
  return doc;
}
