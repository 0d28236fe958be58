import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { type ExecutionContext, Hono } from "hono";
import { authenticate } from "../auth/check";
import type { Env } from "../env";
import { requestIdOf } from "../errors";
import { credentialsOf } from "../http/auth-middleware";
import { optionalExecutionCtx } from "../http/context";
import type { AppEnv } from "../http/hono-env";
import { utf8BodyBytes } from "../http/utf8-body";
import { createMcpServer } from "../mcp/server";
import { type ApiTool, type OpenApiDocumentLike, toolsFromOpenApi } from "../mcp/tools";
import { type ApiRouter, openApiDocument } from "./api";

/** The limiter a tool call's REST request sees: its MCP request already counted against the key. */
const ALREADY_COUNTED: RateLimit = { limit: async () => ({ success: true }) };

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
    // Every MCP request counts once against the key's limit, whatever its method (initialize, tools/list, a GET): the
    // protocol must not be a way around it. 429 `rate_limited` in the error shape of docs/api.md, as for 401.
    const auth = await authenticate(c.env, credentials, { countRequest: true }, ctx);

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
      // The tool call's REST request was counted at this door already; it must not count a second time.
      dispatch: async (request) => appFetch(request, { ...c.env, RATE_LIMITER: ALREADY_COUNTED }, ctx),
    });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      // The body is checked as UTF-8 first (400 `invalid_json`, as on every JSON route) and handed on as bytes.
      const body = await utf8BodyBytes(await c.req.arrayBuffer());
      return await transport.handleRequest(
        new Request(c.req.url, { method: "POST", headers: c.req.raw.headers, body }),
      );
    } finally {
      await server.close();
    }
  });

  return router;
}
