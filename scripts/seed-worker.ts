// The worker behind `npm run seed`, the demo workspace of `npm start` and the benchmarks' seeding: the
// seeding module of the product (scripts/seed/workspace.ts, writing through src/db) inside workerd, bound to
// the local D1 database. POST /seed {name, posts, seed, key_label, extra_read_keys} makes a workspace with
// synthetic content; POST /keys {workspace_id, key_label, keys?} issues a new read_write and read key, or
// exactly the keys listed in `keys` ([{name, scope}]).
import { issueKeys, seedKeys, seedWorkspace, syntheticContent } from "./seed/workspace";

interface Env {
  DB: D1Database;
}

interface SeedRequest {
  name: string;
  posts: number;
  seed: number;
  key_label: string;
  extra_read_keys?: number;
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const path = new URL(request.url).pathname;
    try {
      if (request.method === "POST" && path === "/seed") {
        const input = (await request.json()) as SeedRequest;
        const started = performance.now();
        const seeded = await seedWorkspace(env, {
          name: input.name,
          keys: seedKeys(input.key_label, input.extra_read_keys ?? 0),
          content: syntheticContent(input.posts, input.seed),
        });
        return Response.json({
          workspace_id: seeded.workspaceId,
          keys: seeded.keys,
          posts: seeded.postIds.length,
          elapsed_ms: Math.round(performance.now() - started),
        });
      }
      if (request.method === "POST" && path === "/keys") {
        const input = (await request.json()) as {
          workspace_id: number;
          key_label: string;
          keys?: { name: string; scope: "read" | "read_write" }[];
        };
        return Response.json({
          keys: await issueKeys(env, input.workspace_id, input.keys ?? seedKeys(input.key_label)),
        });
      }
      return Response.json({ error: "not found" }, { status: 404 });
    } catch (err) {
      return Response.json({ error: err instanceof Error ? err.message : String(err) }, { status: 500 });
    }
  },
} satisfies ExportedHandler<Env>;
