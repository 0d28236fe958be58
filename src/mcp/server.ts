import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { AuthContext } from "../auth/keys";
import { refusal } from "../auth/roles";
import { ApiError } from "../errors";
import { grantOf } from "../http/auth-middleware";
import { toolError, toolRequest, toolResult } from "./call";
import { mcpInstructions } from "./instructions";
import { type ApiTool, toolsFor } from "./tools";

export const SERVER_INFO = { name: "threadwatch", version: "1.0.0" } as const;

/** `_meta` key naming the REST operation behind a tool, e.g. `"GET /posts"`. */
export const META_OPERATION = "threadwatch/operation";

export interface McpCaller {
  auth: AuthContext;
  /** The caller's own `Authorization` header, sent with every REST request a tool call makes. */
  authorization: string;
  /** Origin the REST requests are addressed to (the /mcp request's own). */
  origin: string;
  /** Request id of the /mcp request, for errors raised before any REST call. */
  requestId: string;
  /** Runs an /api/v1 request through the Worker's app, in-process. */
  dispatch: (request: Request) => Promise<Response>;
}

/**
 * tools/call is registered with this loose envelope so that the SDK's own tools/call check runs first and
 * answers malformed params with JSON-RPC "invalid params" (-32602); registered with the strict schema,
 * the params would fail an earlier parse and come back as "internal error" (-32603).
 */
const ToolsCallEnvelope = z.looseObject({ method: z.literal("tools/call") });

const toolListing = (tool: ApiTool): Tool => ({
  name: tool.name,
  description: tool.description,
  inputSchema: tool.inputSchema,
  annotations: tool.annotations,
  _meta: { [META_OPERATION]: `${tool.method.toUpperCase()} ${tool.path}` },
});

/** A fresh protocol server for one HTTP request (stateless mode), bound to the caller's key. */
export function createMcpServer(tools: readonly ApiTool[], caller: McpCaller): Server {
  const grant = grantOf(caller.auth);
  const visible = toolsFor(tools, grant);
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    // Generated from the tools this caller has, so it names none that tools/list lacks.
    instructions: mcpInstructions(visible),
  });

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: visible.map(toolListing) }));

  server.setRequestHandler(ToolsCallEnvelope, async (envelope) => {
    const request = CallToolRequestSchema.parse(envelope); // already checked by the SDK's wrapper
    // Tools beyond the key's scope or ceiling are looked up too, so that REST itself refuses them (403
    // `forbidden`, the roles table's words), as it refuses the same request made directly.
    const tool = tools.find((candidate) => candidate.name === request.params.name);
    if (!tool) return toolError(new ApiError("not_found", `unknown tool ${request.params.name}`), caller.requestId);
    // The arguments as the client sent them: the parsed copy would have lost an own "__proto__" key.
    const sent = (envelope.params as { arguments?: Record<string, unknown> } | undefined)?.arguments;
    const built = toolRequest(tool, sent ?? {}, caller);
    // REST judges the key's scope and ceiling before its input, so a refused call is 403 whatever its arguments.
    if (built instanceof ApiError) {
      const why = refusal(tool.access, grant);
      return toolError(why ? new ApiError("forbidden", why) : built, caller.requestId);
    }
    return toolResult(await caller.dispatch(built));
  });

  return server;
}
