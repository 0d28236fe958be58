// Inbox (/app/posts): GET /posts's filters, sorts, search and paging, and the triage buttons of PATCH /posts/:id;
// with `kind=comments`, the same for GET /comments and PATCH /comments/:id (one inbox, a switch between the two).

import { CommentsQuery, commentFilters } from "../../contracts/comments";
import { PostPatch, PostsQuery, postFilters } from "../../contracts/posts";
import type { WorkspaceDb } from "../../db/client";
import { type CommentView, listComments, updateCommentState } from "../../db/comments";
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
  kind: InboxKind = "posts",
): { name: string; label: string; options: Options }[] {
  const sorts =
    kind === "posts" ? ["date", "priority", "urgency", "score", "comments"] : ["date", "priority", "urgency", "score"];
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
      options: [["", searching ? "best match" : "date"], ...same(...sorts)],
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

/** What the inbox lists: forum posts (the default) or comments (`?kind=comments`). */
type InboxKind = "posts" | "comments";

/** The inbox's query string: an empty field of the filter form means "no filter". */
function filterQuery(url: string): FormValues {
  const out: FormValues = {};
  // `done` is the confirmation of the triage just made (post/redirect/get), not a filter.
  for (const [name, value] of new URL(url).searchParams) if (value !== "" && name !== "done") out[name] = value;
  return out;
}

/** The listing's own query: the filters without the switch between posts and comments. */
function listingQuery(query: FormValues): { kind: InboxKind; filters: FormValues } {
  const { kind, ...filters } = query;
  return { kind: kind === "comments" ? "comments" : "posts", filters };
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
      <Matched item={post} />
      {session.canWrite ? <TriageButtons c={c} item={post} action={`/app/posts/${post.id}`} back={back} /> : null}
    </article>
  );
}

function CommentCard({ c, comment, back }: { c: ConsoleContext; comment: CommentView; back: string }) {
  const session = c.get("session");
  const link = new URL(comment.permalink, c.env.FORUM_BASE_URL).href;
  const title = comment.thread_title || `a thread in r/${comment.subreddit}`;
  return (
    <article class="card post comment" id={`comment-${comment.id}`}>
      <h3>
        <a href={link} rel="noopener noreferrer">
          Comment on {title}
        </a>
      </h3>
      <p class="meta">
        r/{comment.subreddit} · u/{comment.author} · {when(comment.created_utc)} · {comment.score} points{" "}
        <Badge value={comment.priority} label={comment.priority ? `${comment.priority} priority` : undefined} />{" "}
        <Badge value={comment.urgency} />
        {comment.is_answered ? <> · answered</> : null}
        {comment.archived ? <> · archived</> : null}
        {comment.skipped ? <> · skipped</> : null}
      </p>
      <section class="body" tabindex={0} aria-label={`Text of the comment on ${title}`}>
        {comment.body}
      </section>
      <Matched item={comment} />
      {session.canWrite ? (
        <TriageButtons c={c} item={comment} action={`/app/comments/${comment.id}`} back={back} />
      ) : null}
    </article>
  );
}

type Triaged = Pick<
  PostView,
  "id" | "is_answered" | "archived" | "skipped" | "matched_keywords" | "mentioned_competitors" | "score_reasons"
>;

function Matched({ item }: { item: Triaged }) {
  return (
    <>
      <p class="meta">
        {item.matched_keywords.length > 0 ? <>Keywords: {item.matched_keywords.join(", ")}. </> : null}
        {item.mentioned_competitors.length > 0 ? <>Competitors: {item.mentioned_competitors.join(", ")}.</> : null}
      </p>
      {item.score_reasons.length > 0 ? (
        <ul class="reasons" aria-label="Why this priority">
          {item.score_reasons.map((r) => (
            <li>{r}</li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

function TriageButtons({ c, item, action, back }: { c: ConsoleContext; item: Triaged; action: string; back: string }) {
  const session = c.get("session");
  const toggle = (field: "is_answered" | "archived" | "skipped", on: string, off: string) => (
    <PostForm session={session} action={action} class="inline">
      <input type="hidden" name="back" value={back} />
      <input type="hidden" name={field} value={item[field] ? "false" : "true"} />
      <button type="submit" class={item[field] ? "secondary" : ""}>
        {item[field] ? off : on}
      </button>
    </PostForm>
  );
  return (
    <div class="actions">
      {toggle("is_answered", "Mark answered", "Mark unanswered")}
      {toggle("archived", "Archive", "Unarchive")}
      {toggle("skipped", "Skip", "Unskip")}
    </div>
  );
}

type InboxItems = { kind: "posts"; items: PostView[] } | { kind: "comments"; items: CommentView[] };

/** One page of the listing, through GET /posts's or GET /comments's schema and listing. */
async function listInbox(w: WorkspaceDb, kind: InboxKind, query: FormValues) {
  // A person reads 25 items at a time; `limit` still pages like the API when given.
  const input = { limit: String(CONSOLE_PAGE_SIZE), ...query };
  if (kind === "comments") {
    const parsed = CommentsQuery.safeParse(input);
    if (!parsed.success) return { error: parsed.error } as const;
    const filters = commentFilters(parsed.data);
    return { filters, run: async () => ({ kind, ...(await listComments(w, filters)) }) } as const;
  }
  const parsed = PostsQuery.safeParse(input);
  if (!parsed.success) return { error: parsed.error } as const;
  const filters = postFilters(parsed.data);
  return { filters, run: async () => ({ kind, ...(await listPosts(w, filters)) }) } as const;
}

/** The page of items the query asks for; refusals as field errors. */
async function loadInbox(w: WorkspaceDb, kind: InboxKind, query: FormValues) {
  const listing = await listInbox(w, kind, query);
  const errors: FieldErrors = "error" in listing && listing.error ? zodFieldErrors(listing.error) : {};
  const page = {
    items: { kind, items: [] } as InboxItems,
    count: 0,
    countIsEstimate: false,
    offset: 0,
    limit: CONSOLE_PAGE_SIZE,
  };
  if (!("run" in listing) || !listing.run) return { ...page, errors };
  const filters = listing.filters;
  try {
    const listed = await listing.run();
    return {
      ...page,
      ...filters,
      items: { kind: listed.kind, items: listed.data } as InboxItems,
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
  kind: InboxKind;
}

function FilterForm({ query, errors, keywords, kind }: FilterFormProps) {
  return (
    <form method="get" action="/app/posts" class="card" aria-label={`Filter ${kind}`}>
      {kind === "comments" ? <input type="hidden" name="kind" value="comments" /> : null}
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
        {filterSelects(keywords, Boolean(query.search), kind).map((select) => (
          <Select {...select} value={query[select.name]} errors={errors} />
        ))}
        <button type="submit">Apply</button>
        <a href={kind === "comments" ? "/app/posts?kind=comments" : "/app/posts"}>Reset</a>
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

/** The switch between the inbox's two listings; each keeps its own filters out of the other. */
function KindSwitch({ kind }: { kind: InboxKind }) {
  return (
    <nav class="tabs" aria-label="Show">
      <a href="/app/posts" aria-current={kind === "posts" ? "page" : undefined}>
        Posts
      </a>{" "}
      <a href="/app/posts?kind=comments" aria-current={kind === "comments" ? "page" : undefined}>
        Comments
      </a>
    </nav>
  );
}

export async function inboxPage(c: ConsoleContext) {
  const session = c.get("session");
  const w = sessionDb(c);
  const query = filterQuery(c.req.url);
  const { kind, filters } = listingQuery(query);
  const [keywords, { items, count, countIsEstimate, offset, limit, errors }] = await Promise.all([
    listKeywords(w),
    loadInbox(w, kind, filters),
  ]);
  const back = withQuery(query, {});
  const status = Object.keys(errors).length > 0 ? 400 : 200;
  const shown = items.items.length;
  return c.html(
    <Page title="Inbox" section="/app/posts" session={session}>
      <Done done={c.req.query("done")} messages={DONE} />
      <KindSwitch kind={kind} />
      <FilterForm query={query} errors={errors} keywords={keywords} kind={kind} />
      <p class="meta" aria-live="polite">
        {count === 0
          ? `No ${kind} match.`
          : `${offset + 1}–${offset + shown} of ${count}${countIsEstimate ? "+" : ""} ${kind}`}
      </p>
      {items.kind === "posts"
        ? items.items.map((post) => <PostCard c={c} post={post} back={back} />)
        : items.items.map((comment) => <CommentCard c={c} comment={comment} back={back} />)}
      <nav class="pager" aria-label="Pages">
        {offset > 0 ? (
          <a href={withQuery(query, { offset: String(Math.max(0, offset - limit)) })}>← Newer page</a>
        ) : null}
        {offset + shown < count ? <a href={withQuery(query, { offset: String(offset + limit) })}>Next page →</a> : null}
      </nav>
    </Page>,
    status,
  );
}

/** The triage form's change, through the same schema as PATCH /posts/:id and PATCH /comments/:id. */
async function triageForm(c: ConsoleContext) {
  const form = await formValues(c);
  const patch: Record<string, boolean> = {};
  for (const field of ["is_answered", "archived", "skipped"]) {
    if (form[field] !== undefined) patch[field] = form[field] === "true";
  }
  const back = form.back?.startsWith("/app/posts") ? form.back : "/app/posts";
  return { parsed: PostPatch.safeParse(patch), back };
}

const doneOf = (patch: Record<string, boolean | undefined>) => {
  const [field, on] = Object.entries(patch)[0] ?? [];
  return `${on ? "" : "not_"}${field}`;
};

/** Triage of a post: one of answered / archived / skipped, as PATCH /posts/:id. */
export async function triagePost(c: ConsoleContext) {
  const { parsed, back } = await triageForm(c);
  if (!parsed.success) return c.text(`Bad request: ${parsed.error.issues[0]?.message}`, 400);
  const id = pathIdOf(c, "id", "post");
  if (!(await updatePostState(sessionDb(c), id, parsed.data))) throw notFound("post");
  return c.redirect(afterChange(back, doneOf(parsed.data), `post-${id}`), 303);
}

/** Triage of a comment, as PATCH /comments/:id; back to the comments' listing. */
export async function triageComment(c: ConsoleContext) {
  const { parsed, back } = await triageForm(c);
  if (!parsed.success) return c.text(`Bad request: ${parsed.error.issues[0]?.message}`, 400);
  const id = pathIdOf(c, "id", "comment");
  if (!(await updateCommentState(sessionDb(c), id, parsed.data))) throw notFound("comment");
  return c.redirect(afterChange(back, doneOf(parsed.data), `comment-${id}`), 303);
}
