// The MCP server's `instructions`, generated from the tools the caller actually has: a step whose tool
// does not exist (yet, or for this key's scope) is left out, so the text never names a tool that is not in
// tools/list. New routes join the recommended order by being listed here; their tools appear once the
// route exists.
import type { ApiTool } from "./tools";

/** The blog-sync order of the interface (docs/mcp.md), each step with what to pass. */
export const SYNC_STEPS: readonly { tool: string; note?: string }[] = [
  { tool: "get_blog_subreddit_syncs" },
  { tool: "post_blog_subreddit_syncs_id_run", note: "with dry_run=true" },
  { tool: "post_blog_subreddit_syncs_id_readiness" },
  { tool: "post_blog_subreddit_syncs_id_publish_preflight", note: "for one selected synced post" },
];

export function mcpInstructions(tools: readonly Pick<ApiTool, "name">[]): string {
  const names = new Set(tools.map((t) => t.name));
  const steps = SYNC_STEPS.filter((step) => names.has(step.tool)).map((step) =>
    step.note ? `${step.tool} ${step.note}` : step.tool,
  );
  return [
    "threadwatch: forum monitoring (posts matching the workspace's keywords and competitors) and " +
      "blog-to-subreddit sync. Every tool is one operation of the REST API at /api/v1 and returns its JSON.",
    ...(steps.length > 0 ? [`Blog sync, in the recommended order: ${steps.join("; ")}.`] : []),
    "Approving a post for publication is for a person, not a tool.",
  ].join(" ");
}
