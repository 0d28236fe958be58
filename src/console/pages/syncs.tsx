// Blog sync (/app/syncs, /app/syncs/:id): the config form, recent runs, synced posts by state, and the
// dry-run preview, through the same services as POST /actions/blog-subreddit-syncs and .../run.
import { recordConfigSaved } from "../../audit/events";
import { saveConfig } from "../../blog-sync/configs";
import { type RunResult, runSync } from "../../blog-sync/run-sync";
import { BlogSyncConfigInput } from "../../contracts/blog-syncs";
import { getConfig, listConfigs, type SyncConfigView } from "../../db/blog-sync-configs";
import { listSyncedPosts, type SyncedPostState } from "../../db/blog-sync-posts";
import { listRuns } from "../../db/blog-sync-runs";
import { listPersonaRows, type PersonaRow } from "../../db/personas";
import { notFound } from "../../lib/domain-errors";
import { type ConsoleContext, type ConsoleSession, pathIdOf, sessionDb } from "../context";
import {
  checked,
  type FormValues,
  fieldErrorsOf,
  formValues,
  inConsoleWords,
  numberField,
  refusalMessage,
  zodFieldErrors,
} from "../forms";
import {
  afterChange,
  Badge,
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

const STATES: SyncedPostState[] = ["draft", "queued", "published", "failed"];

const configValues = (k: SyncConfigView): FormValues => ({
  blog_url: k.blog_url,
  subreddit: k.subreddit,
  persona_id: k.persona_id === null ? "" : String(k.persona_id),
  include_media: String(k.include_media),
  active: String(k.active),
  publish_immediately: String(k.publish_immediately),
  max_posts: String(k.max_posts),
});

function configInput(values: FormValues, id?: number) {
  return {
    ...(id === undefined ? {} : { id }),
    blog_url: values.blog_url ?? "",
    subreddit: values.subreddit ?? "",
    persona_id: numberField(values.persona_id) ?? null,
    include_media: checked(values, "include_media"),
    active: checked(values, "active"),
    publish_immediately: checked(values, "publish_immediately"),
    max_posts: numberField(values.max_posts),
  };
}

/** The persona picked by name; the empty choice leaves it to publishing (the first ready persona). */
function PersonaSelect({ personas, value, errors }: { personas: PersonaRow[]; value?: string; errors?: FieldErrors }) {
  const error = errors?.persona_id;
  return (
    <div>
      <label for="f-persona_id">Persona</label>
      <select
        id="f-persona_id"
        name="persona_id"
        aria-invalid={error ? "true" : undefined}
        aria-describedby={error ? "f-persona_id-error" : undefined}
      >
        <option value="" selected={!value}>
          Chosen when publishing
        </option>
        {personas.map((p) => (
          <option value={String(p.id)} selected={value === String(p.id)}>
            {`u/${p.username}${p.approved ? "" : " (not approved yet)"}${p.active ? "" : " (inactive)"}`}
          </option>
        ))}
      </select>
      {error ? (
        <p class="error" id="f-persona_id-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

interface ConfigFieldsProps {
  values: FormValues;
  errors?: FieldErrors;
  personas: PersonaRow[];
}

function ConfigFields({ values, errors, personas }: ConfigFieldsProps) {
  return (
    <>
      <div class="row">
        <Field
          name="blog_url"
          label="Blog address (index, feed, sitemap or landing page)"
          type="url"
          value={values.blog_url}
          errors={errors}
          required
          wide
        />
      </div>
      <div class="row">
        <Field
          name="subreddit"
          label="Destination subreddit"
          value={values.subreddit}
          errors={errors}
          required
          placeholder="r/example"
        />
        <PersonaSelect personas={personas} value={values.persona_id} errors={errors} />
        <Field
          name="max_posts"
          label="Posts per run (1–50)"
          type="number"
          min={1}
          max={50}
          value={values.max_posts}
          errors={errors}
        />
      </div>
      <div class="row">
        <Checkbox name="include_media" label="Include images" checked={checked(values, "include_media")} />
        <Checkbox name="active" label="Active (daily runs, publishing)" checked={checked(values, "active")} />
        <Checkbox
          name="publish_immediately"
          label="Queue new drafts for publishing"
          checked={checked(values, "publish_immediately")}
        />
      </div>
    </>
  );
}

async function attemptSave(c: ConsoleContext, input: unknown) {
  const parsed = BlogSyncConfigInput.safeParse(input);
  if (!parsed.success) return { errors: zodFieldErrors(parsed.error) };
  try {
    const saved = await saveConfig(c.env, sessionDb(c), parsed.data);
    await recordConfigSaved(sessionDb(c), c.get("session").auth.actor, saved.config, saved.created);
    return { saved };
  } catch (err) {
    const fields = fieldErrorsOf(err);
    if (fields) return { errors: fields };
    const message = refusalMessage(err);
    if (message) return { errors: { form: message } };
    throw err;
  }
}

// ---- the list of configs

async function listPage(c: ConsoleContext, failed?: { errors: FieldErrors; values: FormValues }) {
  const session = c.get("session");
  const w = sessionDb(c);
  const [configs, personas] = await Promise.all([listConfigs(w), listPersonaRows(w)]);
  return c.html(
    <Page title="Blog sync" section="/app/syncs" session={session}>
      {failed ? null : <Done done={c.req.query("done")} messages={DONE} />}
      <table class="list">
        <ListHead columns={["Blog → subreddit", "Active", "Drafts / queued / published / failed", "Last run"]} />
        <tbody>
          {configs.map((k) => (
            <tr>
              <td>
                <a href={`/app/syncs/${k.id}`}>{`${k.blog_url} → r/${k.subreddit}`}</a>
              </td>
              <td>{k.active ? "yes" : "no"}</td>
              <td>{STATES.map((s) => k.item_counts[s]).join(" / ")}</td>
              <td>{when(k.last_run_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {configs.length === 0 ? <p class="meta">No blog sync yet.</p> : null}
      {session.canWrite ? (
        <PostForm session={session} action="/app/syncs" class="card">
          <h2>New blog sync</h2>
          {failed?.errors.form ? <Notice kind="bad">{failed.errors.form}</Notice> : null}
          <ConfigFields
            values={failed?.values ?? { active: "true", max_posts: "5" }}
            errors={failed?.errors}
            personas={personas}
          />
          <div class="actions">
            <button type="submit">Create</button>
          </div>
        </PostForm>
      ) : null}
    </Page>,
    failed ? 400 : 200,
  );
}

export const syncsPage = (c: ConsoleContext) => listPage(c);

export async function createSync(c: ConsoleContext) {
  const values = await formValues(c);
  const result = await attemptSave(c, configInput(values));
  if (result.errors) return listPage(c, { errors: result.errors, values });
  return c.redirect(afterChange(`/app/syncs/${result.saved.config.id}`, "created"), 303);
}

// ---- one config

const configIdOf = (c: ConsoleContext) => pathIdOf(c, "id", "sync config");

const DONE: Record<string, string> = {
  created: "Blog sync created. Run a dry run to preview what it would write.",
  saved: "Settings saved.",
  ran: "Run finished: its counts are the newest line of Recent runs, its drafts are under Synced posts.",
};

interface SyncPageExtras {
  failed?: { errors: FieldErrors; values: FormValues };
  preview?: RunResult;
  notice?: { kind?: "good" | "bad"; text: string };
  /** The HTTP status of a refusal (409 for a run in progress). */
  status?: number;
}

async function configPage(c: ConsoleContext, id: number, extras: SyncPageExtras = {}) {
  const session = c.get("session");
  const w = sessionDb(c);
  const config = await getConfig(w, id);
  if (!config) throw notFound("sync config");
  const stateParam = c.req.query("state");
  const state = STATES.includes(stateParam as SyncedPostState) ? (stateParam as SyncedPostState) : undefined;
  const [{ data: runs }, items, personas] = await Promise.all([
    listRuns(w, id, { limit: 10, offset: 0 }),
    listSyncedPosts(w, id, { state, limit: 50, offset: 0 }),
    listPersonaRows(w),
  ]);
  const { failed, preview, notice } = extras;
  const status = (extras.status ?? (failed ? 400 : 200)) as 200 | 400 | 409;
  const quiet = failed || preview || notice;
  return c.html(
    <Page title={`Blog sync: r/${config.subreddit}`} section="/app/syncs" session={session}>
      {quiet ? null : <Done done={c.req.query("done")} messages={DONE} />}
      {notice ? <Notice kind={notice.kind}>{notice.text}</Notice> : null}
      <p class="meta">
        {config.blog_url} → r/{config.subreddit} · last run {when(config.last_run_at)}
        {config.last_error ? <> · last error: {config.last_error}</> : null}
      </p>
      {session.canWrite ? (
        <SettingsForms session={session} config={config} personas={personas} failed={failed} />
      ) : (
        <ReadOnlySettings config={config} personas={personas} />
      )}
      {preview ? <DryRunPreview preview={preview} /> : null}
      <RecentRuns runs={runs} />
      <SyncedPosts id={id} config={config} state={state} items={items} />
    </Page>,
    status,
  );
}

interface SettingsProps {
  session: ConsoleSession;
  config: SyncConfigView;
  personas: PersonaRow[];
  failed?: { errors: FieldErrors; values: FormValues };
}

function SettingsForms({ session, config, personas, failed }: SettingsProps) {
  return (
    <>
      <PostForm session={session} action={`/app/syncs/${config.id}`} class="card">
        <h2>Settings</h2>
        {failed?.errors.form ? <Notice kind="bad">{failed.errors.form}</Notice> : null}
        <ConfigFields values={failed?.values ?? configValues(config)} errors={failed?.errors} personas={personas} />
        <div class="actions">
          <button type="submit">Save settings</button>
        </div>
      </PostForm>
      <div class="card">
        <h2>Run</h2>
        <p class="meta">
          A dry run previews what a run would write, and writes nothing. A run writes drafts (it queues nothing for
          publishing from here).
        </p>
        <div class="actions">
          <PostForm session={session} action={`/app/syncs/${config.id}/dry-run`} class="inline">
            <button type="submit">Dry run (preview)</button>
          </PostForm>
          <PostForm session={session} action={`/app/syncs/${config.id}/run`} class="inline">
            <button type="submit" class="secondary">
              Run now (drafts only)
            </button>
          </PostForm>
        </div>
      </div>
    </>
  );
}

/** The persona as a person knows it: by name. */
const personaLabel = (config: SyncConfigView, personas: PersonaRow[]) => {
  if (config.persona_id === null) return "chosen when publishing";
  const persona = personas.find((p) => p.id === config.persona_id);
  return persona ? `u/${persona.username}` : "a persona that no longer exists";
};

function ReadOnlySettings({ config, personas }: { config: SyncConfigView; personas: PersonaRow[] }) {
  return (
    <section class="card" aria-label="Settings">
      <h2>Settings</h2>
      <p>
        Persona: {personaLabel(config, personas)} · images {config.include_media ? "on" : "off"} ·{" "}
        {config.active ? "active" : "inactive"} · publish immediately {config.publish_immediately ? "on" : "off"} ·{" "}
        {config.max_posts} posts per run
      </p>
    </section>
  );
}

function DryRunPreview({ preview }: { preview: RunResult }) {
  return (
    <section aria-label="Dry-run preview">
      <h2>{`Dry-run preview: ${preview.run.status}, ${preview.run.discovered} found via ${preview.run.source_kind ?? "nothing"}`}</h2>
      {preview.run.error ? <Notice kind="bad">{preview.run.error}</Notice> : null}
      {preview.items.map((item) => (
        <article class="card">
          <h3>{item.title ?? item.source_url}</h3>
          <p class="meta">
            {item.action} → {item.state ?? "no state"} · <a href={item.source_url}>{item.source_url}</a>
          </p>
          {item.error ? <p class="error">{inConsoleWords(item.error)}</p> : null}
          {item.warnings.length > 0 ? (
            <ul class="reasons">
              {item.warnings.map((warning) => (
                <li>{warning}</li>
              ))}
            </ul>
          ) : null}
          {item.body_markdown ? (
            <div class="post">
              <section class="body" tabindex={0} aria-label={`Markdown of ${item.title ?? item.source_url}`}>
                {item.body_markdown.slice(0, 1500)}
              </section>
            </div>
          ) : null}
        </article>
      ))}
    </section>
  );
}

function RecentRuns({ runs }: { runs: Awaited<ReturnType<typeof listRuns>>["data"] }) {
  return (
    <>
      <h2>Recent runs</h2>
      {runs.length === 0 ? (
        <p class="meta">No run yet.</p>
      ) : (
        <table class="list">
          <ListHead
            columns={["Started", "Status", "Found / created / updated / unchanged / queued / failed", "Error"]}
          />
          <tbody>
            {runs.map((r) => (
              <tr>
                <td>{when(r.started_at)}</td>
                <td>{`${r.status} (${r.trigger})`}</td>
                <td>{[r.discovered, r.created, r.updated, r.unchanged, r.queued, r.failed].join(" / ")}</td>
                <td>{r.error ? inConsoleWords(r.error) : ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

interface SyncedPostsProps {
  id: number;
  config: SyncConfigView;
  state: SyncedPostState | undefined;
  items: Awaited<ReturnType<typeof listSyncedPosts>>;
}

function SyncedPosts({ id, config, state, items }: SyncedPostsProps) {
  return (
    <>
      <h2>Synced posts</h2>
      <nav class="row" aria-label="Filter by state">
        <a
          href={`/app/syncs/${id}`}
          aria-current={state === undefined ? "page" : undefined}
        >{`all (${STATES.reduce((n, s) => n + config.item_counts[s], 0)})`}</a>
        {STATES.map((s) => (
          <a
            href={`/app/syncs/${id}?state=${s}`}
            aria-current={state === s ? "page" : undefined}
          >{`${s} (${config.item_counts[s]})`}</a>
        ))}
      </nav>
      <table class="list">
        <ListHead columns={["Title", "State", "Approved", "Updated"]} />
        <tbody>
          {items.data.map((item) => (
            <tr>
              <td>
                <a href={`/app/syncs/${id}/items/${item.id}`}>{item.title}</a>
                {item.error ? <p class="error">{inConsoleWords(item.error)}</p> : null}
              </td>
              <td>
                <Badge value={item.state} />
              </td>
              <td>{when(item.approved_at)}</td>
              <td>{when(item.updated_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {items.count > items.data.length ? (
        <p class="meta">{`Showing the newest ${items.data.length} of ${items.count}.`}</p>
      ) : null}
    </>
  );
}

export const syncPage = (c: ConsoleContext) => configPage(c, configIdOf(c));

export async function updateSync(c: ConsoleContext) {
  const id = configIdOf(c);
  const values = await formValues(c);
  const result = await attemptSave(c, configInput(values, id));
  if (result.errors) return configPage(c, id, { failed: { errors: result.errors, values } });
  return c.redirect(afterChange(`/app/syncs/${id}`, "saved"), 303);
}

/**
 * The dry run (its preview is the answer: it changes nothing) and the drafts-only run (a redirect to the page
 * with the new run in its list), through runSync like POST .../run; a 409 says what and when.
 */
async function run(c: ConsoleContext, dryRun: boolean) {
  const id = configIdOf(c);
  try {
    const result = await runSync(c.env, sessionDb(c), id, { dryRun, publish: false, trigger: "api" });
    if (dryRun) return configPage(c, id, { preview: result });
    return c.redirect(afterChange(`/app/syncs/${id}`, "ran"), 303);
  } catch (err) {
    const message = refusalMessage(err);
    if (!message) throw err;
    return configPage(c, id, { notice: { kind: "bad", text: message }, status: 409 });
  }
}

export const dryRunSync = (c: ConsoleContext) => run(c, true);
export const runSyncNow = (c: ConsoleContext) => run(c, false);
