// The insight services (docs/insights.md): the routes, the console's Insights page and MCP all call these,
// so every number shown anywhere is the API's number.
import type { WorkspaceDb } from "../db/client";
import { listOpportunities, mentionDayCounts } from "../db/insights";
import { bucketRange, buildSeries, dayOf, type GroupBy, type Interval, rangeEdges, type Series } from "./series";

export interface MentionsRequest {
  group_by?: GroupBy;
  interval?: Interval;
  since?: string;
  until?: string;
}

export interface MentionsAnswer {
  data: Series[];
  interval: Interval;
  since: string;
  until: string;
}

/** Mentions per bucket of one grouping; `nowMs` is "now" for a range without `until`. */
export async function mentionSeries(w: WorkspaceDb, q: MentionsRequest, nowMs: number): Promise<MentionsAnswer> {
  const groupBy = q.group_by ?? "keyword";
  const range = bucketRange(q, nowMs);
  const { rows, names } = await mentionDayCounts(w, groupBy, dayOf(range.start), dayOf(range.end));
  const data = buildSeries(range, rows, names, {
    keepUnknownRefs: groupBy === "subreddit",
    withShare: groupBy === "competitor",
  });
  // A subreddit is listed once it has a mention in the range (there is no list of them to show at zero).
  const shown = groupBy === "subreddit" ? data.filter((s) => s.points.some((p) => p.posts + p.comments > 0)) : data;
  return { data: shown, interval: range.interval, ...rangeEdges(range) };
}

/** One page of the open posts with a value, highest first, paged like GET /posts. */
export async function opportunityPage(w: WorkspaceDb, q: { limit?: number; offset?: number }) {
  const limit = q.limit ?? 100;
  const offset = q.offset ?? 0;
  const { data, count, countIsEstimate } = await listOpportunities(w, { limit, offset });
  return {
    data,
    count,
    next_offset: offset + data.length < count ? offset + data.length : null,
    count_is_estimate: countIsEstimate,
  };
}
