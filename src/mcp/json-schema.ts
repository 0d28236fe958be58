/**
 * OpenAPI 3.0 schema objects → plain JSON Schema (what an MCP tool's `inputSchema` is), with every
 * `$ref` into `components.schemas` inlined. The differences handled are the ones 3.0 has from JSON
 * Schema: `nullable`, boolean `exclusiveMinimum`/`exclusiveMaximum`, the single `example`, and the
 * vendor extensions (`x-...`) that mean nothing to a tool client.
 */
export type SchemaObject = Record<string, unknown>;

const REF_PREFIX = "#/components/schemas/";
const SUBSCHEMA_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems"] as const;
const SUBSCHEMAS = ["items", "not", "additionalProperties"] as const;
const DROPPED = new Set(["nullable", "example", "discriminator", "xml", "externalDocs"]);

const isObject = (value: unknown): value is SchemaObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export function toJsonSchema(
  schema: unknown,
  components: Record<string, unknown>,
  resolving: readonly string[] = [],
): SchemaObject {
  if (!isObject(schema)) return {};
  if (typeof schema.$ref === "string") {
    const name = schema.$ref.startsWith(REF_PREFIX) ? schema.$ref.slice(REF_PREFIX.length) : undefined;
    // A self-referencing schema stops at its second visit rather than recursing forever.
    if (!name || !(name in components) || resolving.includes(name)) return {};
    return toJsonSchema(components[name], components, [...resolving, name]);
  }

  const out: SchemaObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED.has(key) || key.startsWith("x-")) continue;
    if (key === "properties" && isObject(value)) {
      out.properties = Object.fromEntries(
        Object.entries(value).map(([name, sub]) => [name, toJsonSchema(sub, components, resolving)]),
      );
    } else if ((SUBSCHEMAS as readonly string[]).includes(key) && isObject(value)) {
      out[key] = toJsonSchema(value, components, resolving);
    } else if ((SUBSCHEMA_LISTS as readonly string[]).includes(key) && Array.isArray(value)) {
      out[key] = value.map((sub) => toJsonSchema(sub, components, resolving));
    } else {
      out[key] = value;
    }
  }
  if (schema.example !== undefined && out.examples === undefined) out.examples = [schema.example];
  exclusiveBound(out, "exclusiveMinimum", "minimum");
  exclusiveBound(out, "exclusiveMaximum", "maximum");
  return schema.nullable === true ? allowNull(out) : out;
}

/** 3.0 writes `minimum: 1, exclusiveMinimum: true`; JSON Schema writes `exclusiveMinimum: 1`. */
function exclusiveBound(out: SchemaObject, exclusive: string, inclusive: string): void {
  if (typeof out[exclusive] !== "boolean") return;
  if (out[exclusive] === true && typeof out[inclusive] === "number") {
    out[exclusive] = out[inclusive];
    delete out[inclusive];
  } else {
    delete out[exclusive];
  }
}

function allowNull(out: SchemaObject): SchemaObject {
  if (typeof out.type === "string") {
    const withNull: SchemaObject = { ...out, type: [out.type, "null"] };
    if (Array.isArray(out.enum) && !out.enum.includes(null)) withNull.enum = [...out.enum, null];
    return withNull;
  }
  return { anyOf: [out, { type: "null" }] };
}
