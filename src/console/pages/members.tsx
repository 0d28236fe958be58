// Settings › Members (/app/settings/members) and Settings › Audit (/app/settings/audit), for owner and admin
// sessions: the same services as /actions/members and /actions/audit-events. An invitation's link is shown
// to copy (no email is sent).
import { listAuditEvents } from "../../audit/events";
import { directoryDb } from "../../db/client";
import { DomainError } from "../../lib/domain-errors";
import { isRole, ROLES } from "../../lib/role";
import { changeRole, invitationPath, inviteMember, membersOf, removeMember } from "../../people/members";
import { type ConsoleContext, type ConsoleSession, pathIdOf, sessionDb } from "../context";
import { formValues, refusalMessage } from "../forms";
import { afterChange, Done, Field, type FieldErrors, ListHead, Notice, Page, PostForm, when } from "../layout";

const DONE = {
  role: "Role changed.",
  removed: "Member removed: their sessions here ended and their keys were revoked.",
};

function RoleSelect({ name, value, id }: { name: string; value: string; id: string }) {
  return (
    <select id={id} name={name} aria-label="Role">
      {[...ROLES].reverse().map((r) => (
        <option value={r} selected={r === value}>
          {r}
        </option>
      ))}
    </select>
  );
}

function Members({ session, members }: { session: ConsoleSession; members: Awaited<ReturnType<typeof membersOf>> }) {
  const manage = session.can("POST", "/settings/members/:person_id");
  return (
    <table class="list" id="members">
      <ListHead columns={["Name", "Email", "Role", "Joined", ""]} />
      <tbody>
        {members.map((m) => (
          <tr id={`member-${m.id}`}>
            <td>{m.name}</td>
            <td>{m.email}</td>
            <td>
              {manage ? (
                <PostForm session={session} action={`/app/settings/members/${m.id}`} class="inline">
                  <RoleSelect name="role" value={m.role} id={`f-role-${m.id}`} />
                  <button type="submit" class="secondary">
                    Change
                  </button>
                </PostForm>
              ) : (
                m.role
              )}
            </td>
            <td>{when(m.joined_at)}</td>
            <td>
              {manage ? (
                <PostForm session={session} action={`/app/settings/members/${m.id}/delete`}>
                  <button type="submit" class="danger" data-confirm={`Remove ${m.name}?`}>
                    Remove
                  </button>
                </PostForm>
              ) : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

interface Extras {
  link?: string;
  errors?: FieldErrors;
  values?: Record<string, string>;
  refusal?: string;
  status?: 400 | 403 | 404 | 409;
}

async function membersPage(c: ConsoleContext, extras: Extras = {}) {
  const session = c.get("session");
  const members = await membersOf(directoryDb(c.env), session.auth.workspaceId);
  return c.html(
    <Page title="Settings › Members" section="/app/settings/members" session={session}>
      {extras.link || extras.refusal ? null : <Done done={c.req.query("done")} messages={DONE} />}
      {extras.refusal ? <Notice kind="bad">{extras.refusal}</Notice> : null}
      {extras.link ? (
        <Notice kind="good">
          <p>Invitation made. No email is sent: copy this single-use link (valid 7 days) to the person.</p>
          <p>
            <code id="invitation-link">{extras.link}</code>{" "}
            <button type="button" class="secondary" data-copy="invitation-link">
              Copy
            </button>
          </p>
        </Notice>
      ) : null}
      <Members session={session} members={members} />
      {session.can("POST", "/settings/members/invitations") ? (
        <PostForm session={session} action="/app/settings/members/invitations" class="card">
          <h2>Invite someone</h2>
          <div class="row">
            <Field
              name="email"
              label="Email"
              type="email"
              value={extras.values?.email}
              errors={extras.errors}
              required
            />
            <div>
              <label for="f-invite-role">Role</label>
              <RoleSelect name="role" value={extras.values?.role ?? "member"} id="f-invite-role" />
            </div>
            <button type="submit">Invite</button>
          </div>
        </PostForm>
      ) : null}
    </Page>,
    extras.status ?? 200,
  );
}

export const membersSettingsPage = (c: ConsoleContext) => membersPage(c);

const REFUSAL_STATUS: Partial<Record<DomainError["kind"], 403 | 404 | 409>> = {
  forbidden: 403,
  not_found: 404,
  invalid_state: 409,
};

/** A refused member change shown on the page: why, with the status the API would answer. */
function refused(c: ConsoleContext, err: unknown, values?: Record<string, string>) {
  if (!(err instanceof DomainError)) throw err;
  const status = REFUSAL_STATUS[err.kind] ?? 400;
  return membersPage(c, { refusal: refusalMessage(err), status, values });
}

export async function inviteForm(c: ConsoleContext) {
  const values = await formValues(c);
  const email = (values.email ?? "").trim();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 320)
    return membersPage(c, { errors: { email: "an email address" }, values, status: 400 });
  // The role comes from the form, so it is checked as the API checks it: a forged value is refused.
  if (!isRole(values.role)) return membersPage(c, { refusal: "choose a role", values, status: 400 });
  const { auth } = c.get("session");
  try {
    const { token } = await inviteMember(directoryDb(c.env), sessionDb(c), auth, { email, role: values.role });
    return membersPage(c, { link: new URL(invitationPath(token), c.req.url).toString() });
  } catch (err) {
    return refused(c, err, values);
  }
}

export async function changeRoleForm(c: ConsoleContext) {
  const id = pathIdOf(c, "person_id", "member");
  const values = await formValues(c);
  if (!isRole(values.role)) return membersPage(c, { refusal: "choose a role", status: 400 });
  try {
    await changeRole(directoryDb(c.env), sessionDb(c), c.get("session").auth, id, values.role);
  } catch (err) {
    return refused(c, err);
  }
  return c.redirect(afterChange("/app/settings/members", "role"), 303);
}

export async function removeMemberForm(c: ConsoleContext) {
  const id = pathIdOf(c, "person_id", "member");
  try {
    await removeMember(directoryDb(c.env), sessionDb(c), c.get("session").auth, id);
  } catch (err) {
    return refused(c, err);
  }
  return c.redirect(afterChange("/app/settings/members", "removed"), 303);
}

const AUDIT_PAGE = 50;

export async function auditSettingsPage(c: ConsoleContext) {
  const session = c.get("session");
  const offset = Math.max(0, Math.min(1_000_000, Number.parseInt(c.req.query("offset") ?? "0", 10) || 0));
  const page = await listAuditEvents(sessionDb(c), {}, { limit: AUDIT_PAGE, offset });
  return c.html(
    <Page title="Settings › Audit" section="/app/settings/audit" session={session}>
      <p class="meta">{`${page.count} events, newest first. Events cannot be changed or deleted.`}</p>
      <table class="list" id="audit">
        <ListHead columns={["When", "Who", "Action", "Target", "Details"]} />
        <tbody>
          {page.data.map((e) => (
            <tr id={`event-${e.id}`}>
              <td>{when(e.at)}</td>
              <td>{`${e.actor.name} (${e.actor.type}${e.actor.id ? ` ${e.actor.id}` : ""})`}</td>
              <td>
                <code>{e.action}</code>
              </td>
              <td>{`${e.target.type} ${e.target.id ?? ""}`}</td>
              <td>
                <code>{JSON.stringify(e.details)}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {offset + page.data.length < page.count ? (
        <nav class="pager">
          <a href={`/app/settings/audit?offset=${offset + AUDIT_PAGE}`}>Older events</a>
        </nav>
      ) : null}
    </Page>,
  );
}
