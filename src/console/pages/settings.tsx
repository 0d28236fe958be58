// Settings › API (/app/settings/api): the workspace's keys, create (the plain key shown once, on this
// answer only) and revoke, through the same key service as the admin API. Only read_write sessions manage keys.
import { z } from "@hono/zod-openapi";
import { recordAudit } from "../../audit/events";
import { issueKey, MAX_TEMPORARY_KEY_SECONDS } from "../../auth/issue-key";
import { forgetKeyId } from "../../auth/key-cache";
import { listKeys, revokeKey } from "../../db/api-keys";
import { directoryDb } from "../../db/client";
import { forbidden, notFound } from "../../lib/domain-errors";
import { atLeast } from "../../lib/role";
import { type ConsoleContext, type ConsoleSession, pathIdOf, sessionDb } from "../context";
import { checked, type FormValues, formValues, numberField, zodFieldErrors } from "../forms";
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

const MAX_HOURS = MAX_TEMPORARY_KEY_SECONDS / 3600;

const KeyForm = z.strictObject({
  name: z.string().trim().min(1, "give the key a name").max(200),
  scope: z.enum(["read", "read_write"], { message: "choose read or read_write" }),
  temporary: z.boolean(),
  expires_in_hours: z.number({ message: "a number of hours" }).int().min(1).max(MAX_HOURS).optional(),
});

interface Extras {
  created?: { key: string; name: string };
  failed?: { errors: FieldErrors; values: FormValues };
}

type KeyView = Awaited<ReturnType<typeof listKeys>>[number];

/** Admins and owners revoke any key; anyone who may make keys revokes the ones they made. */
const mayRevoke = (session: ConsoleSession, k: { person_id: number | null }) =>
  session.can("POST", "/settings/api/keys/:key_id/revoke") &&
  (atLeast(session.auth.role, "admin") || (k.person_id !== null && k.person_id === session.auth.personId));

/** A key that still opens the API: not revoked and not past its expiry. */
const isActive = (k: KeyView, now: string) => !k.revoked_at && (!k.expires_at || k.expires_at > now);

function KeyStatus({ session, k, active }: { session: ConsoleSession; k: KeyView; active: boolean }) {
  if (k.revoked_at) return <>revoked {when(k.revoked_at)}</>;
  if (!active) return <>expired</>;
  if (!mayRevoke(session, k)) return <>active</>;
  return (
    <PostForm session={session} action={`/app/settings/api/keys/${k.id}/revoke`}>
      <button type="submit" class="danger" data-confirm={`Revoke "${k.name}"? Anything using it stops working.`}>
        {k.id === session.auth.keyId ? "Revoke (signs you out)" : "Revoke"}
      </button>
    </PostForm>
  );
}

function KeyTable({ session, keys, active }: { session: ConsoleSession; keys: KeyView[]; active: boolean }) {
  return (
    <table class="list">
      <ListHead columns={["Name", "Key", "Scope", "Role ceiling", "Last used", "Expires", "Status"]} />
      <tbody>
        {keys.map((k) => (
          <tr id={`key-${k.id}`}>
            <td>{k.name}</td>
            <td>
              <code>{`${k.prefix}…`}</code>
            </td>
            <td>{k.scope}</td>
            <td>{k.role}</td>
            <td>{when(k.last_used_at)}</td>
            <td>{k.expires_at ? when(k.expires_at) : "never"}</td>
            <td>
              <KeyStatus session={session} k={k} active={active} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Active keys first; revoked and expired ones folded away below them (they open nothing any more). */
function Keys({ session, keys }: { session: ConsoleSession; keys: KeyView[] }) {
  const now = new Date().toISOString();
  const active = keys.filter((k) => isActive(k, now));
  const inactive = keys.filter((k) => !isActive(k, now));
  return (
    <>
      <h2>{`Active keys (${active.length})`}</h2>
      {active.length > 0 ? <KeyTable session={session} keys={active} active /> : <p class="meta">No active key.</p>}
      {inactive.length > 0 ? (
        <details class="inactive-keys">
          <summary>{`Revoked and expired keys (${inactive.length})`}</summary>
          <KeyTable session={session} keys={inactive} active={false} />
        </details>
      ) : null}
    </>
  );
}

function CreatedKey({ created }: { created: { key: string; name: string } }) {
  return (
    <Notice kind="good">
      <p>{`Key "${created.name}" created. Copy it now: it is shown only this once.`}</p>
      <p>
        <code class="key" id="new-key">
          {created.key}
        </code>{" "}
        <button type="button" class="secondary" data-copy="new-key">
          Copy
        </button>
      </p>
    </Notice>
  );
}

function CreateKeyForm({ session, failed }: { session: ConsoleSession; failed?: Extras["failed"] }) {
  const values = failed?.values ?? { scope: "read", expires_in_hours: "24" };
  return (
    <PostForm session={session} action="/app/settings/api/keys" class="card">
      <h2>Create a key</h2>
      {failed?.errors.form ? <Notice kind="bad">{failed.errors.form}</Notice> : null}
      <div class="row">
        <Field name="name" label="Name" value={values.name} errors={failed?.errors} required />
        <div>
          <label for="f-scope">Scope</label>
          <select id="f-scope" name="scope">
            <option value="read" selected={values.scope !== "read_write"}>
              read (look only)
            </option>
            {session.auth.role !== "viewer" ? (
              <option value="read_write" selected={values.scope === "read_write"}>
                read_write
              </option>
            ) : null}
          </select>
          {failed?.errors.scope ? <p class="error">{failed.errors.scope}</p> : null}
          <p class="meta">{`Its role ceiling: ${session.auth.role}, your own.`}</p>
        </div>
        <Checkbox name="temporary" label="Temporary" checked={checked(values, "temporary")} />
        <Field
          name="expires_in_hours"
          label={`Expires after (hours, 1–${MAX_HOURS})`}
          type="number"
          min={1}
          max={MAX_HOURS}
          value={values.expires_in_hours}
          errors={failed?.errors}
        />
        <button type="submit">Create key</button>
      </div>
    </PostForm>
  );
}

const DONE = { revoked: "Key revoked: anything still using it is refused from now on." };

async function settingsPage(c: ConsoleContext, extras: Extras = {}) {
  const session = c.get("session");
  const keys = await listKeys(directoryDb(c.env), session.auth.workspaceId);
  const { created, failed } = extras;
  return c.html(
    <Page title="Settings › API" section="/app/settings/api" session={session}>
      {created || failed ? null : <Done done={c.req.query("done")} messages={DONE} />}
      {created ? <CreatedKey created={created} /> : null}
      <Keys session={session} keys={keys} />
      {session.can("POST", "/settings/api/keys") ? (
        <CreateKeyForm session={session} failed={failed} />
      ) : (
        <p class="meta">This session is read-only: creating and revoking keys needs a read_write key.</p>
      )}
    </Page>,
    failed ? 400 : 200,
  );
}

export const apiSettingsPage = (c: ConsoleContext) => settingsPage(c);

export async function createApiKey(c: ConsoleContext) {
  const values = await formValues(c);
  const temporary = checked(values, "temporary");
  const parsed = KeyForm.safeParse({
    name: values.name ?? "",
    scope: values.scope,
    temporary,
    expires_in_hours: temporary ? numberField(values.expires_in_hours) : undefined,
  });
  if (!parsed.success) return settingsPage(c, { failed: { errors: zodFieldErrors(parsed.error), values } });
  if (parsed.data.temporary && parsed.data.expires_in_hours === undefined)
    return settingsPage(c, { failed: { errors: { expires_in_hours: "a temporary key needs its hours" }, values } });
  const { auth } = c.get("session");
  // A key carries its maker's role as its ceiling; a viewer makes read keys only (whatever the form says).
  if (auth.role === "viewer" && parsed.data.scope !== "read")
    return settingsPage(c, { failed: { errors: { scope: "a viewer may make read keys only" }, values } });
  const { key, record } = await issueKey(directoryDb(c.env), auth.workspaceId, {
    name: parsed.data.name,
    scope: parsed.data.scope,
    expires_in_seconds: parsed.data.expires_in_hours ? parsed.data.expires_in_hours * 3600 : undefined,
    role: auth.role,
    personId: auth.personId,
  });
  await recordAudit(sessionDb(c), {
    actor: auth.actor,
    action: "key.created",
    target: { type: "key", id: record.id },
    details: { name: record.name, prefix: record.prefix, scope: record.scope, role: record.role },
  });
  return settingsPage(c, { created: { key, name: record.name } });
}

export async function revokeApiKey(c: ConsoleContext) {
  const id = pathIdOf(c, "key_id", "key");
  const session = c.get("session");
  const dir = directoryDb(c.env);
  const existing = (await listKeys(dir, session.auth.workspaceId)).find((k) => k.id === id);
  if (!existing) throw notFound("key");
  if (!mayRevoke(session, existing)) throw forbidden("only admins and owners revoke keys others made");
  const revoked = await revokeKey(dir, session.auth.workspaceId, id);
  if (!revoked) throw notFound("key");
  forgetKeyId(id);
  await recordAudit(sessionDb(c), {
    actor: session.auth.actor,
    action: "key.revoked",
    target: { type: "key", id },
    details: { name: revoked.name, prefix: revoked.prefix },
  });
  return c.redirect(afterChange("/app/settings/api", "revoked"), 303);
}
