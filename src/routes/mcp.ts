import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { type ExecutionContext, Hono } from "hono";
import type { AppEnv } from "../app-env";
import { authenticate } from "../auth/check";
import { credentialsOf } from "../auth/middleware";
import type { Env } from "../env";
import { requestIdOf } from "../errors";
import { optionalExecutionCtx } from "../http/context";
import { createMcpServer } from "../mcp/server";
import { type ApiTool, type OpenApiDocumentLike, toolsFromOpenApi } from "../mcp/tools";
import { type ApiRouter, openApiDocument } from "./api";

/** How a tool call reaches the app: `app.fetch`, so it passes every middleware a REST call passes. */
export type AppFetch = (request: Request, env: Env, ctx: ExecutionContext | undefined) => Response | Promise<Response>;

/**
 * `/mcp`: the Model Context Protocol over streamable HTTP, stateless (a fresh server and transport per
 * request), JSON responses. The key is checked before the protocol sees the request; tools are generated
 * once per isolate from the API router's OpenAPI document.
 */
export function createMcpRouter(api: ApiRouter, appFetch: AppFetch) {
  let tools: ApiTool[] | undefined;
  const router = new Hono<AppEnv>();

  router.all("/", async (c) => {
    const ctx = optionalExecutionCtx(c);
    const credentials = credentialsOf(c);
    const authorization = credentials.authorization ?? "";
    const auth = await authenticate(c.env, credentials, { countRequest: false }, ctx);

    if (c.req.method !== "POST") {
      // Stateless: no standalone event stream (GET) and no session to end (DELETE).
      return c.json(
        {
          jsonrpc: "2.0",
          error: { code: -32000, message: "Method not allowed: this endpoint is stateless; POST JSON-RPC messages" },
          id: null,
        },
        405,
        { allow: "POST" },
      );
    }

    tools ??= toolsFromOpenApi(openApiDocument(api) as OpenApiDocumentLike);
    const server = createMcpServer(tools, {
      auth,
      authorization,
      origin: new URL(c.req.url).origin,
      requestId: requestIdOf(c),
      dispatch: async (request) => appFetch(request, c.env, ctx),
    });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(c.req.raw);
    } finally {
      await server.close();
    }
  });

  return router;
}
