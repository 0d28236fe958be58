// Reading one keyword, competitor or post, a config's run history, editing a draft and deleting a config are MCP tools
// by themselves (generated from the OpenAPI document): reads for read keys, writes only for read_write keys, answering
// exactly as REST does.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callJson, createTestWorkspace, type TestWorkspace } from "../helpers/api";
import { createConfig, newBlog, runConfig, SYNCS } from "../helpers/blogs";
import { connectClient } from "../helpers/mcp-client";

const READS = [
  "get_posts_id",
  "get_keywords_id",
  "get_competitors_id",
  "get_blog_subreddit_syncs_id_runs",
  "get_blog_subreddit_syncs_id_runs_run_id",
];
const WRITES = ["delete_blog_subreddit_syncs_id", "patch_blog_subreddit_syncs_id_items_item_id"];

let ws: TestWorkspace;
let writer: Client;
let reader: Client;
beforeAll(async () => {
  ws = await createTestWorkspace("mcp new operations");
  writer = await connectClient(ws.writeKey);
  reader = await connectClient(ws.readKey);
});
afterAll(async () => {
  await writer?.close();
  await reader?.close();
});

describe("single-item reads, run history, draft edits and config deletion as tools", () => {
  it("lists the reads for a read key and the writes only for a read_write key", async () => {
    const readNames = (await reader.listTools()).tools.map((t) => t.name);
    const writeNames = (await writer.listTools()).tools.map((t) => t.name);
    for (const name of READS) {
      expect(readNames).toContain(name);
      expect(writeNames).toContain(name);
    }
    for (const name of WRITES) {
      expect(readNames).not.toContain(name);
      expect(writeNames).toContain(name);
    }
  });

  it("answers as REST does: one keyword, run history, a draft edit, a config deletion", async () => {
    const kw = await callJson("/api/v1/keywords", { key: ws.writeKey, method: "POST", body: { keyword: "mcp" } });
    const one = await reader.callTool({ name: "get_keywords_id", arguments: { id: kw.body.id } });
    expect(one.structuredContent).toEqual(kw.body);

    const blog = newBlog("mcp-history");
    const config = await createConfig(ws, { blog_url: blog.feedUrl, subreddit: "rust", max_posts: 2 });
    const run = (await runConfig(ws, config.id, { publish: false })).body;
    const runs = await reader.callTool({ name: "get_blog_subreddit_syncs_id_runs", arguments: { id: config.id } });
    expect(runs.structuredContent).toEqual((await callJson(`${SYNCS}/${config.id}/runs`, { key: ws.readKey })).body);
    const record = await reader.callTool({
      name: "get_blog_subreddit_syncs_id_runs_run_id",
      arguments: { id: config.id, run_id: run.run.id },
    });
    expect((record.structuredContent as { items: unknown[] }).items).toHaveLength(2);

    const postId = run.items[0].synced_post_id;
    const edited = await writer.callTool({
      name: "patch_blog_subreddit_syncs_id_items_item_id",
      arguments: { id: config.id, item_id: postId, title: "Edited through MCP" },
    });
    expect(edited.structuredContent).toMatchObject({ id: postId, title: "Edited through MCP", edited: true });

    const deleted = await writer.callTool({ name: "delete_blog_subreddit_syncs_id", arguments: { id: config.id } });
    expect(deleted.isError).toBeFalsy();
    expect((await callJson(`${SYNCS}/${config.id}`, { key: ws.readKey })).status).toBe(404);
  });
});
