// Insights (/app/insights): share of voice per competitor, mentions per keyword, the top subreddits and the
// open threads worth the most, from the same services as GET /insights/mentions and /insights/opportunities.
// Each chart (SVG, drawn here) has a table beside it with the same numbers.

import { MentionsQuery } from "../../contracts/insights";
import { dollars, type PostView } from "../../db/posts";
import { type MentionsAnswer, mentionSeries, opportunityPage } from "../../insights/insights";
import type { Series } from "../../insights/series";
import { BarChart, Legend, LineChart } from "../charts";
import { type ConsoleContext, sessionDb } from "../context";
import { fieldErrorsOf, zodFieldErrors } from "../forms";
import { type FieldErrors, Page } from "../layout";

/** Lines drawn in the keyword chart (the most mentioned); the others are named below it with their totals. */
const KEYWORD_LINES = 6;
const TOP_SUBREDDITS = 10;
const TOP_THREADS = 10;

const total = (s: Series) => s.points.reduce((sum, p) => sum + p.posts + p.comments, 0);
const mentionsOf = (p: Series["points"][number]) => p.posts + p.comments;
/** A bucket as its table row names it: the day, or the week's Monday. */
const bucketLabel = (t: string) => t.slice(0, 10);
const percent = (share: number | null | undefined) =>
  share === null || share === undefined ? "–" : `${(share * 100).toFixed(1)} %`;

/** The inbox showing this post: a search for its exact title (a phrase), scrolled to its card. */
export function inboxLink(post: Pick<PostView, "id" | "title">): string {
  const phrase = `"${post.title.replaceAll('"', '""')}"`;
  return `/app/posts?${new URLSearchParams({ search: phrase })}#post-${post.id}`;
}

function RangeForm({ query, errors }: { query: Record<string, string>; errors: FieldErrors }) {
  const field = (name: "since" | "until", label: string) => (
    <div>
      <label for={`i-${name}`}>{label}</label>
      <input
        id={`i-${name}`}
        name={name}
        type="date"
        value={query[name]?.slice(0, 10) ?? ""}
        aria-invalid={errors[name] ? "true" : undefined}
        aria-describedby={errors[name] ? `i-${name}-error` : undefined}
      />
      {errors[name] ? (
        <p class="error" id={`i-${name}-error`}>
          {errors[name]}
        </p>
      ) : null}
    </div>
  );
  return (
    <form method="get" action="/app/insights" class="card">
      <div class="row">
        {field("since", "From (default: 90 days before the end)")}
        {field("until", "To (default: today)")}
        <div>
          <label for="i-interval">Per</label>
          <select id="i-interval" name="interval">
            <option value="week" selected={query.interval !== "day"}>
              week (from Monday)
            </option>
            <option value="day" selected={query.interval === "day"}>
              day
            </option>
          </select>
        </div>
        <button type="submit">Show</button>
        <a href="/app/insights">Reset</a>
      </div>
      {errors.interval || errors.form ? <p class="error">{errors.interval ?? errors.form}</p> : null}
    </form>
  );
}

/** A table of buckets (rows) by series (columns); `cell` writes one series' point. */
function BucketTable(props: {
  caption: string;
  first: string;
  series: Series[];
  cell: (p: Series["points"][number]) => string;
}) {
  const rows = props.series[0]?.points.map((p) => p.t) ?? [];
  return (
    <section class="scroll" aria-label={props.caption} tabindex={0}>
      <table class="data">
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col">{props.first}</th>
            {props.series.map((s) => (
              <th scope="col">{s.key}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((t, i) => (
            <tr>
              <th scope="row">{bucketLabel(t)}</th>
              {props.series.map((s) => (
                <td>{props.cell(s.points[i]!)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function ShareOfVoice({ answer }: { answer: MentionsAnswer }) {
  const series = answer.data;
  if (series.every((s) => total(s) === 0)) return <p class="meta">No competitor is mentioned in this range.</p>;
  return (
    <div class="insight">
      <div>
        <LineChart
          id="sov"
          title={`Share of voice per ${answer.interval}: each competitor's share of all competitor mentions`}
          labels={series[0]!.points.map((p) => bucketLabel(p.t))}
          series={series.map((s) => ({ name: s.key, values: s.points.map((p) => p.share ?? null) }))}
          max={1}
          tick={(v) => `${Math.round(v * 100)} %`}
        />
        <Legend names={series.map((s) => s.key)} />
      </div>
      <BucketTable
        caption="Share of voice (mentions)"
        first={answer.interval === "week" ? "Week of" : "Day"}
        series={series}
        cell={(p) => `${percent(p.share)} (${mentionsOf(p)})`}
      />
    </div>
  );
}

function KeywordMentions({ answer }: { answer: MentionsAnswer }) {
  const drawn = answer.data.filter((s) => total(s) > 0).slice(0, KEYWORD_LINES);
  const others = answer.data.slice(drawn.length).filter((s) => total(s) > 0);
  if (drawn.length === 0) return <p class="meta">No keyword is mentioned in this range.</p>;
  return (
    <>
      <div class="insight">
        <div>
          <LineChart
            id="kw"
            title={`Mentions per ${answer.interval} of the ${drawn.length} most mentioned keywords`}
            labels={drawn[0]!.points.map((p) => bucketLabel(p.t))}
            series={drawn.map((s) => ({ name: s.key, values: s.points.map(mentionsOf) }))}
            tick={(v) => (Number.isInteger(v) ? String(v) : v.toFixed(1))}
          />
          <Legend names={drawn.map((s) => s.key)} />
        </div>
        <BucketTable
          caption="Mentions per keyword (posts + comments)"
          first={answer.interval === "week" ? "Week of" : "Day"}
          series={drawn}
          cell={(p) => String(mentionsOf(p))}
        />
      </div>
      {others.length > 0 ? (
        <p class="meta">{`Also mentioned: ${others.map((s) => `${s.key} (${total(s)})`).join(", ")}.`}</p>
      ) : null}
    </>
  );
}

function TopSubreddits({ answer }: { answer: MentionsAnswer }) {
  const top = answer.data.slice(0, TOP_SUBREDDITS);
  if (top.length === 0) return <p class="meta">Nothing was stored in this range.</p>;
  const sum = (s: Series, key: "posts" | "comments") => s.points.reduce((n, p) => n + p[key], 0);
  return (
    <div class="insight">
      <BarChart
        id="subs"
        title={`The ${top.length} subreddits with the most mentions in the range`}
        items={top.map((s) => ({ name: `r/${s.key}`, value: total(s) }))}
      />
      <section class="scroll" aria-label="Top subreddits" tabindex={0}>
        <table class="data">
          <caption>Top subreddits</caption>
          <thead>
            <tr>
              <th scope="col">Subreddit</th>
              <th scope="col">Posts</th>
              <th scope="col">Comments</th>
              <th scope="col">Mentions</th>
            </tr>
          </thead>
          <tbody>
            {top.map((s) => (
              <tr>
                <th scope="row">{`r/${s.key}`}</th>
                <td>{String(sum(s, "posts"))}</td>
                <td>{String(sum(s, "comments"))}</td>
                <td>{String(total(s))}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}

function TopThreads({ posts, count }: { posts: PostView[]; count: number }) {
  if (posts.length === 0) return <p class="meta">No open post has a value yet (its keywords need metrics).</p>;
  return (
    <section class="scroll" aria-label="Open threads of highest value" tabindex={0}>
      <table class="data threads">
        <caption>{`The ${posts.length} open threads of highest value (of ${count})`}</caption>
        <thead>
          <tr>
            <th scope="col">Worth a month</th>
            <th scope="col">Thread</th>
            <th scope="col">Subreddit</th>
            <th scope="col">Priority</th>
          </tr>
        </thead>
        <tbody>
          {posts.map((p) => (
            <tr>
              <td>{p.value === null ? "–" : dollars(p.value)}</td>
              <th scope="row">
                <a href={inboxLink(p)}>{p.title}</a>
              </th>
              <td>{`r/${p.subreddit}`}</td>
              <td>{p.priority ?? "–"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export async function insightsPage(c: ConsoleContext) {
  const session = c.get("session");
  const w = sessionDb(c);
  const query = Object.fromEntries([...new URL(c.req.url).searchParams].filter(([, v]) => v !== ""));
  const parsed = MentionsQuery.omit({ group_by: true }).safeParse(query);
  let errors: FieldErrors = parsed.success ? {} : zodFieldErrors(parsed.error);
  const now = Date.now();
  const load = async () => {
    if (!parsed.success) return undefined;
    const ask = (group_by: "competitor" | "keyword" | "subreddit") =>
      mentionSeries(w, { ...parsed.data, group_by }, now);
    try {
      return await Promise.all([ask("competitor"), ask("keyword"), ask("subreddit")]);
    } catch (err) {
      const fields = fieldErrorsOf(err);
      if (!fields) throw err;
      errors = fields;
      return undefined;
    }
  };
  const [series, threads] = await Promise.all([load(), opportunityPage(w, { limit: TOP_THREADS })]);
  const range = series?.[0];
  return c.html(
    <Page title="Insights" section="/app/insights" session={session}>
      <RangeForm query={query} errors={errors} />
      {range ? (
        <p class="meta">{`${range.since.slice(0, 10)} to ${range.until.slice(0, 10)} (end not included), per ${range.interval}, counted from stored posts and comments by the day they were written (UTC), archived and skipped ones included.`}</p>
      ) : null}
      <h2>Share of voice</h2>
      {series ? <ShareOfVoice answer={series[0]} /> : null}
      <h2>Mentions per keyword</h2>
      {series ? <KeywordMentions answer={series[1]} /> : null}
      <h2>Top subreddits</h2>
      {series ? <TopSubreddits answer={series[2]} /> : null}
      <h2>Open threads worth the most</h2>
      <p class="meta">
        What each thread is worth in search traffic a month: search volume × the click-through rate of its place in
        search results × cost per click, over its keywords.
      </p>
      <TopThreads posts={threads.data} count={threads.count} />
    </Page>,
    Object.keys(errors).length > 0 ? 400 : 200,
  );
}
