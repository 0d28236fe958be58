// The read benchmark's reference (never deployed): exactly the statements GET /api/v1/posts runs for a
// workspace and filters (src/db/posts-query.ts, run by the same runPostsQueries), rows returned as JSON. No framework, no
// validation, no auth, no serialization beyond JSON.stringify. It also answers the rows D1 read
// (`meta.rows_read`, summed over the batch), which the service never exposes.
//
// GET /posts?ws=<workspace id>&f=<PostFilters as JSON>  ->  {rows, count, rows_read, rows_returned}
// GET /sql?q=<one statement>[&p=<its parameters as a JSON array>]  ->  {rows_read, rows}
// GET /insights/mentions?ws=&kind=&from=&to=  ->  what mentionDayCounts read (npm run bench:insights)
// GET /insights/opportunities?ws=&limit=&offset=  ->  what listOpportunities read
import { workspaceDb } from "../../src/db/client";
import { listOpportunities, type MentionKind, mentionDayCounts } from "../../src/db/insights";
import { buildPostsQueries, type PostFilters, runOnD1, runPostsQueries } from "../../src/db/posts-query";

interface Env {
  DB: D1Database;
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === "/") return new Response("ok");
    if (url.pathname === "/sql") {
      // One ad-hoc statement and what it read (for studying a query's cost while tuning it).
      const params = JSON.parse(url.searchParams.get("p") ?? "[]") as (string | number)[];
      const r = await env.DB.prepare(url.searchParams.get("q") ?? "")
        .bind(...params)
        .all();
      return Response.json({ rows_read: r.meta.rows_read, rows: r.results });
    }
    const param = (name: string) => url.searchParams.get(name) ?? "";
    if (url.pathname === "/insights/mentions") {
      const w = workspaceDb(env, Number(param("ws")));
      const r = await mentionDayCounts(w, param("kind") as MentionKind, param("from"), param("to"));
      return Response.json({ rows_read: r.rowsRead, rows_returned: r.rows.length });
    }
    if (url.pathname === "/insights/opportunities") {
      const w = workspaceDb(env, Number(param("ws")));
      const r = await listOpportunities(w, { limit: Number(param("limit")), offset: Number(param("offset")) });
      return Response.json({ rows_read: r.rowsRead, rows_returned: r.data.length, count: r.count });
    }
    if (url.pathname !== "/posts") return new Response("not found", { status: 404 });
    const workspaceId = Number(url.searchParams.get("ws"));
    const filters = JSON.parse(url.searchParams.get("f") ?? "{}") as PostFilters;
    const q = buildPostsQueries(workspaceId, filters);
    const page = await runPostsQueries(q, filters, runOnD1(env.DB));
    return Response.json({
      rows: page.rows,
      count: page.count,
      count_is_estimate: page.countIsEstimate,
      rows_read: page.rowsRead,
      rows_returned: page.rows.length,
    });
  },
} satisfies ExportedHandler<Env>;
