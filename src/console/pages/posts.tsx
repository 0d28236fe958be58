// Inbox (/app/posts): GET /posts's filters, sorts, search and paging, and the triage buttons of PATCH /posts/:id.

import { PostPatch, PostsQuery, postFilters } from "../../contracts/posts";
import type { WorkspaceDb } from "../../db/client";
import { listPosts, type PostView, updatePostState } from "../../db/posts";
import { listKeywords } from "../../db/tracking";
import { notFound } from "../../lib/domain-errors";
import { type ConsoleContext, pathIdOf, sessionDb } from "../context";
import { type FormValues, formValues, zodFieldErrors } from "../forms";
import { afterChange, Badge, Done, type FieldErrors, Page, PostForm, when } from "../layout";

type Options = [value: string, text: string][];

/** The filter form's select boxes, in order (the search box comes first, the subreddit field before them). */
function filterSelects(
  keywords: { id: number; keyword: string }[],
  searching: boolean,
): { name: string; label: string; options: Options }[] {
  const any = (...options: Options): Options => [["", "any"], ...options];
  const same = (...values: string[]): Options => values.map((v) => [v, v]);
  return [
    {
      name: "keyword_id",
      label: "Keyword",
      options: any(...keywords.map((k): Options[number] => [String(k.id), k.keyword])),
    },
    { name: "priority", label: "Priority", options: any(...same("high", "medium", "low")) },
    { name: "answered_status", label: "Answered", options: any(...same("unanswered", "answered")) },
    { name: "has_competitors", label: "Competitors", options: any(["true", "mentioned"], ["false", "none"]) },
    {
      name: "include_archived",
      label: "Archived",
      options: [
        ["", "hidden"],
        ["true", "shown"],
      ],
    },
    {
      name: "sort_by",
      label: "Sort by",
      options: [["", searching ? "best match" : "date"], ...same("date", "priority", "urgency", "score", "comments")],
    },
    {
      name: "sort_order",
      label: "Order",
      options: [
        ["", "descending"],
        ["asc", "ascending"],
      ],
    },
  ];
}

/** Filter fields that show their error beside themselves; the rest (subreddit, paging, unknown) below the form. */
const PLACED_FIELDS = ["search", ...filterSelects([], false).map((select) => select.name)];

export const CONSOLE_PAGE_SIZE = 25;

/** The inbox's query string: an empty field of the filter form means "no filter". */
function filterQuery(url: string): FormValues {
  const out: FormValues = {};
  // `done` is the confirmation of the triage just made (post/redirect/get), not a filter.
  for (const [name, value] of new URL(url).searchParams) if (value !== "" && name !== "done") out[name] = value;
  return out;
}

const withQuery = (query: FormValues, change: FormValues) => {
  const params = new URLSearchParams({ ...query, ...change });
  for (const [name, value] of [...params]) if (value === "") params.delete(name);
  return `/app/posts?${params}`;
};

function Select(props: {
  name: string;
  label: string;
  value: string | undefined;
  options: Options;
  errors: FieldErrors;
}) {
  const error = props.errors[props.name];
  return (
    <div>
      <label for={`q-${props.name}`}>{props.label}</label>
      <select
        id={`q-${props.name}`}
        name={props.name}
        aria-invalid={error ? "true" : undefined}
        aria-describedby={error ? `q-${props.name}-error` : undefined}
      >
        {props.options.map(([value, text]) => (
          <option value={value} selected={(props.value ?? "") === value}>
            {text}
          </option>
        ))}
      </select>
      {error ? (
        <p class="error" id={`q-${props.name}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

function PostCard({ c, post, back }: { c: ConsoleContext; post: PostView; back: string }) {
  const session = c.get("session");
  const thread = new URL(post.permalink, c.env.FORUM_BASE_URL).href;
  const reasons = (post as PostView & { score_reasons?: string[] }).score_reasons ?? [];
  const toggle = (field: "is_answered" | "archived" | "skipped", on: string, off: string) => (
    <PostForm session={session} action={`/app/posts/${post.id}`} class="inline">
      <input type="hidden" name="back" value={back} />
      <input type="hidden" name={field} value={post[field] ? "false" : "true"} />
      <button type="submit" class={post[field] ? "secondary" : ""}>
        {post[field] ? off : on}
      </button>
    </PostForm>
  );
  return (
    <article class="card post" id={`post-${post.id}`}>
      <h3>
        <a href={thread} rel="noopener noreferrer">
          {post.title}
        </a>
      </h3>
      <p class="meta">
        r/{post.subreddit} · u/{post.author} · {when(post.created_utc)} · {post.score} points · {post.num_comments}{" "}
        comments <Badge value={post.priority} label={post.priority ? `${post.priority} priority` : undefined} />{" "}
        <Badge value={post.urgency} />
        {post.is_answered ? <> · answered</> : null}
        {post.archived ? <> · archived</> : null}
        {post.skipped ? <> · skipped</> : null}
      </p>
      {post.selftext ? (
        <section class="body" tabindex={0} aria-label={`Text of ${post.title}`}>
          {post.selftext}
        </section>
      ) : null}
      <p class="meta">
        {post.matched_keywords.length > 0 ? <>Keywords: {post.matched_keywords.join(", ")}. </> : null}
        {post.mentioned_competitors.length > 0 ? <>Competitors: {post.mentioned_competitors.join(", ")}.</> : null}
      </p>
      {reasons.length > 0 ? (
        <ul class="reasons" aria-label="Why this priority">
          {reasons.map((r) => (
            <li>{r}</li>
          ))}
        </ul>
      ) : null}
      {session.canWrite ? (
        <div class="actions">
          {toggle("is_answered", "Mark answered", "Mark unanswered")}
          {toggle("archived", "Archive", "Unarchive")}
          {toggle("skipped", "Skip", "Unskip")}
        </div>
      ) : null}
    </article>
  );
}

/** The page of posts the query asks for, through GET /posts's schema and listing; refusals as field errors. */
async function loadInbox(w: WorkspaceDb, query: FormValues) {
  // A person reads 25 posts at a time; `limit` still pages like GET /posts when given.
  const parsed = PostsQuery.safeParse({ limit: String(CONSOLE_PAGE_SIZE), ...query });
  const errors: FieldErrors = parsed.success ? {} : zodFieldErrors(parsed.error);
  const page = { posts: [] as PostView[], count: 0, countIsEstimate: false, offset: 0, limit: CONSOLE_PAGE_SIZE };
  if (!parsed.success) return { ...page, errors };
  const filters = postFilters(parsed.data);
  try {
    const listed = await listPosts(w, filters);
    return {
      ...page,
      ...filters,
      posts: listed.data,
      count: listed.count,
      countIsEstimate: listed.countIsEstimate,
      errors,
    };
  } catch (err) {
    const refused = err as {
      details?: { path: string; message: string }[];
      problems?: { path: string; message: string }[];
    };
    const details = refused.details ?? refused.problems;
    if (!details) throw err;
    for (const d of details) errors[d.path.replace(/^query\./, "")] = d.message;
    return { ...page, ...filters, errors };
  }
}

interface FilterFormProps {
  query: FormValues;
  errors: FieldErrors;
  keywords: { id: number; keyword: string }[];
}

function FilterForm({ query, errors, keywords }: FilterFormProps) {
  return (
    <form method="get" action="/app/posts" class="card" aria-label="Filter posts">
      <div class="row">
        <div>
          <label for="q-search">Search</label>
          <input
            id="q-search"
            name="search"
            type="search"
            value={query.search ?? ""}
            placeholder='words, "a phrase", prefix*'
            aria-invalid={errors.search ? "true" : undefined}
            aria-describedby={errors.search ? "q-search-error" : undefined}
          />
          {errors.search ? (
            <p class="error" id="q-search-error">
              {errors.search}
            </p>
          ) : null}
        </div>
        <div>
          <label for="q-subreddit">Subreddit</label>
          <input id="q-subreddit" name="subreddit" value={query.subreddit ?? ""} />
        </div>
        {filterSelects(keywords, Boolean(query.search)).map((select) => (
          <Select {...select} value={query[select.name]} errors={errors} />
        ))}
        <button type="submit">Apply</button>
        <a href="/app/posts">Reset</a>
      </div>
      {Object.entries(errors)
        .filter(([field]) => !PLACED_FIELDS.includes(field))
        .map(([field, message]) => (
          <p class="error">{`${field}: ${message}`}</p>
        ))}
    </form>
  );
}

const DONE: Record<string, string> = {
  is_answered: "Marked answered.",
  not_is_answered: "Marked unanswered.",
  archived: "Archived: hidden from the inbox unless Archived is shown.",
  not_archived: "Unarchived.",
  skipped: "Skipped.",
  not_skipped: "Unskipped.",
};

export async function inboxPage(c: ConsoleContext) {
  const session = c.get("session");
  const w = sessionDb(c);
  const query = filterQuery(c.req.url);
  const [keywords, { posts, count, countIsEstimate, offset, limit, errors }] = await Promise.all([
    listKeywords(w),
    loadInbox(w, query),
  ]);
  const back = withQuery(query, {});
  const status = Object.keys(errors).length > 0 ? 400 : 200;
  return c.html(
    <Page title="Inbox" section="/app/posts" session={session}>
      <Done done={c.req.query("done")} messages={DONE} />
      <FilterForm query={query} errors={errors} keywords={keywords} />
      <p class="meta" aria-live="polite">
        {count === 0
          ? "No posts match."
          : `${offset + 1}–${offset + posts.length} of ${count}${countIsEstimate ? "+" : ""} posts`}
      </p>
      {posts.map((post) => (
        <PostCard c={c} post={post} back={back} />
      ))}
      <nav class="pager" aria-label="Pages">
        {offset > 0 ? (
          <a href={withQuery(query, { offset: String(Math.max(0, offset - limit)) })}>← Newer page</a>
        ) : null}
        {offset + posts.length < count ? (
          <a href={withQuery(query, { offset: String(offset + limit) })}>Next page →</a>
        ) : null}
      </nav>
    </Page>,
    status,
  );
}

/** Triage: one of answered / archived / skipped, through the same schema and update as PATCH /posts/:id. */
export async function triagePost(c: ConsoleContext) {
  const form = await formValues(c);
  const patch: Record<string, boolean> = {};
  for (const field of ["is_answered", "archived", "skipped"]) {
    if (form[field] !== undefined) patch[field] = form[field] === "true";
  }
  const parsed = PostPatch.safeParse(patch);
  if (!parsed.success) return c.text(`Bad request: ${parsed.error.issues[0]?.message}`, 400);
  const id = pathIdOf(c, "id", "post");
  if (!(await updatePostState(sessionDb(c), id, parsed.data))) throw notFound("post");
  const back = form.back?.startsWith("/app/posts") ? form.back : "/app/posts";
  const [field, on] = Object.entries(parsed.data)[0] ?? [];
  return c.redirect(afterChange(back, `${on ? "" : "not_"}${field}`, `post-${id}`), 303);
}
