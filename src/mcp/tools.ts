import type { KeyScope } from "../auth/keys";
import { type Access, allows, type Grant } from "../auth/roles";
import { ROLE_EXTENSION, SCOPE_EXTENSION, TOOL_EXTENSION } from "../http/openapi";
import { isRole } from "../lib/role";
import { type SchemaObject, toJsonSchema } from "./json-schema";

/**
 * MCP tools derived from the OpenAPI document of /api/v1 (docs/mcp.md): one tool per operation, except the
 * ones marked `x-threadwatch-tool: false` (approval). Names, descriptions, input schemas and hints all
 * come from the document, so the tools and the documented API cannot disagree, and a new route is a new
 * tool with no code here.
 */

const METHODS = ["get", "post", "put", "patch", "delete"] as const;
type Method = (typeof METHODS)[number];

/** The argument that carries a request body which is not a JSON object (none today; kept general). */
const WHOLE_BODY_ARGUMENT = "body";

export interface ApiTool {
  name: string;
  description: string;
  /** Who may see and call it: the operation's entry of the roles table (src/auth/roles.ts), as documented. */
  access: Access;
  method: Method;
  /** The operation's path under /api/v1, as the document writes it: `/posts/{id}`. */
  path: string;
  inputSchema: {
    type: "object";
    properties: Record<string, SchemaObject>;
    required?: string[];
    additionalProperties: false;
  };
  annotations: { readOnlyHint: boolean; destructiveHint?: boolean; idempotentHint?: boolean };
  pathParams: readonly string[];
  queryParams: ReadonlySet<string>;
  /** How the body is built from the arguments: its properties (`fields`), one `body` argument, or none. */
  body: "none" | "fields" | "whole";
}

interface ParameterObject {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: unknown;
  $ref?: string;
}

interface OperationObject {
  summary?: string;
  description?: string;
  parameters?: ParameterObject[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: unknown }> };
  [extension: `x-${string}`]: unknown;
}

export interface OpenApiDocumentLike {
  paths?: Record<string, Partial<Record<string, unknown>>>;
  components?: { schemas?: Record<string, unknown>; parameters?: Record<string, ParameterObject> };
}

/**
 * Tool naming (docs/mcp.md): the method, then the path's segments without `actions`, hyphens and slashes as
 * underscores, path parameters by name. `POST /actions/blog-subreddit-syncs/{id}/run` →
 * `post_blog_subreddit_syncs_id_run`.
 */
export function toolName(method: string, path: string): string {
  const segments = path
    .split("/")
    .filter((segment) => segment !== "" && segment !== "actions")
    .map((segment) => segment.replace(/^\{(.+)\}$/, "$1").replace(/[-.]/g, "_"));
  return [method.toLowerCase(), ...segments].join("_");
}

/**
 * Hints from the HTTP method: reads are read-only; DELETE, PUT and PATCH overwrite or remove what exists
 * (destructive, and repeating them changes nothing more: idempotent); POST creates, checks or runs and
 * removes nothing. `openWorldHint` is left at the protocol's default (true): syncs read the open web and
 * forum checks reach the forum, and the method cannot tell which operations do.
 */
function hintsFor(method: Method): ApiTool["annotations"] {
  if (method === "get") return { readOnlyHint: true };
  if (method === "post") return { readOnlyHint: false, destructiveHint: false, idempotentHint: false };
  return { readOnlyHint: false, destructiveHint: true, idempotentHint: true };
}

function resolveParameter(parameter: ParameterObject, doc: OpenApiDocumentLike): ParameterObject {
  if (!parameter.$ref) return parameter;
  const name = parameter.$ref.replace("#/components/parameters/", "");
  const resolved = doc.components?.parameters?.[name];
  if (!resolved) throw new Error(`unresolvable parameter reference ${parameter.$ref}`);
  return resolved;
}

function buildTool(method: Method, path: string, operation: OperationObject, doc: OpenApiDocumentLike): ApiTool {
  const components = doc.components?.schemas ?? {};
  const name = toolName(method, path);
  const properties: Record<string, SchemaObject> = {};
  const required: string[] = [];
  const pathParams: string[] = [];
  const queryParams = new Set<string>();

  const addArgument = (argument: string, schema: SchemaObject, isRequired: boolean) => {
    if (argument in properties)
      throw new Error(`tool ${name}: argument "${argument}" is declared twice (path, query or body)`);
    properties[argument] = schema;
    if (isRequired) required.push(argument);
  };

  for (const raw of operation.parameters ?? []) {
    const parameter = resolveParameter(raw, doc);
    if (parameter.in !== "path" && parameter.in !== "query") continue;
    const schema = toJsonSchema(parameter.schema, components);
    if (parameter.description && schema.description === undefined) schema.description = parameter.description;
    addArgument(parameter.name, schema, parameter.in === "path" || parameter.required === true);
    if (parameter.in === "path") pathParams.push(parameter.name);
    else queryParams.add(parameter.name);
  }

  let body: ApiTool["body"] = "none";
  const bodySchema = operation.requestBody?.content?.["application/json"]?.schema;
  if (bodySchema !== undefined) {
    const schema = toJsonSchema(bodySchema, components);
    const bodyRequired = operation.requestBody?.required === true;
    if (schema.type === "object" && typeof schema.properties === "object" && schema.properties !== null) {
      body = "fields";
      const fieldsRequired = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
      for (const [field, fieldSchema] of Object.entries(schema.properties as Record<string, SchemaObject>)) {
        addArgument(field, fieldSchema, bodyRequired && fieldsRequired.has(field));
      }
    } else {
      body = "whole";
      addArgument(WHOLE_BODY_ARGUMENT, schema, bodyRequired);
    }
  }

  const scope: KeyScope = operation[SCOPE_EXTENSION] === "read" ? "read" : "read_write";
  const role = operation[ROLE_EXTENSION];
  return {
    name,
    description: [operation.summary ?? `${method.toUpperCase()} ${path}`, operation.description]
      .filter(Boolean)
      .join("\n\n"),
    // An operation that documents no role is for owners only (as the roles table treats one without an entry).
    access: { scope, role: isRole(role) ? role : "owner" },
    method,
    path,
    inputSchema: { type: "object", properties, ...(required.length ? { required } : {}), additionalProperties: false },
    annotations: hintsFor(method),
    pathParams,
    queryParams,
    body,
  };
}

/** Every tool of the document, in document order. Throws on a name or argument collision. */
export function toolsFromOpenApi(doc: OpenApiDocumentLike): ApiTool[] {
  const tools: ApiTool[] = [];
  const names = new Map<string, string>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item?.[method] as OperationObject | undefined;
      if (!operation || operation[TOOL_EXTENSION] === false) continue;
      const tool = buildTool(method, path, operation, doc);
      const clash = names.get(tool.name);
      if (clash)
        throw new Error(`tool name ${tool.name} is produced by both ${clash} and ${method.toUpperCase()} ${path}`);
      names.set(tool.name, `${method.toUpperCase()} ${path}`);
      tools.push(tool);
    }
  }
  return tools;
}

/**
 * The tools a key may see and call: those its scope and its role ceiling both allow, by the roles table's
 * rule (a read key gets read tools only; a viewer-ceiling read_write key no tool that changes anything).
 */
export const toolsFor = (tools: readonly ApiTool[], grant: Grant) => tools.filter((tool) => allows(tool.access, grant));
