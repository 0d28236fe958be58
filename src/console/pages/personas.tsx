// Personas (/app/personas): the workspace's forum accounts with their flags and last error, Connect (a POST
// that sends the person to the forum's consent page; the forum sends them back to /oauth/forum/callback) and
// delete (the grant is revoked at the forum first). Read-only sessions see the list and no buttons.
import type { PersonaView } from "../../db/personas";
import { DEFAULT_AUTHORIZE_URL } from "../../forum/oauth";
import { isDomainError } from "../../lib/domain-errors";
import { connectPersona } from "../../personas/connect";
import { deletePersona, listPersonas, preflightPersona } from "../../personas/personas";
import { type ConsoleContext, type ConsoleSession, pathIdOf, sessionDb } from "../context";
import { afterChange, Done, ListHead, Notice, Page, PostForm, when } from "../layout";

const yes = (flag: boolean) => (flag ? "yes" : "no");

function PersonaRows({ session, personas }: { session: ConsoleSession; personas: PersonaView[] }) {
  return (
    <table class="list">
      <ListHead
        columns={[
          "Account",
          "Active",
          "Connected",
          "Visible",
          "Approved",
          "Last checked",
          "Last error",
          ...(session.canWrite ? [""] : []),
        ]}
      />
      <tbody>
        {personas.map((p) => (
          <tr id={`persona-${p.id}`}>
            <td>{`u/${p.username}`}</td>
            <td>{yes(p.active)}</td>
            <td>{yes(p.auth_completed)}</td>
            <td>{yes(p.browser_ready)}</td>
            <td>{yes(p.approved)}</td>
            <td>{when(p.last_checked_at)}</td>
            <td class="reason">{p.last_error ?? ""}</td>
            {session.canWrite ? (
              <td>
                <PostForm session={session} action={`/app/personas/${p.id}/check`} class="inline">
                  <button type="submit" class="secondary">
                    Check
                  </button>
                </PostForm>
                <PostForm session={session} action={`/app/personas/${p.id}/delete`} class="inline">
                  <button
                    type="submit"
                    class="danger"
                    data-confirm={`Delete u/${p.username}? Its connection is revoked at the forum.`}
                  >
                    Delete
                  </button>
                </PostForm>
              </td>
            ) : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const DONE = {
  deleted: "Persona deleted: its connection was revoked at the forum.",
  checked: "Persona checked: its flags and last error below are the check's verdict.",
};

async function personasPage(c: ConsoleContext, problem?: string) {
  const session = c.get("session");
  const personas = await listPersonas(sessionDb(c));
  // Connect's answer redirects to the forum's consent page: this page's form may lead there.
  c.set("formTarget", new URL(c.env.REDDIT_AUTHORIZE_URL || DEFAULT_AUTHORIZE_URL).origin);
  return c.html(
    <Page title="Personas" section="/app/personas" session={session}>
      {problem ? <Notice kind="bad">{problem}</Notice> : <Done done={c.req.query("done")} messages={DONE} />}
      <h2>{`Forum accounts (${personas.length})`}</h2>
      {personas.length > 0 ? (
        <PersonaRows session={session} personas={personas} />
      ) : (
        <p class="meta">No forum account is connected to this workspace yet.</p>
      )}
      {session.canWrite ? (
        <PostForm session={session} action="/app/personas/connect" class="card">
          <p>
            Connect sends you to the forum to sign in as the account and allow this service to post for it. The forum
            then sends you back here.
          </p>
          <button type="submit">Connect a forum account</button>
        </PostForm>
      ) : (
        <p class="meta">This session is read-only: connecting and deleting accounts needs a read_write key.</p>
      )}
    </Page>,
    problem ? 409 : 200,
  );
}

export const personasListPage = (c: ConsoleContext) => personasPage(c);

export async function connectFromConsole(c: ConsoleContext) {
  try {
    const actor = c.get("session").auth.actor;
    const connection = await connectPersona(c.env, sessionDb(c), new URL(c.req.url).origin, actor);
    return c.redirect(connection.authorize_url, 303);
  } catch (err) {
    if (isDomainError(err, "invalid_state")) return personasPage(c, err.message);
    throw err;
  }
}

export async function deleteFromConsole(c: ConsoleContext) {
  const id = pathIdOf(c, "id", "persona");
  try {
    await deletePersona(c.env, sessionDb(c), id, c.get("session").auth.actor);
  } catch (err) {
    if (isDomainError(err, "invalid_state") || isDomainError(err, "forum_unreachable"))
      return personasPage(c, err.message);
    throw err;
  }
  return c.redirect(afterChange("/app/personas", "deleted"), 303);
}

/** The persona check from the console: its verdict shows in the row's flags and last error. */
export async function checkFromConsole(c: ConsoleContext) {
  const id = pathIdOf(c, "id", "persona");
  try {
    await preflightPersona(c.env, sessionDb(c), id);
  } catch (err) {
    const known = ["invalid_state", "forum_unreachable", "browser_unavailable", "browser_busy"] as const;
    if (known.some((kind) => isDomainError(err, kind))) return personasPage(c, (err as Error).message);
    throw err;
  }
  return c.redirect(afterChange("/app/personas", "checked", `persona-${id}`), 303);
}
