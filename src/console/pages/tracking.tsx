// Tracking (/app/keywords, /app/competitors): the lists with the keyword metrics, and add, edit, delete
// through the API's schemas and the same writes as POST/PATCH/DELETE /keywords and /competitors (an add or a
// change or a delete queues the re-match of the workspace's stored posts, as the API's does).

import type { z } from "@hono/zod-openapi";
import { CompetitorCreate, CompetitorPatch, KeywordCreate, KeywordPatch } from "../../contracts/tracking";
import type { WorkspaceDb } from "../../db/client";
import { type CompetitorView, type KeywordView, listCompetitors, listKeywords } from "../../db/tracking";
import type { Env } from "../../env";
import { notFound } from "../../lib/domain-errors";
import {
  createTrackedCompetitor,
  createTrackedKeyword,
  deleteTrackedCompetitor,
  deleteTrackedKeyword,
  updateTrackedCompetitor,
  updateTrackedKeyword,
} from "../../monitor/term-changes";
import { type ConsoleContext, type ConsoleSession, pathIdOf, sessionDb } from "../context";
import { checked, type FormValues, fieldErrorsOf, formValues, refusalMessage, zodFieldErrors } from "../forms";
import {
  afterChange,
  Checkbox,
  Done,
  Field,
  type FieldErrors,
  ListHead,
  Notice,
  Page,
  PostForm,
  when,
} from "../layout";

/** A form that failed: which one (`new` or a row id), its errors and what was entered. */
interface Failed {
  target: "new" | number;
  errors: FieldErrors;
  values: FormValues;
}

const idOf = (c: ConsoleContext) => pathIdOf(c, "id", "item");

/** Runs a write; a refusal comes back as field errors (or one form-level message) for the page to show. */
async function attempt(write: () => Promise<unknown>): Promise<FieldErrors | undefined> {
  try {
    await write();
    return undefined;
  } catch (err) {
    const fields = fieldErrorsOf(err);
    if (fields) return fields;
    const message = refusalMessage(err);
    if (message) return { form: message };
    throw err;
  }
}

/** What the list, add, edit and delete handlers of one kind of tracked item (keywords, competitors) need. */
interface TrackedKind<Item, Create, Patch> {
  noun: "keyword" | "competitor";
  path: string;
  list(w: WorkspaceDb): Promise<Item[]>;
  page(c: ConsoleContext, items: Item[], failed?: Failed): Response | Promise<Response>;
  /**
   * The API's schema, the form's values as the API's JSON, and the write the API route makes (which also queues
   * the re-match of the workspace's posts: src/monitor/term-changes.ts).
   */
  create: {
    schema: z.ZodType<Create>;
    input(values: FormValues): unknown;
    write(env: Env, w: WorkspaceDb, data: Create): Promise<unknown>;
  };
  patch: {
    schema: z.ZodType<Patch>;
    input(values: FormValues): unknown;
    /** Null or undefined: no such item in the workspace. */
    write(env: Env, w: WorkspaceDb, id: number, data: Patch): Promise<unknown>;
  };
  /** The delete the API route makes (which also queues the re-match). */
  remove(env: Env, w: WorkspaceDb, id: number): Promise<boolean>;
}

/** The page and the add, edit and delete handlers of one kind: a refused form comes back with its errors (400). */
function trackedHandlers<Item, Create, Patch>(kind: TrackedKind<Item, Create, Patch>) {
  const refused = async (c: ConsoleContext, w: WorkspaceDb, failed: Failed) => kind.page(c, await kind.list(w), failed);
  return {
    page: async (c: ConsoleContext) => kind.page(c, await kind.list(sessionDb(c))),
    async add(c: ConsoleContext) {
      const values = await formValues(c);
      const parsed = kind.create.schema.safeParse(kind.create.input(values));
      const w = sessionDb(c);
      const errors = parsed.success
        ? await attempt(() => kind.create.write(c.env, w, parsed.data))
        : zodFieldErrors(parsed.error);
      if (errors) return refused(c, w, { target: "new", errors, values });
      return c.redirect(afterChange(kind.path, "added"), 303);
    },
    async edit(c: ConsoleContext) {
      const id = idOf(c);
      const values = await formValues(c);
      const parsed = kind.patch.schema.safeParse(kind.patch.input(values));
      const w = sessionDb(c);
      const errors = parsed.success
        ? await attempt(async () => {
            if (!(await kind.patch.write(c.env, w, id, parsed.data))) throw notFound(kind.noun);
          })
        : zodFieldErrors(parsed.error);
      if (errors) return refused(c, w, { target: id, errors, values });
      return c.redirect(afterChange(kind.path, "saved", `${kind.noun}-${id}`), 303);
    },
    async remove(c: ConsoleContext) {
      if (!(await kind.remove(c.env, sessionDb(c), idOf(c)))) throw notFound(kind.noun);
      return c.redirect(afterChange(kind.path, "deleted"), 303);
    },
  };
}

// ---- keywords

const doneMessages = (noun: string): Record<string, string> => ({
  added: `The ${noun} is added; the stored posts are matched against it again.`,
  saved: `The ${noun} is saved; the stored posts are matched against it again.`,
  deleted: `The ${noun} is deleted; the stored posts are matched again without it.`,
});

function NewKeywordForm({ session, failed }: { session: ConsoleSession; failed?: Failed }) {
  return (
    <PostForm session={session} action="/app/keywords" class="card">
      <h2>Add a keyword</h2>
      {failed?.errors.form ? <Notice kind="bad">{failed.errors.form}</Notice> : null}
      <div class="row">
        <Field
          name="keyword"
          label="Keyword"
          idPrefix="new"
          value={failed?.values.keyword}
          errors={failed?.errors}
          required
        />
        <Checkbox
          name="is_ambiguous"
          label="Ambiguous (needs context)"
          idPrefix="new"
          checked={failed ? checked(failed.values, "is_ambiguous") : false}
        />
        <button type="submit">Add keyword</button>
      </div>
    </PostForm>
  );
}

/** One keyword on one line: its text, switches and Save in one compact form, Delete beside it. */
function KeywordEdit({ session, k, failed }: { session: ConsoleSession; k: KeywordView; failed?: Failed }) {
  const prefix = `k${k.id}`;
  return (
    <div class="compact">
      <PostForm session={session} action={`/app/keywords/${k.id}`} class="compact">
        <Field
          name="keyword"
          label={`Text of keyword ${k.keyword}`}
          idPrefix={prefix}
          value={failed?.values.keyword ?? k.keyword}
          errors={failed?.errors}
          required
        />
        <Checkbox
          name="active"
          label="Active"
          idPrefix={prefix}
          checked={failed ? checked(failed.values, "active") : k.active}
        />
        <Checkbox
          name="is_ambiguous"
          label="Ambiguous"
          idPrefix={prefix}
          checked={failed ? checked(failed.values, "is_ambiguous") : k.is_ambiguous}
        />
        <button type="submit" class="secondary">
          Save
        </button>
      </PostForm>
      <PostForm session={session} action={`/app/keywords/${k.id}/delete`} class="inline">
        <button type="submit" class="danger" data-confirm={`Stop tracking "${k.keyword}"?`}>
          Delete
        </button>
      </PostForm>
      {failed?.errors.form ? <p class="error">{failed.errors.form}</p> : null}
    </div>
  );
}

function KeywordRow({ session, k, failed }: { session: ConsoleSession; k: KeywordView; failed?: Failed }) {
  return (
    <tr id={`keyword-${k.id}`}>
      <td>
        {session.canWrite ? (
          <KeywordEdit session={session} k={k} failed={failed} />
        ) : (
          <>
            {k.keyword}
            {k.is_ambiguous ? <span class="meta"> (ambiguous)</span> : null}
          </>
        )}
      </td>
      <td>{k.active ? "yes" : "no"}</td>
      <td>{k.search_volume ?? "unknown"}</td>
      <td>{k.cpc ?? "unknown"}</td>
      <td>
        {k.serp_forum_position ?? "unknown"}
        {k.serp_forum_url ? (
          <>
            {" "}
            <a href={k.serp_forum_url} rel="noopener noreferrer">
              thread
            </a>
          </>
        ) : null}
      </td>
      <td>{when(k.serp_checked_at)}</td>
    </tr>
  );
}

function keywordPage(c: ConsoleContext, keywords: KeywordView[], failed?: Failed) {
  const session = c.get("session");
  const failedFor = (target: "new" | number) => (failed?.target === target ? failed : undefined);
  return c.html(
    <Page title="Keywords" section="/app/keywords" session={session}>
      {failed ? null : <Done done={c.req.query("done")} messages={doneMessages("keyword")} />}
      {session.canWrite ? <NewKeywordForm session={session} failed={failedFor("new")} /> : null}
      <table class="list">
        <caption class="meta">{`${keywords.length} keywords`}</caption>
        <ListHead columns={["Keyword", "Active", "Monthly searches", "CPC", "Forum rank in search", "Checked"]} />
        <tbody>
          {keywords.map((k) => (
            <KeywordRow session={session} k={k} failed={failedFor(k.id)} />
          ))}
        </tbody>
      </table>
    </Page>,
    failed ? 400 : 200,
  );
}

export const {
  page: keywordsPage,
  add: addKeyword,
  edit: editKeyword,
  remove: removeKeyword,
} = trackedHandlers({
  noun: "keyword",
  path: "/app/keywords",
  list: listKeywords,
  page: keywordPage,
  create: {
    schema: KeywordCreate,
    input: (values) => ({ keyword: values.keyword ?? "", is_ambiguous: checked(values, "is_ambiguous") }),
    write: createTrackedKeyword,
  },
  patch: {
    schema: KeywordPatch,
    input: (values) => ({
      keyword: values.keyword ?? "",
      active: checked(values, "active"),
      is_ambiguous: checked(values, "is_ambiguous"),
    }),
    write: updateTrackedKeyword,
  },
  remove: deleteTrackedKeyword,
});

// ---- competitors

/** Aliases are typed comma-separated; the API takes a list. */
const aliasList = (text: string | undefined) =>
  (text ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

function competitorInput(values: FormValues) {
  return {
    name: values.name ?? "",
    website_url: values.website_url?.trim() ? values.website_url.trim() : null,
    keywords: aliasList(values.keywords),
    is_ambiguous: checked(values, "is_ambiguous"),
  };
}

function CompetitorFields(props: { prefix: string; values: FormValues; errors?: FieldErrors }) {
  return (
    <div class="row">
      <Field
        name="name"
        label="Name"
        idPrefix={props.prefix}
        value={props.values.name}
        errors={props.errors}
        required
      />
      <Field
        name="website_url"
        label="Website"
        type="url"
        idPrefix={props.prefix}
        value={props.values.website_url}
        errors={props.errors}
      />
      <Field
        name="keywords"
        label="Other names (comma-separated)"
        idPrefix={props.prefix}
        value={props.values.keywords}
        errors={props.errors}
      />
      <Checkbox
        name="is_ambiguous"
        label="Ambiguous"
        idPrefix={props.prefix}
        checked={checked(props.values, "is_ambiguous")}
      />
    </div>
  );
}

const competitorValues = (k: CompetitorView): FormValues => ({
  name: k.name,
  website_url: k.website_url ?? "",
  keywords: k.keywords.join(", "),
  is_ambiguous: String(k.is_ambiguous),
  active: String(k.active),
});

function competitorPage(c: ConsoleContext, competitors: CompetitorView[], failed?: Failed) {
  const session = c.get("session");
  const newForm = failed?.target === "new" ? failed : undefined;
  return c.html(
    <Page title="Competitors" section="/app/competitors" session={session}>
      {failed ? null : <Done done={c.req.query("done")} messages={doneMessages("competitor")} />}
      {session.canWrite ? (
        <PostForm session={session} action="/app/competitors" class="card">
          <h2>Add a competitor</h2>
          {newForm?.errors.form ? <Notice kind="bad">{newForm.errors.form}</Notice> : null}
          <CompetitorFields prefix="new" values={newForm?.values ?? {}} errors={newForm?.errors} />
          <div class="actions">
            <button type="submit">Add competitor</button>
          </div>
        </PostForm>
      ) : null}
      <p class="meta">{`${competitors.length} competitors`}</p>
      {competitors.map((k) => {
        const f = failed?.target === k.id ? failed : undefined;
        const values = f?.values ?? competitorValues(k);
        return (
          <section class="card" id={`competitor-${k.id}`} aria-label={k.name}>
            {session.canWrite ? (
              <>
                <PostForm session={session} action={`/app/competitors/${k.id}`}>
                  {f?.errors.form ? <p class="error">{f.errors.form}</p> : null}
                  <CompetitorFields prefix={`c${k.id}`} values={values} errors={f?.errors} />
                  <Checkbox name="active" label="Active" idPrefix={`c${k.id}`} checked={checked(values, "active")} />
                  <div class="actions">
                    <button type="submit" class="secondary">
                      Save
                    </button>
                  </div>
                </PostForm>
                <PostForm session={session} action={`/app/competitors/${k.id}/delete`}>
                  <button type="submit" class="danger" data-confirm={`Stop tracking ${k.name}?`}>
                    Delete
                  </button>
                </PostForm>
              </>
            ) : (
              <>
                <h2>{k.name}</h2>
                <p class="meta">
                  {k.website_url ?? "no website"} · {k.active ? "active" : "inactive"}
                  {k.is_ambiguous ? " · ambiguous" : ""}
                  {k.keywords.length > 0 ? ` · also: ${k.keywords.join(", ")}` : ""}
                </p>
              </>
            )}
          </section>
        );
      })}
    </Page>,
    failed ? 400 : 200,
  );
}

export const {
  page: competitorsPage,
  add: addCompetitor,
  edit: editCompetitor,
  remove: removeCompetitor,
} = trackedHandlers({
  noun: "competitor",
  path: "/app/competitors",
  list: listCompetitors,
  page: competitorPage,
  create: { schema: CompetitorCreate, input: competitorInput, write: createTrackedCompetitor },
  patch: {
    schema: CompetitorPatch,
    input: (values) => ({ ...competitorInput(values), active: checked(values, "active") }),
    write: updateTrackedCompetitor,
  },
  remove: deleteTrackedCompetitor,
});
