// No endpoint, tool or command changes or deletes an audit event (docs/security.md, "The audit trail"): every
// operation of the OpenAPI document, every MCP tool, every console action and every admin route is called by
// an owner with each path parameter set to an existing event's id, and then every method on the trail's own
// path and below it. Afterwards every event that was there before is there byte for byte (new ones may be
// appended), nothing answered 5xx (a route that tried to change an event would meet the table's triggers), and
// nothing under the trail's path but its one GET exists.
//
// Checked to fail: with a `DELETE /actions/audit-events/{id}` route added to src/routes/audit.ts (deleting the
// row by id), the case fails on the document listing it, on the tool it becomes and on its 500 (the triggers
// refuse the DELETE); the route was not kept.
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { CONSOLE_OPERATIONS } from "../../src/auth/roles";
import { adminRouter } from "../../src/routes/admin";
import { adminPersonasRouter } from "../../src/routes/admin-personas";
import { createWebhook } from "../helpers/alerts";
import { ADMIN_TOKEN, call, callJson, createTestWorkspace } from "../helpers/api";
import { newBlog } from "../helpers/blogs";
import { getPage, postForm } from "../helpers/console-client";
import { connectClient } from "../helpers/mcp-client";
import { addMember, PASSWORD, signInAs } from "../helpers/people";

const METHODS = ["get", "post", "put", "patch", "delete"];

/** Every row of the trail, each as its exact stored text. */
async function trail(): Promise<Map<number, string>> {
  const { results } = await env.DB.prepare("SELECT * FROM audit_events ORDER BY id").all<{ id: number }>();
  return new Map(results.map((row) => [row.id, JSON.stringify(row)]));
}

/** The events before that are missing or changed now. */
async function changedSince(before: Map<number, string>): Promise<string[]> {
  const after = await trail();
  return [...before].filter(([id, row]) => after.get(id) !== row).map(([id]) => `event ${id}`);
}

/** Bodies a caller might try to rewrite an event with. */
const REWRITE = { action: "member.joined", actor: { type: "system", id: null, name: "x" }, details: {}, note: "x" };

it("lets no API operation, tool, console action or admin route change or delete an event", async () => {
  const ws = await createTestWorkspace("audit immutable");
  // Events of several kinds to aim at.
  await callJson("/api/v1/actions/members/invitations", {
    key: ws.writeKey,
    method: "POST",
    body: { email: "invited@immutable.test", role: "viewer" },
  });
  await createWebhook(ws.writeKey, { url: "https://hooks.example/immutable", events: ["post.created"] });
  await callJson("/api/v1/actions/blog-subreddit-syncs", {
    key: ws.writeKey,
    method: "POST",
    body: { blog_url: newBlog().feedUrl, subreddit: "r/immutable" },
  });
  await callJson("/api/v1/actions/monitoring/exclusions", {
    key: ws.writeKey,
    method: "PUT",
    body: { terms: ["x"], subreddits: [], authors: [] },
  });
  const before = await trail();
  expect(before.size).toBeGreaterThanOrEqual(4);
  const target = String([...before.keys()][0]);
  const withIds = (path: string) => path.replace(/\{[a-z_]+\}|:[a-z_]+/g, target);
  const failures: string[] = [];
  const judge = async (what: string, status: number) => {
    if (status >= 500) failures.push(`${what}: ${status}`);
    // The owner's key stays valid through the API and tool sweeps (nothing there revokes it): each call got in.
    if (status === 401 && !what.startsWith("admin")) failures.push(`${what}: 401, the sweep lost its key`);
    for (const changed of await changedSince(before)) failures.push(`${what} changed ${changed}`);
  };

  // The API: every documented operation, and none of them writes on the trail's path.
  const { body: doc } = await callJson("/api/v1/openapi.json");
  const operations = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((m) => METHODS.includes(m))
      .map((m) => ({ method: m.toUpperCase(), path })),
  );
  expect(operations.filter((op) => /audit/.test(op.path) && op.method !== "GET")).toEqual([]);
  for (const op of operations) {
    const body = op.method === "GET" || op.method === "DELETE" ? undefined : REWRITE;
    const res = await call(`/api/v1${withIds(op.path)}`, { key: ws.writeKey, method: op.method, body });
    await judge(`${op.method} ${op.path}`, res.status);
  }

  // The trail's own path and anything below it: only the GET of the list exists.
  for (const path of [
    "/actions/audit-events",
    `/actions/audit-events/${target}`,
    `/actions/audit-events/${target}/details`,
    "/actions/audit-events/all",
    `/audit-events/${target}`,
  ])
    for (const method of ["POST", "PUT", "PATCH", "DELETE", ...(path === "/actions/audit-events" ? [] : ["GET"])]) {
      const res = await call(`/api/v1${path}`, {
        key: ws.writeKey,
        method,
        body: method === "GET" || method === "DELETE" ? undefined : REWRITE,
      });
      if (res.status !== 404 && res.status !== 405) failures.push(`${method} ${path}: ${res.status}, not absent`);
      await judge(`${method} ${path}`, res.status);
    }

  // MCP: every tool the owner's key has, and tools that would write on the trail do not exist.
  const client = await connectClient(ws.writeKey);
  const { tools } = await client.listTools();
  expect(tools.filter((t) => /audit/.test(t.name)).map((t) => [t.name, t.annotations?.readOnlyHint])).toEqual([
    ["get_audit_events", true],
  ]);
  for (const tool of tools) {
    const args: Record<string, unknown> = { ...REWRITE };
    for (const name of Object.keys(tool.inputSchema.properties ?? {}))
      if (/id$/.test(name)) args[name] = Number(target);
    const result = await client.callTool({ name: tool.name, arguments: args });
    await judge(`tool ${tool.name}`, Number(result._meta?.["threadwatch/status"] ?? 0));
  }
  for (const name of ["delete_audit_events_id", "patch_audit_events_id", "put_audit_events_id", "post_audit_events"]) {
    const result = await client.callTool({ name, arguments: { id: Number(target) } });
    expect((result.structuredContent as { error: { code: string } }).error.code, name).toBe("not_found");
  }
  await client.close();

  // The console: every action, each in a fresh session of an owner (an action may end the session it ran
  // in), and no action on Settings > Audit.
  await addMember(ws.id, "owner", "owner@immutable.test", "Olive Owner");
  const owner = () => signInAs("owner@immutable.test", PASSWORD, "/app/settings/audit");
  expect((await getPage("/app/settings/audit", (await owner()).cookie)).status).toBe(200);
  const absent = ["POST /settings/audit", "POST /settings/audit/:id", "POST /settings/audit/:id/delete"];
  for (const op of [...absent, ...Object.keys(CONSOLE_OPERATIONS).filter((o) => o.startsWith("POST "))]) {
    const path = `/app${withIds(op.slice("POST ".length))}`;
    const res = await postForm(path, await owner(), { action: "member.joined", details: "{}", id: target });
    if (absent.includes(op) && res.status !== 404 && res.status !== 405)
      failures.push(`${op}: ${res.status}, not absent`);
    await judge(`console ${op}`, res.status);
  }

  // The admin API (what `npm run admin` calls), every route, last: it may revoke the keys used above.
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const adminRoutes = [...adminRouter.routes, ...adminPersonasRouter.routes].filter((r) => r.method !== "ALL");
  expect(adminRoutes.length).toBeGreaterThanOrEqual(8);
  for (const route of adminRoutes) {
    const path = `/admin/v1${route.path.replace(":workspace_id", String(ws.id))}`;
    const body = route.method === "GET" || route.method === "DELETE" ? undefined : REWRITE;
    const res = await call(withIds(path), { method: route.method, headers: admin, body });
    await judge(`admin ${route.method} ${route.path}`, res.status);
  }
  for (const method of ["POST", "PUT", "PATCH", "DELETE", "GET"]) {
    const res = await call(`/admin/v1/workspaces/${ws.id}/audit-events/${target}`, { method, headers: admin });
    if (res.status !== 404 && res.status !== 405) failures.push(`admin ${method} audit-events: ${res.status}`);
  }

  expect(failures).toEqual([]);
  // Appended, never rewritten: after the sweep an action still appends its event, and every earlier row is as
  // it was. (What the sweep itself appends depends on which of its ids happen to name something.)
  const afterSweep = await trail();
  const invited = await call(`/admin/v1/workspaces/${ws.id}/invitations`, {
    method: "POST",
    headers: admin,
    body: { email: "after-sweep@immutable.test", role: "viewer" },
  });
  expect(invited.status).toBe(201);
  const last = await trail();
  expect(last.size).toBe(afterSweep.size + 1);
  expect(JSON.parse([...last.values()].at(-1)!)).toMatchObject({ action: "member.invited" });
  expect(await changedSince(before)).toEqual([]);
}, 300_000);
