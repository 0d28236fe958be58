// The webhooks operations are MCP tools by themselves (docs/mcp.md): reads for read keys, creating, testing
// and deleting only for read_write keys, answering as REST does (the secret shown once there too).
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newReceiver, verifyAsDocumented } from "../helpers/alerts";
import { callJson, createTestWorkspace, type TestWorkspace } from "../helpers/api";
import { connectClient } from "../helpers/mcp-client";

const READS = ["get_webhooks", "get_webhooks_id_deliveries"];
const WRITES = ["post_webhooks", "delete_webhooks_id", "post_webhooks_id_test"];

let ws: TestWorkspace;
let writer: Client;
let reader: Client;
beforeAll(async () => {
  ws = await createTestWorkspace("alerts mcp");
  writer = await connectClient(ws.writeKey);
  reader = await connectClient(ws.readKey);
});
afterAll(async () => {
  await writer?.close();
  await reader?.close();
});

describe("webhooks as MCP tools", () => {
  it("lists the reads for a read key and the writes only for a read_write key", async () => {
    const readNames = (await reader.listTools()).tools.map((t) => t.name);
    const writeNames = (await writer.listTools()).tools.map((t) => t.name);
    for (const name of READS) expect(readNames).toContain(name);
    for (const name of [...READS, ...WRITES]) expect(writeNames).toContain(name);
    for (const name of WRITES) expect(readNames).not.toContain(name);
    const refused = await reader.callTool({ name: "post_webhooks", arguments: { url: "https://example.com/" } });
    expect(refused.isError).toBe(true);
  });

  it("creates, tests, lists and deletes as REST does", async () => {
    const receiver = newReceiver("mcp");
    const created = await writer.callTool({ name: "post_webhooks", arguments: { url: receiver.url, format: "json" } });
    const hook = created.structuredContent as { id: number; secret: string };
    expect(hook).toMatchObject({ url: receiver.url, format: "json", min_priority: "high", active: true });
    expect(hook.secret).toMatch(/^whsec_/);

    const tested = await writer.callTool({ name: "post_webhooks_id_test", arguments: { id: hook.id } });
    expect(tested.structuredContent).toMatchObject({ type: "webhook.test", status: "delivered" });
    const [got] = await receiver.deliveries();
    expect(verifyAsDocumented(got!.body, got!.headers["threadwatch-signature"]!, hook.secret)).toBe(true);

    const listed = await reader.callTool({ name: "get_webhooks_id_deliveries", arguments: { id: hook.id, limit: 10 } });
    expect(listed.structuredContent).toEqual(
      (await callJson(`/api/v1/actions/webhooks/${hook.id}/deliveries?limit=10`, { key: ws.readKey })).body,
    );
    const all = await reader.callTool({ name: "get_webhooks", arguments: {} });
    expect(JSON.stringify(all.structuredContent)).not.toContain(hook.secret);

    const deleted = await writer.callTool({ name: "delete_webhooks_id", arguments: { id: hook.id } });
    expect(deleted.isError).toBeFalsy();
    const again = await writer.callTool({ name: "delete_webhooks_id", arguments: { id: hook.id } });
    expect(again.isError).toBe(true);
  });
});
