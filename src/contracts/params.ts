// The API's small schema builders (zod-openapi) that requests and answers are written with: query booleans,
// decimal integers, path ids and list envelopes. Shared by the routes, the console's forms and MCP.
import { z } from "@hono/zod-openapi";

/** Query booleans: `true|false|1|0` and nothing else (docs/api.md). Documented as boolean. */
export const queryBoolean = z
  .enum(["true", "false", "1", "0"])
  .transform((v) => v === "true" || v === "1")
  .openapi({ type: "boolean" });

/**
 * An integer written in a query string or path segment: plain decimal digits, nothing else. `Number()`
 * (what `z.coerce` calls) also reads `1e1`, `0x1a`, `26.0`, ` 26` and the empty string, so a request
 * for `/posts/1e1` would have changed post 10; those are refused. Documented as an OpenAPI integer.
 */
export const integerParam = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .regex(/^(0|[1-9][0-9]*)$/, "expected a whole number in decimal digits (no sign, leading zero, point or exponent)")
    .transform((digits, ctx) => {
      // One message for a number out of range, however far out (a 20-digit offset is not also "not an int").
      const n = Number(digits);
      if (n >= min && n <= max) return n;
      ctx.addIssue({
        code: "custom",
        message:
          max === Number.MAX_SAFE_INTEGER
            ? `must be a whole number from ${min} up to ${max}`
            : `must be from ${min} to ${max}`,
      });
      return z.NEVER;
    })
    .openapi({ type: "integer", minimum: min, ...(max === Number.MAX_SAFE_INTEGER ? {} : { maximum: max }) });

/** A positive integer id in a path segment. */
export const pathId = (name: string) => integerParam(1).openapi({ param: { name, in: "path" }, example: 1 });

/**
 * A path segment read as `pathId` reads it, else undefined. The console's form actions take ids in the path
 * too: with this, `/app/posts/1e1` changes no post, as `/api/v1/posts/1e1` changes none.
 */
export function readPathId(segment: string | undefined): number | undefined {
  const parsed = integerParam(1).safeParse(segment);
  return parsed.success ? parsed.data : undefined;
}

/** `{id}` path parameters. */
export const idParam = () => z.object({ id: pathId("id") });

export const listEnvelope = <T extends z.ZodType>(item: T, name: string) =>
  z.object({ data: z.array(item), count: z.number().int() }).openapi(name);

/** One page of a paged list: the items, the total over all pages and where the next page starts. */
export const pageEnvelope = <T extends z.ZodType>(
  item: T,
  name: string,
  countDescription = "Items matching the filter (all pages)",
) =>
  z
    .object({
      data: z.array(item),
      count: z.number().int().openapi({ description: countDescription }),
      next_offset: z
        .number()
        .int()
        .nullable()
        .openapi({ description: "Offset of the next page; null on the last page" }),
    })
    .openapi(name);
