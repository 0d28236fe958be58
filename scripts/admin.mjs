#!/usr/bin/env node
// npm run admin -- <command>: the operator CLI over /admin/v1 (workspaces, API keys and personas).
import { EXIT_FAILED, integerOption, parseCommandLine, runMain, UsageError } from "./lib/cli.mjs";
import { adminConnection, baseUrlProblem } from "./lib/cli-settings.mjs";
import { readDevVars } from "./lib/dev-vars.mjs";

const USAGE = `usage: npm run admin -- <command> [options]

commands:
  workspaces create NAME
  workspaces list
  keys create WORKSPACE_ID --name NAME --scope read|read_write [--expires-in SECONDS]
                      (a temporary key: 60 to 7776000 seconds, i.e. up to 90 days)
  keys list WORKSPACE_ID
  keys revoke WORKSPACE_ID KEY_ID
  members invite WORKSPACE_ID EMAIL --role owner|admin|member|viewer
                      (a single-use link, 7 days: the way to make a workspace's first owner)
  personas list WORKSPACE_ID
  personas approve WORKSPACE_ID PERSONA_ID   (approved for the customer: allows publishing)
  personas revoke WORKSPACE_ID PERSONA_ID

options:
  --base-url URL      the service (default: $THREADWATCH_BASE_URL, then http://localhost:8787)
  --admin-token T     admin bearer token (default: $THREADWATCH_ADMIN_TOKEN, then $ADMIN_TOKEN, then
                      ADMIN_TOKEN in .dev.vars)
  --json              print the API's JSON response instead of text
  -h, --help          this help

exit codes: 0 done, 1 the service refused or failed (its error is printed), 2 wrong command line,
3 the service could not be reached.`;

const EXIT_UNREACHABLE = 3;
/** What the API accepts as `expires_in_seconds` (src/routes/admin.ts): one minute to 90 days. */
const MIN_EXPIRES_IN_SECONDS = 60;
const MAX_EXPIRES_IN_SECONDS = 90 * 24 * 3600;
const REQUEST_TIMEOUT_MS = 15_000;

class CliError extends Error {
  constructor(message, exitCode) {
    super(message);
    this.exitCode = exitCode;
  }
}

const idArgument = (label, value) => {
  if (value === undefined) throw new UsageError(`missing ${label}`);
  if (!/^[1-9]\d*$/.test(value))
    throw new UsageError(`${label} must be a positive whole number (got ${JSON.stringify(value)})`);
  return Number(value);
};

const table = (headers, rows) => {
  const cells = [headers, ...rows.map((r) => r.map((v) => (v === null || v === undefined ? "-" : String(v))))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  return cells
    .map((r) =>
      r
        .map((v, i) => v.padEnd(widths[i]))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
};

const keyStatus = (k) =>
  k.revoked_at ? "revoked" : k.expires_at && new Date(k.expires_at) <= new Date() ? "expired" : "active";

/** Each command: how many arguments it takes (arity), which command options it allows, the request, the text output. */
const COMMANDS = {
  "workspaces create": {
    usage: "workspaces create NAME",
    arity: 1,
    request: ([name]) => {
      if (!name?.trim()) throw new UsageError("missing NAME");
      return { method: "POST", path: "/workspaces", body: { name } };
    },
    print: (w) => `created workspace ${w.id} "${w.name}" at ${w.created_at}`,
  },
  "workspaces list": {
    usage: "workspaces list",
    arity: 0,
    request: () => ({ method: "GET", path: "/workspaces" }),
    print: ({ data }) =>
      data.length === 0
        ? "no workspaces"
        : table(
            ["ID", "NAME", "CREATED"],
            data.map((w) => [w.id, w.name, w.created_at]),
          ),
  },
  "keys create": {
    usage: "keys create WORKSPACE_ID --name NAME --scope read|read_write [--expires-in SECONDS]",
    arity: 1,
    options: ["name", "scope", "expires-in"],
    request: ([workspace], o) => {
      const workspaceId = idArgument("WORKSPACE_ID", workspace);
      if (!o.name?.trim()) throw new UsageError("--name is required");
      if (o.scope !== "read" && o.scope !== "read_write") throw new UsageError("--scope must be read or read_write");
      const body = { name: o.name, scope: o.scope };
      if (o["expires-in"] !== undefined)
        body.expires_in_seconds = integerOption("expires-in", o["expires-in"], {
          min: MIN_EXPIRES_IN_SECONDS,
          max: MAX_EXPIRES_IN_SECONDS,
        });
      return { method: "POST", path: `/workspaces/${workspaceId}/keys`, body };
    },
    print: (k) =>
      [
        `created ${k.scope} key ${k.id} "${k.name}" for workspace ${k.workspace_id}${k.expires_at ? `, expires ${k.expires_at}` : ""}`,
        `key: ${k.key}`,
        "(shown only now: the service keeps only its SHA-256 digest)",
      ].join("\n"),
  },
  "keys list": {
    usage: "keys list WORKSPACE_ID",
    arity: 1,
    request: ([workspace]) => ({ method: "GET", path: `/workspaces/${idArgument("WORKSPACE_ID", workspace)}/keys` }),
    print: ({ data }) =>
      data.length === 0
        ? "no keys"
        : table(
            ["ID", "NAME", "PREFIX", "SCOPE", "STATUS", "EXPIRES", "LAST USED", "CREATED"],
            data.map((k) => [
              k.id,
              k.name,
              k.prefix,
              k.scope,
              keyStatus(k),
              k.expires_at,
              k.last_used_at,
              k.created_at,
            ]),
          ),
  },
  "keys revoke": {
    usage: "keys revoke WORKSPACE_ID KEY_ID",
    arity: 2,
    request: ([workspace, key]) => ({
      method: "DELETE",
      path: `/workspaces/${idArgument("WORKSPACE_ID", workspace)}/keys/${idArgument("KEY_ID", key)}`,
    }),
    print: (k) => `revoked key ${k.id} "${k.name}" (${k.prefix}…) of workspace ${k.workspace_id} at ${k.revoked_at}`,
  },
  "personas list": {
    usage: "personas list WORKSPACE_ID",
    arity: 1,
    request: ([workspace]) => ({
      method: "GET",
      path: `/workspaces/${idArgument("WORKSPACE_ID", workspace)}/personas`,
    }),
    print: ({ data }) =>
      data.length === 0
        ? "no personas"
        : table(
            ["ID", "USERNAME", "ACTIVE", "AUTH", "BROWSER", "APPROVED", "LAST CHECKED", "LAST ERROR"],
            data.map((p) => [
              p.id,
              p.username,
              p.active,
              p.auth_completed,
              p.browser_ready,
              p.approved,
              p.last_checked_at,
              p.last_error,
            ]),
          ),
  },
  "members invite": {
    usage: "members invite WORKSPACE_ID EMAIL --role owner|admin|member|viewer",
    arity: 2,
    options: ["role"],
    request: ([workspace, email], o) => {
      const workspaceId = idArgument("WORKSPACE_ID", workspace);
      if (!email?.includes("@")) throw new UsageError("EMAIL must be an email address");
      if (!["owner", "admin", "member", "viewer"].includes(o.role))
        throw new UsageError("--role must be owner, admin, member or viewer");
      return { method: "POST", path: `/workspaces/${workspaceId}/invitations`, body: { email, role: o.role } };
    },
    print: ({ invitation, url }) =>
      [
        `invited ${invitation.email} as ${invitation.role} (invitation ${invitation.id}, until ${invitation.expires_at})`,
        `link: ${url}`,
        "(single use; shown only now: the service keeps only its SHA-256 digest)",
      ].join("\n"),
  },
  "personas approve": {
    usage: "personas approve WORKSPACE_ID PERSONA_ID",
    arity: 2,
    request: ([workspace, persona]) => ({
      method: "POST",
      path: `/workspaces/${idArgument("WORKSPACE_ID", workspace)}/personas/${idArgument("PERSONA_ID", persona)}/approve`,
    }),
    print: (p) => `approved persona ${p.id} (u/${p.username}) for the customer`,
  },
  "personas revoke": {
    usage: "personas revoke WORKSPACE_ID PERSONA_ID",
    arity: 2,
    request: ([workspace, persona]) => ({
      method: "POST",
      path: `/workspaces/${idArgument("WORKSPACE_ID", workspace)}/personas/${idArgument("PERSONA_ID", persona)}/revoke`,
    }),
    print: (p) => `revoked the approval of persona ${p.id} (u/${p.username})`,
  },
};

function adminToken(token) {
  if (!token)
    throw new UsageError(
      "no admin token: pass --admin-token, set THREADWATCH_ADMIN_TOKEN (or ADMIN_TOKEN), or run `npm start` once to create .dev.vars",
    );
  return token;
}

/** The service's error body (docs/api.md, "Errors") as lines of text. */
function describeError(status, body) {
  const e = body?.error;
  if (!e) return `the service answered ${status} without an error body`;
  const lines = [`${status} ${e.code}: ${e.message}${e.request_id ? ` (request ${e.request_id})` : ""}`];
  for (const d of e.details ?? []) lines.push(`  ${d.path ?? ""}: ${d.message ?? JSON.stringify(d)}`);
  return lines.join("\n");
}

async function callAdmin(baseUrl, token, { method, path, body }) {
  const url = `${baseUrl.replace(/\/+$/, "")}/admin/v1${path}`;
  let res;
  try {
    res = await fetch(url, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (err) {
    const reason = err?.cause?.code ?? err?.cause?.message ?? err?.message ?? String(err);
    throw new CliError(`cannot reach ${url} (${reason}); is the service running? (npm start)`, EXIT_UNREACHABLE);
  }
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (!res.ok) throw new CliError(describeError(res.status, json), EXIT_FAILED);
  if (json === undefined)
    throw new CliError(`the service answered ${res.status} with a body that is not JSON`, EXIT_FAILED);
  return json;
}

runMain(async () => {
  const { values, positionals } = parseCommandLine(
    process.argv.slice(2),
    {
      "base-url": { type: "string" },
      "admin-token": { type: "string" },
      json: { type: "boolean", default: false },
      name: { type: "string" },
      scope: { type: "string" },
      "expires-in": { type: "string" },
    },
    { allowPositionals: true },
  );
  if (positionals.length === 0) throw new UsageError("missing command");
  const commandName = positionals.slice(0, 2).join(" ");
  const command = COMMANDS[commandName];
  if (!command) throw new UsageError(`unknown command "${commandName}"`);
  const args = positionals.slice(2);
  const commandUsage = `usage: npm run admin -- ${command.usage}`;
  if (args.length > command.arity) throw new UsageError(`unexpected argument "${args[command.arity]}"`, commandUsage);
  for (const option of ["name", "scope", "expires-in"]) {
    if (values[option] !== undefined && !command.options?.includes(option))
      throw new UsageError(`--${option} does not apply to this command`, commandUsage);
  }
  const connection = adminConnection(
    { baseUrl: values["base-url"], adminToken: values["admin-token"] },
    process.env,
    values["admin-token"] || process.env.THREADWATCH_ADMIN_TOKEN || process.env.ADMIN_TOKEN ? {} : readDevVars(),
  );
  const problem = baseUrlProblem(connection.baseUrl);
  if (problem)
    throw new UsageError(`${values["base-url"] !== undefined ? "--base-url" : "THREADWATCH_BASE_URL"} ${problem}`);
  let request;
  try {
    request = command.request(args, values);
  } catch (err) {
    // A mistake in one command's arguments: show that command's usage, not the whole help.
    if (err instanceof UsageError) throw new UsageError(err.message, commandUsage);
    throw err;
  }
  const result = await callAdmin(connection.baseUrl, adminToken(connection.token), request);
  console.log(values.json ? JSON.stringify(result) : command.print(result));
  return 0;
}, USAGE);
