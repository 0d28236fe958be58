import { expect, it } from "vitest";
import { type OpenApiDocumentLike, toolsFromOpenApi } from "../../src/mcp/tools";
import { callJson } from "../helpers/api";

it("readiness and publish preflight are tools with the names docs/mcp.md gives; approval and admin never are", async () => {
  const doc = (await callJson("/api/v1/openapi.json")).body as OpenApiDocumentLike;
  const names = toolsFromOpenApi(doc).map((t) => t.name);
  expect(names).toEqual(
    expect.arrayContaining([
      "get_blog_subreddit_syncs",
      "post_blog_subreddit_syncs_id_run",
      "post_blog_subreddit_syncs_id_readiness",
      "post_blog_subreddit_syncs_id_publish_preflight",
      "post_personas_connect",
      "get_personas",
      "delete_personas_id",
      "post_personas_id_preflight",
    ]),
  );
  // The cookie upload is gone; connecting is started by a tool but only completed by a person at the forum.
  expect(names.filter((n) => /session|^post_personas$/.test(n))).toEqual([]);
  expect(names.filter((n) => /approve|revoke/.test(n))).toEqual([]);
  // The approval route is documented (REST) but marked as no tool.
  expect(Object.keys((doc as any).paths)).toContain("/actions/blog-subreddit-syncs/{id}/items/{item_id}/approve");
});
