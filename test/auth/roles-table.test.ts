// The roles table (src/auth/roles.ts) against what the product promises (docs/security.md, "Roles"): every
// API operation of the OpenAPI document and every console action behind sign-in, tried by every role and key
// scope. The expectations are written here from the rules, not read from the table; an operation or action
// without an entry in the table fails the first two cases.
import { describe, expect, it } from "vitest";
import { API_OPERATIONS, CONSOLE_OPERATIONS } from "../../src/auth/roles";
import { createConsoleRouter } from "../../src/console/router";
import { ROLES, type Role } from "../../src/lib/role";
import { toolName } from "../../src/mcp/tools";
import { createApiRouter, openApiDocument } from "../../src/routes/api";
import { call, createTestWorkspace } from "../helpers/api";
import { type FormSession, getPage, postForm, signedIn } from "../helpers/console-client";
import { connectClient } from "../helpers/mcp-client";
import { addMember, keyWith, signInAs } from "../helpers/people";

type Scope = "read" | "read_write";
const SCOPES: Scope[] = ["read", "read_write"];
const METHODS = ["get", "post", "put", "patch", "delete"];

const document = openApiDocument(createApiRouter()) as { paths: Record<string, Record<string, unknown>> };
const apiOperations = Object.entries(document.paths).flatMap(([path, ops]) =>
  Object.keys(ops)
    .filter((m) => METHODS.includes(m))
    .map((m) => `${m.toUpperCase()} ${path}`),
);

/** Console routes that need no session: assets, sign-in and accepting an invitation. */
const PUBLIC = new Set([
  "GET /",
  "GET /assets/console.css",
  "GET /assets/console.js",
  "GET /sign-in",
  "POST /sign-in",
  "POST /sign-in/password",
  "POST /sign-in/passkey/options",
  "POST /sign-in/passkey",
  "GET /invitations/:token",
  "POST /invitations/:token",
]);
const consoleActions = [
  ...new Set(
    createConsoleRouter()
      .routes.filter((r) => r.method !== "ALL")
      .map((r) => `${r.method} ${r.path}`),
  ),
].filter((op) => !PUBLIC.has(op));

const atLeast = (role: Role, least: Role) => ROLES.indexOf(role) >= ROLES.indexOf(least);

/** What SPEC-level rules promise an API caller with this scope and role ceiling. */
function apiMayDo(op: string, scope: Scope, role: Role): boolean {
  const [method, path] = op.split(" ") as [string, string];
  if (method === "GET" && path !== "/actions/audit-events") return true; // a viewer sees everything
  if (scope !== "read_write") return false; // a read key changes nothing, nor reads the audit trail
  const adminOnly =
    path.startsWith("/actions/members") ||
    path === "/actions/audit-events" ||
    (path.startsWith("/actions/webhooks") && method !== "GET");
  return adminOnly ? atLeast(role, "admin") : atLeast(role, "member");
}

/** The same for a console session: a person's (scope read_write) or a key's. */
function consoleMayDo(op: string, grant: { scope: Scope; role: Role; person: boolean }): boolean {
  const [method, path] = op.split(" ") as [string, string];
  if (path.startsWith("/settings/account") || path === "/workspace") return grant.person;
  if (path === "/settings/members") return atLeast(grant.role, "admin");
  if (path.startsWith("/settings/members") || path === "/settings/audit")
    return grant.scope === "read_write" && atLeast(grant.role, "admin");
  if (method === "GET" || path === "/sign-out") return true;
  if (path.startsWith("/settings/api/keys")) return grant.scope === "read_write"; // a viewer makes read keys
  return grant.scope === "read_write" && atLeast(grant.role, "member");
}

const probePath = (path: string) => path.replace(/\{[a-z_]+\}|:[a-z_]+/g, "999999999");

describe("the roles table", () => {
  it("has an entry for every API operation of the OpenAPI document, and none for an operation that is not", () => {
    expect(apiOperations.filter((op) => !(op in API_OPERATIONS))).toEqual([]);
    expect(Object.keys(API_OPERATIONS).filter((op) => !apiOperations.includes(op))).toEqual([]);
    // Each operation documents the scope the table gives it.
    for (const [path, ops] of Object.entries(document.paths))
      for (const [method, op] of Object.entries(ops as Record<string, Record<string, unknown>>))
        expect(op["x-threadwatch-scope"], `${method} ${path}`).toBe(
          API_OPERATIONS[`${method.toUpperCase()} ${path}`]!.scope,
        );
  });

  it("has an entry for every console action behind sign-in, and none for an action that is not", () => {
    expect(consoleActions.filter((op) => !(op in CONSOLE_OPERATIONS))).toEqual([]);
    expect(Object.keys(CONSOLE_OPERATIONS).filter((op) => !consoleActions.includes(op))).toEqual([]);
  });

  it("lets every API caller do exactly what its scope and role ceiling allow (403 forbidden otherwise)", async () => {
    const w = await createTestWorkspace("roles api");
    const mismatches: string[] = [];
    for (const role of ROLES)
      for (const scope of SCOPES) {
        const key = await keyWith(w.id, scope, role);
        for (const op of apiOperations) {
          const [method, path] = op.split(" ") as [string, string];
          // An unknown query parameter: refused by validation (400) once the caller is let in, so nothing runs.
          const res = await call(`/api/v1${probePath(path)}?__probe=1`, { key, method });
          const body = (await res.json()) as { error: { code: string } };
          const allowed = apiMayDo(op, scope, role);
          const got = res.status === 403 && body.error.code === "forbidden" ? "refused" : "let in";
          if ((got === "let in") !== allowed || (allowed && res.status !== 400))
            mismatches.push(`${op} ${scope}/${role}: ${res.status} ${body.error.code}`);
        }
      }
    expect(mismatches).toEqual([]);
  }, 120_000);

  it("lists and lets call exactly the MCP tools each key's scope and role ceiling allow (403 forbidden otherwise)", async () => {
    const w = await createTestWorkspace("roles mcp");
    // Every operation that is a tool (approval and people are not: docs/mcp.md), by the same rules as REST.
    const tools = apiOperations.filter((op) => {
      const [method, path] = op.split(" ") as [string, string];
      return (document.paths[path]![method.toLowerCase()] as Record<string, unknown>)["x-threadwatch-tool"] !== false;
    });
    expect(tools.length).toBeGreaterThan(40);
    const mismatches: string[] = [];
    for (const role of ROLES)
      for (const scope of SCOPES) {
        const client = await connectClient(await keyWith(w.id, scope, role));
        const listed = new Set((await client.listTools()).tools.map((t) => t.name));
        for (const op of tools) {
          const [method, path] = op.split(" ") as [string, string];
          const name = toolName(method, path);
          const allowed = apiMayDo(op, scope, role);
          if (listed.has(name) !== allowed) mismatches.push(`${name} ${scope}/${role}: listed ${listed.has(name)}`);
          // An unknown argument: refused by validation (400) once let in, so nothing runs; else 403 forbidden.
          const args: Record<string, unknown> = { __probe: 1 };
          for (const p of path.matchAll(/\{([a-z_]+)\}/g)) args[p[1]!] = 999999999;
          const result = await client.callTool({ name, arguments: args });
          const status = result._meta?.["threadwatch/status"];
          const code = (result.structuredContent as { error?: { code: string } } | undefined)?.error?.code;
          if (allowed ? status !== 400 : status !== 403 || code !== "forbidden")
            mismatches.push(`${name} ${scope}/${role}: called ${status} ${code}`);
        }
        await client.close();
      }
    expect(mismatches).toEqual([]);
  }, 180_000);

  it("lets every console session do exactly what its person's role, or its key's scope and ceiling, allow", async () => {
    const w = await createTestWorkspace("roles console");
    const sessions: {
      name: string;
      grant: { scope: Scope; role: Role; person: boolean };
      open: () => Promise<FormSession>;
    }[] = [];
    for (const role of ROLES) {
      const email = `${role}@roles.test`;
      await addMember(w.id, role, email);
      sessions.push({
        name: `person ${role}`,
        grant: { scope: "read_write", role, person: true },
        open: () => signInAs(email),
      });
      for (const scope of SCOPES) {
        const key = await keyWith(w.id, scope, role);
        sessions.push({
          name: `key ${scope}/${role}`,
          grant: { scope, role, person: false },
          open: () => signedIn(key),
        });
      }
    }
    // Signing out ends the session, so it is tried last.
    const ordered = [...consoleActions.filter((op) => op !== "POST /sign-out"), "POST /sign-out"];
    const mismatches: string[] = [];
    for (const s of sessions) {
      const form = await s.open();
      for (const op of ordered) {
        const [method, path] = op.split(" ") as [string, string];
        const res =
          method === "GET"
            ? await getPage(`/app${probePath(path)}`, form.cookie)
            : await postForm(`/app${probePath(path)}`, form, {});
        const text = await res.text();
        const refused = res.status === 403 && /your role|role ceiling|read-only key|person's own account/.test(text);
        if (refused === consoleMayDo(op, s.grant))
          mismatches.push(`${op} ${s.name}: ${res.status} ${text.slice(0, 120)}`);
      }
    }
    expect(mismatches).toEqual([]);
  }, 180_000);
});
