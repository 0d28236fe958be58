import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { call } from "./api";

export const MCP_URL = "http://threadwatch.test/mcp";

/** The SDK's own client and streamable HTTP transport, with its fetch pointed at the Worker's fetch handler. */
export async function connectClient(key: string | null): Promise<Client> {
  const client = new Client({ name: "threadwatch-tests", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(MCP_URL), {
    // Through the test harness's call(): the Worker's own fetch handler, as an HTTP client reaches it.
    fetch: (url, init) =>
      call(new URL(url).pathname, {
        method: init?.method,
        rawBody: init?.body ?? undefined,
        headers: Object.fromEntries(new Headers(init?.headers)),
      }),
    requestInit: key ? { headers: { authorization: `Bearer ${key}` } } : undefined,
  });
  await client.connect(transport);
  return client;
}

/** A raw JSON-RPC POST to /mcp, for what the SDK client would never send. */
export function postMcp(body: string, key?: string | null, headers: Record<string, string> = {}) {
  return call("/mcp", {
    key,
    method: "POST",
    rawBody: body,
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
  });
}
