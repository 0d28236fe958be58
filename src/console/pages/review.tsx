// Review (/app/syncs/:id/items/:item_id): the draft as the forum will show it, its preflight report, its
// destination and persona, one Approve button (disabled with the reasons while a gate is closed, and once the
// post is approved), who approved it and when, what a visitor sees of it once published, and the form that
// edits its title and markdown.

import { editSyncedPost } from "../../blog-sync/edit-draft";
import { SyncedPostEdit } from "../../contracts/blog-syncs";
import { configView, getConfigRow, type SyncConfigRow, type SyncConfigView } from "../../db/blog-sync-configs";
import { getSyncedPost, type SyncedPostRow, type SyncedPostView, serializeSyncedPost } from "../../db/blog-sync-posts";
import type { WorkspaceDb } from "../../db/client";
import { notFound } from "../../lib/domain-errors";
import { choosePersona } from "../../publishing/destination";
import { type ApprovalGate, approvalGatesOf } from "../../publishing/gates";
import { approveForPublishing, type PreflightCheck, preflightFor } from "../approval";
import { type ConsoleContext, type ConsoleSession, pathIdOf, sessionDb } from "../context";
import { type FormValues, fieldErrorsOf, formValues, inConsoleWords, refusalMessage, zodFieldErrors } from "../forms";
import { afterChange, Badge, Done, Field, type FieldErrors, Notice, Page, PostForm, when } from "../layout";
import { renderMarkdown } from "../markdown";

const idParam = (c: ConsoleContext, name: string) => pathIdOf(c, name, "synced post");

const DONE = {
  approved: "Approved for publishing. The post's state above changes to published once it is on the forum.",
  edited: "Saved. The preview below shows the edited post.",
};

/** What went wrong with the last form, shown beside it: the approval's refusal or the edit's field errors. */
interface Refused {
  approve?: string;
  edit?: { errors: FieldErrors; values: FormValues };
  status: 400 | 409;
}

type Preflight = { available: false; reason: string } | { available: true; checks: PreflightCheck[] };

async function loadReview(c: ConsoleContext) {
  const w = sessionDb(c);
  const configId = idParam(c, "id");
  const itemId = idParam(c, "item_id");
  const [configRow, row] = await Promise.all([getConfigRow(w, configId), getSyncedPost(w, itemId)]);
  if (!configRow || !row || row.configId !== configId) throw notFound("synced post");
  // The gates before the preflight: the preflight itself takes the workspace's browser for a moment.
  const [config, gates, persona] = await Promise.all([
    configView(w, configRow),
    approvalGatesOf(c.env, w, configRow, row),
    personaName(w, configRow),
  ]);
  // While another browser job runs, the page does not queue behind it for its own preflight: it says so.
  const busy = gates.find((g) => g.name === "browser" && !g.open);
  const preflight: Preflight = busy
    ? { available: false, reason: `${busy.reason}. Reload the page then to run the preflight.` }
    : await preflightFor(c.env, c.get("session").auth, w, configId, itemId);
  return { config, row, post: serializeSyncedPost(row), gates, persona, preflight };
}

/** Who the forum will show as the author: the config's persona, else the one publishing would choose now. */
async function personaName(w: WorkspaceDb, config: SyncConfigRow): Promise<string> {
  const { persona } = await choosePersona(w, config);
  if (!persona) return "the persona chosen when publishing (none is ready yet)";
  return config.personaId === null ? `u/${persona.username} (chosen automatically)` : `u/${persona.username}`;
}

async function reviewPage(c: ConsoleContext, refused?: Refused) {
  const session = c.get("session");
  const { config, row, post, gates, persona, preflight } = await loadReview(c);
  return c.html(
    <Page title={`Review: ${post.title}`} section="/app/syncs" session={session}>
      {refused ? null : <Done done={c.req.query("done")} messages={DONE} />}
      <ReviewMeta c={c} post={post} configId={config.id} />
      <ApprovalCard session={session} post={post} config={config} gates={gates} refusal={refused?.approve} />
      <PreflightCard preflight={preflight} />
      <h2>As it will appear on the forum</h2>
      <article class="forum" aria-label="Draft preview">
        <p class="sr">{`r/${config.subreddit} · Posted by ${persona}`}</p>
        <h2 class="title">{post.title}</h2>
        <div class="md">{renderMarkdown(post.body_markdown, post.images)}</div>
      </article>
      <EditCard session={session} row={row} post={post} failed={refused?.edit} />
    </Page>,
    refused?.status ?? 200,
  );
}

function ReviewMeta({ c, post, configId }: { c: ConsoleContext; post: SyncedPostView; configId: number }) {
  return (
    <div class="meta">
      <a href={`/app/syncs/${configId}`}>← Back to the sync</a> · <Badge value={post.state} />
      {post.approved_at && post.state !== "published" ? (
        <>
          {" "}
          <Badge value="approved" />
        </>
      ) : null}{" "}
      · from{" "}
      <a href={post.source_url} rel="noopener noreferrer">
        {post.source_url}
      </a>{" "}
      · updated {when(post.updated_at)} · approved {when(post.approved_at)}
      {post.permalink ? (
        <>
          {" "}
          ·{" "}
          <a href={new URL(post.permalink, c.env.FORUM_BASE_URL).href} rel="noopener noreferrer">
            on the forum
          </a>
        </>
      ) : null}
      {post.error ? <p class="error">{inConsoleWords(post.error)}</p> : null}
      <ApprovalLine post={post} />
      <VisibilityLine post={post} />
    </div>
  );
}

/** Who approved the post and when (an API key today, the console's session key included). */
function ApprovalLine({ post }: { post: SyncedPostView }) {
  if (!post.approved_at) return null;
  const who = post.approved_by
    ? `${post.approved_by.type === "key" ? "API key" : "person"} “${post.approved_by.name}”`
    : "someone (not recorded)";
  return (
    <p id="approval">
      Approved by {who}, {when(post.approved_at)}
      {post.approved_content_hash ? <> · content {post.approved_content_hash.slice(0, 12)}</> : null}
    </p>
  );
}

/** What a logged-out visitor sees of the published post, from its last visibility check. */
function VisibilityLine({ post }: { post: SyncedPostView }) {
  if (post.state !== "published") return null;
  if (!post.visibility) return <p id="visibility">On the forum: not checked yet.</p>;
  return (
    <p id="visibility" class={post.visibility === "live" ? undefined : "error"}>
      On the forum: <Badge value={post.visibility} />, checked {when(post.visibility_checked_at)}
      {post.visibility_reason ? `: ${post.visibility_reason}` : ""}
    </p>
  );
}

interface ApprovalProps {
  session: ConsoleSession;
  post: SyncedPostView;
  config: SyncConfigView;
  gates: ApprovalGate[];
  refusal?: string;
}

/** The gates and the Approve button; an approved post's button says so and waits for an edit to be asked again. */
function ApprovalCard({ session, post, config, gates, refusal }: ApprovalProps) {
  const closed = gates.filter((g) => !g.open);
  // Approved and not held up: asking again would change nothing. A queued post whose publish task found a gate
  // closed (its error says which) may be approved again, which sends the task again.
  const approved = post.approved_at !== null && post.state !== "failed" && !post.error;
  const why =
    closed.length > 0
      ? `Approve is disabled: ${closed.map((g) => inConsoleWords(g.reason)).join("; ")}.`
      : approved
        ? `Approved ${post.approved_at!.slice(0, 16).replace("T", " ")} UTC: it will be published to r/${config.subreddit}.`
        : `Approving lets this post be published to r/${config.subreddit}.`;
  return (
    <section class="card" aria-label="Approval">
      <h2>Before approving</h2>
      <ul class="gates">
        {gates.map((g) => (
          <li class={g.open ? "open" : "closed"}>{inConsoleWords(g.reason)}</li>
        ))}
      </ul>
      {session.canWrite ? (
        <PostForm session={session} action={`/app/syncs/${config.id}/items/${post.id}/approve`}>
          <button
            type="submit"
            disabled={closed.length > 0 || approved}
            aria-describedby={refusal ? "approve-error approve-why" : "approve-why"}
          >
            {approved ? "Approved" : "Approve for publishing"}
          </button>
          {refusal ? (
            <div id="approve-error">
              <Notice kind="bad">{refusal}</Notice>
            </div>
          ) : null}
          <p class="meta" id="approve-why">
            {why}
          </p>
        </PostForm>
      ) : (
        <p class="meta">This session is read-only: approving needs a read_write key.</p>
      )}
    </section>
  );
}

function PreflightCard({ preflight }: { preflight: Preflight }) {
  return (
    <section class="card" aria-label="Publish preflight">
      <h2>Publish preflight</h2>
      {preflight.available ? (
        <ul class="gates">
          {preflight.checks.map((check) => (
            <li
              class={check.ok ? "open" : "closed"}
            >{`${check.name}: ${check.ok ? "ok" : inConsoleWords(check.reason ?? "failed")}`}</li>
          ))}
        </ul>
      ) : (
        <p class="meta">{preflight.reason}</p>
      )}
    </section>
  );
}

interface EditProps {
  session: ConsoleSession;
  row: SyncedPostRow;
  post: SyncedPostView;
  failed?: { errors: FieldErrors; values: FormValues };
}

/** Title and markdown, saved through the same edit as PATCH .../items/:item_id (a published post has none). */
function EditCard({ session, row, post, failed }: EditProps) {
  if (!session.canWrite || post.state === "published") return null;
  const values = failed?.values ?? { title: post.title, body_markdown: post.body_markdown };
  const error = failed?.errors.body_markdown;
  return (
    <PostForm session={session} action={`/app/syncs/${row.configId}/items/${post.id}/edit`} class="card edit">
      <h2>Edit the post</h2>
      {failed?.errors.form ? <Notice kind="bad">{failed.errors.form}</Notice> : null}
      <Field name="title" label="Title" value={values.title} errors={failed?.errors} required />
      <label for="f-body_markdown">Markdown (as the forum reads it)</label>
      <textarea
        id="f-body_markdown"
        name="body_markdown"
        rows={18}
        aria-invalid={error ? "true" : undefined}
        aria-describedby={error ? "f-body_markdown-error" : undefined}
      >
        {values.body_markdown}
      </textarea>
      {error ? (
        <p class="error" id="f-body_markdown-error">
          {error}
        </p>
      ) : null}
      <p class="meta">
        Saving makes a queued or failed post a draft again and clears its approval: approve the new text.
      </p>
      <div class="actions">
        <button type="submit">Save the post</button>
      </div>
    </PostForm>
  );
}

export const reviewItemPage = (c: ConsoleContext) => reviewPage(c);

const reviewPath = (c: ConsoleContext) => `/app/syncs/${idParam(c, "id")}/items/${idParam(c, "item_id")}`;

export async function approveItem(c: ConsoleContext) {
  try {
    await approveForPublishing(c.env, c.get("session").auth, sessionDb(c), idParam(c, "id"), idParam(c, "item_id"));
  } catch (err) {
    const message = refusalMessage(err);
    if (!message) throw err;
    return reviewPage(c, { approve: message, status: 409 });
  }
  return c.redirect(afterChange(reviewPath(c), "approved"), 303);
}

export async function editItem(c: ConsoleContext) {
  const values = await formValues(c);
  const parsed = SyncedPostEdit.safeParse({ title: values.title ?? "", body_markdown: values.body_markdown ?? "" });
  if (!parsed.success) return reviewPage(c, { edit: { errors: zodFieldErrors(parsed.error), values }, status: 400 });
  try {
    await editSyncedPost(sessionDb(c), idParam(c, "id"), idParam(c, "item_id"), parsed.data);
  } catch (err) {
    const fields = fieldErrorsOf(err);
    const message = fields ? undefined : refusalMessage(err);
    if (!fields && !message) throw err;
    return reviewPage(c, { edit: { errors: fields ?? { form: message! }, values }, status: fields ? 400 : 409 });
  }
  return c.redirect(afterChange(reviewPath(c), "edited"), 303);
}
