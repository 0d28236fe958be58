// Time series of mentions (docs/insights.md): the range in whole UTC buckets (days, or weeks from Monday),
// and the stored day counts summed into every bucket of it, empty ones included. Pure: the time is an argument.
import { invalidInput } from "../lib/domain-errors";

export type Interval = "day" | "week";
export type GroupBy = "keyword" | "competitor" | "subreddit";

const DAY_MS = 86_400_000;
const BUCKET_MS: Record<Interval, number> = { day: DAY_MS, week: 7 * DAY_MS };
/** The range when `since` is not given: this long before `until`. */
export const DEFAULT_RANGE_DAYS = 90;
/** The longest range asked (`until` − `since`): a year and a day, so a whole leap year fits. */
export const MAX_RANGE_DAYS = 366;

/** The start of the UTC day, or of the week (Monday 00:00 UTC), that holds `ms`. */
export function bucketStart(ms: number, interval: Interval): number {
  const day = Math.floor(ms / DAY_MS) * DAY_MS;
  if (interval === "day") return day;
  // 1970-01-01 was a Thursday: getUTCDay() is 0 on Sunday, and Monday is (day + 6) % 7 = 0.
  return day - ((new Date(day).getUTCDay() + 6) % 7) * DAY_MS;
}

/** The range counted: whole buckets from the one holding `since` to the end of the one holding `until`. */
export interface BucketRange {
  interval: Interval;
  /** Start of the first bucket (ms). */
  start: number;
  /** End of the last bucket, exclusive (ms). */
  end: number;
  /** Each bucket's start (ms), in order. */
  buckets: number[];
}

const iso = (ms: number) => new Date(ms).toISOString();
/** `YYYY-MM-DD` of a time: how mention_days names a day. */
export const dayOf = (ms: number) => iso(ms).slice(0, 10);

/**
 * The buckets of `since`..`until` (ISO 8601 strings, already valid as the schema reads them; either may be
 * left out: `until` is `now`, `since` 90 days before `until`). Refused: `since` after `until`, or a range
 * longer than MAX_RANGE_DAYS.
 */
export function bucketRange(q: { interval?: Interval; since?: string; until?: string }, nowMs: number): BucketRange {
  const interval = q.interval ?? "week";
  const until = q.until === undefined ? nowMs : Date.parse(q.until);
  const since = q.since === undefined ? until - DEFAULT_RANGE_DAYS * DAY_MS : Date.parse(q.since);
  if (since > until) throw invalidInput([{ path: "query.since", message: `must not be after until (${iso(until)})` }]);
  if (until - since > MAX_RANGE_DAYS * DAY_MS)
    throw invalidInput([
      {
        path: "query.since",
        message: `the range from since to until is at most ${MAX_RANGE_DAYS} days; ask for a shorter one`,
      },
    ]);
  const start = bucketStart(since, interval);
  const end = bucketStart(until, interval) + BUCKET_MS[interval];
  const buckets: number[] = [];
  for (let t = start; t < end; t += BUCKET_MS[interval]) buckets.push(t);
  return { interval, start, end, buckets };
}

/** One stored day count: `ref` names the key (a keyword's or competitor's id, or a subreddit's name). */
export interface DayCount {
  day: string;
  ref: string;
  posts: number;
  comments: number;
}

export interface Point {
  t: string;
  posts: number;
  comments: number;
  share?: number | null;
}

export interface Series {
  key: string;
  points: Point[];
}

/** A share rounded to 4 decimals (0.3333), enough for a percentage to one decimal. */
const roundShare = (n: number) => Math.round(n * 10_000) / 10_000;

/**
 * Every key's points over every bucket. `keys` maps a ref to the key's name and lists the keys shown even
 * without a mention (a workspace's keywords or competitors); counts of a ref not in `keys` are dropped
 * unless `keepUnknownRefs` (subreddits: the ref is the name). Series are ordered by mentions in the range
 * (posts + comments), most first, then by name. With `withShare`, each point carries its key's share of all
 * keys' mentions in that bucket, null when the bucket has none.
 */
export function buildSeries(
  range: BucketRange,
  rows: readonly DayCount[],
  keys: ReadonlyMap<string, string>,
  options: { keepUnknownRefs: boolean; withShare: boolean },
): Series[] {
  const n = range.buckets.length;
  const counts = new Map<string, { posts: number[]; comments: number[] }>();
  const countsOf = (ref: string) => {
    let c = counts.get(ref);
    if (!c) {
      c = { posts: new Array<number>(n).fill(0), comments: new Array<number>(n).fill(0) };
      counts.set(ref, c);
    }
    return c;
  };
  for (const ref of keys.keys()) countsOf(ref);
  const width = BUCKET_MS[range.interval];
  for (const row of rows) {
    if (!keys.has(row.ref) && !options.keepUnknownRefs) continue;
    const i = Math.floor((Date.parse(`${row.day}T00:00:00.000Z`) - range.start) / width);
    if (i < 0 || i >= n) continue;
    const c = countsOf(row.ref);
    c.posts[i]! += row.posts;
    c.comments[i]! += row.comments;
  }
  const totals = new Array<number>(n).fill(0);
  for (const c of counts.values()) for (let i = 0; i < n; i++) totals[i]! += c.posts[i]! + c.comments[i]!;
  const series = [...counts].map(([ref, c]) => ({
    key: keys.get(ref) ?? ref,
    mentions: c.posts.reduce((sum, p, i) => sum + p + c.comments[i]!, 0),
    points: range.buckets.map((t, i): Point => {
      const point: Point = { t: iso(t), posts: c.posts[i]!, comments: c.comments[i]! };
      if (options.withShare)
        point.share = totals[i] === 0 ? null : roundShare((c.posts[i]! + c.comments[i]!) / totals[i]!);
      return point;
    }),
  }));
  series.sort((a, b) => b.mentions - a.mentions || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return series.map(({ key, points }) => ({ key, points }));
}

export const rangeEdges = (range: BucketRange) => ({ since: iso(range.start), until: iso(range.end) });
