// Settings › Account (/app/settings/account), a person's own: their sessions (listed, revocable), their
// password (changing it ends every other session), their passkeys; and switching workspace.
import { directoryDb } from "../../db/client";
import { listPasskeys } from "../../db/passkeys";
import { liveSessionsOf, revokePersonSession } from "../../db/person-sessions";
import { DomainError, notFound } from "../../lib/domain-errors";
import { changePassword, switchWorkspace } from "../../people/sessions";
import { type ConsoleContext, type ConsoleSession, pathIdOf } from "../context";
import { fieldErrorsOf, formValues } from "../forms";
import { afterChange, Done, Field, type FieldErrors, ListHead, Notice, Page, PostForm, when } from "../layout";

const DONE = {
  password: "Password changed: every other session of yours has been signed out.",
  revoked: "Session ended.",
  passkey: "Passkey added: you can sign in with it now.",
  passkey_removed: "Passkey removed.",
};

const personOf = (session: ConsoleSession) => {
  if (!session.person) throw notFound("account");
  return session.person;
};

function Sessions({ session, rows }: { session: ConsoleSession; rows: Awaited<ReturnType<typeof liveSessionsOf>> }) {
  const current = personOf(session).sessionId;
  return (
    <table class="list" id="sessions">
      <ListHead columns={["Signed in", "How", "Browser", "Last seen", "Ends", ""]} />
      <tbody>
        {rows.map((s) => (
          <tr id={`session-${s.id}`}>
            <td>{when(s.createdAt)}</td>
            <td>{s.method}</td>
            <td>{s.userAgent ?? "unknown"}</td>
            <td>{when(s.lastSeenAt)}</td>
            <td>{when(s.expiresAt)}</td>
            <td>
              {s.id === current ? (
                "this session"
              ) : (
                <PostForm session={session} action={`/app/settings/account/sessions/${s.id}/revoke`}>
                  <button type="submit" class="danger">
                    End
                  </button>
                </PostForm>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Passkeys({ session, rows }: { session: ConsoleSession; rows: Awaited<ReturnType<typeof listPasskeys>> }) {
  return (
    <>
      {rows.length === 0 ? <p class="meta">No passkey yet.</p> : null}
      {rows.length > 0 ? (
        <table class="list" id="passkeys">
          <ListHead columns={["Name", "Added", "Last used", ""]} />
          <tbody>
            {rows.map((p) => (
              <tr id={`passkey-${p.id}`}>
                <td>{p.name}</td>
                <td>{when(p.createdAt)}</td>
                <td>{when(p.lastUsedAt)}</td>
                <td>
                  <PostForm session={session} action={`/app/settings/account/passkeys/${p.id}/delete`}>
                    <button type="submit" class="danger">
                      Remove
                    </button>
                  </PostForm>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <div class="card" id="passkey-register" data-passkey-register={session.csrf}>
        <label for="f-passkey_name">Name of the new passkey</label>
        <input id="f-passkey_name" type="text" value="My passkey" maxlength={100} />
        <button type="button" id="passkey-add">
          Add a passkey
        </button>
        <p class="error" id="passkey-error" hidden />
      </div>
    </>
  );
}

async function accountPage(c: ConsoleContext, errors?: FieldErrors) {
  const session = c.get("session");
  const person = personOf(session);
  const dir = directoryDb(c.env);
  const [sessions, keys] = await Promise.all([
    liveSessionsOf(dir, person.person.id),
    listPasskeys(dir, person.person.id),
  ]);
  return c.html(
    <Page title="Settings › Account" section="/app/settings/account" session={session}>
      {errors ? null : <Done done={c.req.query("done")} messages={DONE} />}
      <p>{`${person.person.name} <${person.person.email}>`}</p>
      <h2>Sessions</h2>
      <Sessions session={session} rows={sessions} />
      <h2>Passkeys</h2>
      <Passkeys session={session} rows={keys} />
      <PostForm session={session} action="/app/settings/account/password" class="card">
        <h2>Change your password</h2>
        {errors?.form ? <Notice kind="bad">{errors.form}</Notice> : null}
        <div class="row">
          <Field name="current" label="Current password" type="password" errors={errors} required />
          <Field
            name="password"
            label="New password (at least 12 characters)"
            type="password"
            errors={errors}
            required
          />
          <button type="submit">Change password</button>
        </div>
        <p class="meta">Every other session of yours is signed out.</p>
      </PostForm>
    </Page>,
    errors ? 400 : 200,
  );
}

export const accountSettingsPage = (c: ConsoleContext) => accountPage(c);

export async function changePasswordForm(c: ConsoleContext) {
  const form = await formValues(c);
  try {
    await changePassword(directoryDb(c.env), personOf(c.get("session")), {
      current: form.current ?? "",
      password: form.password ?? "",
    });
  } catch (err) {
    if (err instanceof DomainError && err.kind === "invalid_input") return accountPage(c, fieldErrorsOf(err));
    throw err;
  }
  return c.redirect(afterChange("/app/settings/account", "password"), 303);
}

export async function revokeSessionForm(c: ConsoleContext) {
  const id = pathIdOf(c, "session_id", "session");
  const person = personOf(c.get("session"));
  if (!(await revokePersonSession(directoryDb(c.env), person.person.id, id))) throw notFound("session");
  return c.redirect(afterChange("/app/settings/account", "revoked"), 303);
}

export async function switchWorkspaceForm(c: ConsoleContext) {
  const form = await formValues(c);
  const id = Number(form.workspace_id);
  if (!Number.isSafeInteger(id)) throw notFound("workspace");
  await switchWorkspace(directoryDb(c.env), personOf(c.get("session")), id);
  return c.redirect("/app/posts", 303);
}
