// The queries of the insight resource (GET /insights/mentions, GET /insights/opportunities), shared by the
// routes, the console's Insights page and MCP, so a range or a page means the same through every door.
import { z } from "@hono/zod-openapi";
import { integerParam } from "./params";

const ISO_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** A time in ISO 8601: a date (`2026-11-30`, its 00:00 UTC) or a date and time with `Z` or an offset. */
const isoTime = (what: string) =>
  z
    .string()
    .refine(
      (v) => {
        if (!ISO_TIME.test(v)) return false;
        const ms = Date.parse(v.length === 10 ? `${v}T00:00:00.000Z` : v);
        // A date that does not exist (2026-02-30) is refused, not moved to another day.
        return Number.isFinite(ms) && (v.length !== 10 || new Date(ms).toISOString().startsWith(v));
      },
      { message: "expected an ISO 8601 date (2026-11-30) or date and time with Z or an offset (2026-11-30T08:00:00Z)" },
    )
    .transform((v) => new Date(v.length === 10 ? `${v}T00:00:00.000Z` : v).toISOString())
    .openapi({ type: "string", format: "date-time", description: what });

export const MentionsQuery = z.strictObject({
  group_by: z
    .enum(["keyword", "competitor", "subreddit"])
    .optional()
    .openapi({ default: "keyword", description: "One series per keyword, competitor or subreddit (default keyword)" }),
  interval: z.enum(["day", "week"]).optional().openapi({
    default: "week",
    description: "Bucket size: a UTC day, or a week from Monday 00:00 UTC (default week)",
  }),
  since: isoTime(
    "Start of the range, rounded down to its bucket's start; default 90 days before until. At most 366 days before until",
  ).optional(),
  until: isoTime("End of the range, rounded up to its bucket's end; default now").optional(),
});

export type MentionsParams = z.infer<typeof MentionsQuery>;

export const OpportunitiesQuery = z.strictObject({
  limit: integerParam(1, 500).optional().openapi({ default: 100, description: "Page size, 1..500, default 100" }),
  offset: integerParam(0).optional().openapi({ default: 0, description: "Rows to skip, default 0" }),
});
