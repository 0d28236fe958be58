// Review (/app/syncs/:id/items/:item_id): the draft as the forum will show it, its preflight report, its
// destination and persona, and one Approve button, disabled with the reasons while a gate is closed.

import { configView, getConfigRow } from "../../db/blog-sync-configs";
import { getSyncedPost, serializeSyncedPost } from "../../db/blog-sync-posts";
import { notFound } from "../../lib/domain-errors";
import { approvalGatesOf } from "../../publishing/gates";
import { approveForPublishing, preflightFor } from "../approval";
import { type ConsoleContext, pathIdOf, sessionDb } from "../context";
import { refusalMessage } from "../forms";
import { Badge, Notice, Page, PostForm, when } from "../layout";
import { renderMarkdown } from "../markdown";

const idParam = (c: ConsoleContext, name: string) => pathIdOf(c, name, "synced post");

/** The page; `refusal` is why an approval was just refused, shown beside the Approve button. */
async function reviewPage(c: ConsoleContext, refusal?: string, status = 200) {
  const session = c.get("session");
  const w = sessionDb(c);
  const configId = idParam(c, "id");
  const itemId = idParam(c, "item_id");
  const [configRow, row] = await Promise.all([getConfigRow(w, configId), getSyncedPost(w, itemId)]);
  if (!configRow || !row || row.configId !== configId) throw notFound("synced post");
  const config = await configView(w, configRow);
  const post = serializeSyncedPost(row);
  // The gates before the preflight: the preflight itself takes the workspace's browser for a moment.
  const gates = await approvalGatesOf(c.env, w, configRow, row);
  const closed = gates.filter((g) => !g.open);
  // While another browser job runs, the page does not queue behind it for its own preflight: it says so.
  const busy = closed.find((g) => g.name === "browser");
  const preflight = busy
    ? { available: false as const, reason: `${busy.reason}. Reload the page then to run the preflight.` }
    : await preflightFor(c.env, session.auth, w, configId, itemId);
  return c.html(
    <Page title={`Review: ${post.title}`} section="/app/syncs" session={session}>
      <p class="meta">
        <a href={`/app/syncs/${configId}`}>← Back to the sync</a> · <Badge value={post.state} /> · from{" "}
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
      </p>
      <section class="card" aria-label="Approval">
        <h2>Before approving</h2>
        <ul class="gates">
          {gates.map((g) => (
            <li class={g.open ? "open" : "closed"}>{g.reason}</li>
          ))}
        </ul>
        {session.canWrite ? (
          <PostForm session={session} action={`/app/syncs/${configId}/items/${itemId}/approve`}>
            <button
              type="submit"
              disabled={closed.length > 0}
              aria-describedby={refusal ? "approve-error approve-why" : "approve-why"}
            >
              Approve for publishing
            </button>
            {refusal ? (
              <div id="approve-error">
                <Notice kind="bad">{refusal}</Notice>
              </div>
            ) : null}
            <p class="meta" id="approve-why">
              {closed.length > 0
                ? `Approve is disabled: ${closed.map((g) => g.reason).join("; ")}.`
                : `Approving lets this post be published to r/${config.subreddit}.`}
            </p>
          </PostForm>
        ) : (
          <p class="meta">This session is read-only: approving needs a read_write key.</p>
        )}
      </section>
      <section class="card" aria-label="Publish preflight">
        <h2>Publish preflight</h2>
        {preflight.available ? (
          <ul class="gates">
            {preflight.checks.map((check) => (
              <li
                class={check.ok ? "open" : "closed"}
              >{`${check.name}: ${check.ok ? "ok" : (check.reason ?? "failed")}`}</li>
            ))}
          </ul>
        ) : (
          <p class="meta">{preflight.reason}</p>
        )}
      </section>
      <h2>As it will appear on the forum</h2>
      <article class="forum" aria-label="Draft preview">
        <p class="sr">
          r/{config.subreddit} · Posted by{" "}
          {config.persona_id === null ? "the persona chosen when publishing" : `persona ${config.persona_id}`}
        </p>
        <h2 class="title">{post.title}</h2>
        <div class="md">{renderMarkdown(post.body_markdown, post.images)}</div>
      </article>
    </Page>,
    status as 200,
  );
}

export const reviewItemPage = (c: ConsoleContext) => reviewPage(c);

export async function approveItem(c: ConsoleContext) {
  const w = sessionDb(c);
  const configId = idParam(c, "id");
  const itemId = idParam(c, "item_id");
  try {
    await approveForPublishing(c.env, w, configId, itemId);
  } catch (err) {
    const message = refusalMessage(err);
    if (!message) throw err;
    return reviewPage(c, message, 409);
  }
  return c.redirect(`/app/syncs/${configId}/items/${itemId}`, 303);
}
