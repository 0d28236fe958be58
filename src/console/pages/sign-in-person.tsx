// Signing in as a person (email and password, or a passkey) and accepting an invitation. Every answer to
// a refused password is the same words whether or not the email exists (src/people/sign-in.ts); a session
// starts with a new random token every time (no session id is carried over from before sign-in).
import { addressBucket } from "../../auth/address-bucket";
import { getWorkspace } from "../../db/api-keys";
import { directoryDb } from "../../db/client";
import { findPersonByEmail } from "../../db/people";
import { clientAddressOf } from "../../http/auth-middleware";
import { DomainError } from "../../lib/domain-errors";
import { acceptInvitation } from "../../people/accept";
import { openInvitation } from "../../people/members";
import { startPersonSession } from "../../people/sessions";
import { SIGN_IN_REFUSED, signInWithPassword } from "../../people/sign-in";
import { type ConsoleContext, safeNext, setPersonCookie } from "../context";
import { fieldErrorsOf, formValues } from "../forms";
import { Field, type FieldErrors, Notice, Page } from "../layout";
import { SESSION_SECONDS } from "../session";
import { preSessionCsrf, preSessionCsrfOk, signInForm } from "./sign-in";

const CSRF_REFUSED = "Forbidden: this form is missing its security token or it is stale. Reload the page.";

/** Starts the person's session (a new token) and sends them on; false when they belong to no workspace. */
async function openSessionFor(c: ConsoleContext, personId: number, method: "password" | "passkey" | "invitation") {
  const opened = await startPersonSession(directoryDb(c.env), {
    personId,
    method,
    userAgent: c.req.header("user-agent") ?? null,
    seconds: SESSION_SECONDS,
  });
  if (!opened) return false;
  await setPersonCookie(c, opened);
  return true;
}

export async function signInWithPasswordForm(c: ConsoleContext) {
  const form = await formValues(c);
  if (!(await preSessionCsrfOk(c))) return c.text(CSRF_REFUSED, 403);
  const address = clientAddressOf(c);
  const result = await signInWithPassword(c.env, directoryDb(c.env), {
    email: form.email ?? "",
    password: form.password ?? "",
    addressBucket: address ? addressBucket(address) : undefined,
  });
  const again = { next: form.next, email: form.email };
  if (!result.ok && result.limited) {
    c.header("retry-after", String(result.retryAfterSeconds));
    const minutes = Math.ceil(result.retryAfterSeconds / 60);
    return signInForm(c, {
      ...again,
      status: 429,
      passwordError: `Too many failed sign-ins; try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
    });
  }
  if (!result.ok || !(await openSessionFor(c, result.person.id, "password")))
    return signInForm(c, { ...again, passwordError: SIGN_IN_REFUSED });
  return c.redirect(safeNext(form.next), 303);
}

// Invitations -----------------------------------------------------------------------------------------------

async function invitationPage(c: ConsoleContext, token: string, errors: FieldErrors = {}, name = "", status?: 429) {
  const dir = directoryDb(c.env);
  const invitation = await openInvitation(dir, token);
  if (!invitation)
    return c.html(
      <Page title="Invitation">
        <Notice kind="bad">This invitation has been used or has expired. Ask whoever invited you for a new one.</Notice>
      </Page>,
      410,
    );
  const existing = (await getWorkspace(dir, invitation.workspaceId))?.name;
  const csrf = await preSessionCsrf(c);
  const known = await findPersonByEmail(dir, invitation.email);
  return c.html(
    <Page title="Join a workspace">
      <p>{`You are invited to ${existing ?? "a workspace"} as ${invitation.role}, as ${invitation.email}.`}</p>
      {errors.form ? <Notice kind="bad">{errors.form}</Notice> : null}
      <form method="post" action={`/app/invitations/${token}`} class="card" aria-label="Accept the invitation">
        <input type="hidden" name="_csrf" value={csrf} />
        {known ? (
          <p class="meta">You already have an account: enter its password to join.</p>
        ) : (
          <Field name="name" label="Your name" value={name} errors={errors} required />
        )}
        <Field
          name="password"
          label={known ? "Your password" : "Choose a password (at least 12 characters)"}
          type="password"
          errors={errors}
          required
        />
        <button type="submit">Join</button>
      </form>
    </Page>,
    status ?? (Object.keys(errors).length ? 400 : 200),
  );
}

export const invitationForm = (c: ConsoleContext) => invitationPage(c, c.req.param("token") ?? "");

export async function acceptInvitationForm(c: ConsoleContext) {
  const token = c.req.param("token") ?? "";
  const form = await formValues(c);
  if (!(await preSessionCsrfOk(c))) return c.text(CSRF_REFUSED, 403);
  const address = clientAddressOf(c);
  try {
    const { person, workspaceId } = await acceptInvitation(c.env, directoryDb(c.env), token, {
      name: form.name,
      password: form.password ?? "",
      addressBucket: address ? addressBucket(address) : undefined,
    });
    const opened = await startPersonSession(directoryDb(c.env), {
      personId: person.id,
      workspaceId,
      method: "invitation",
      userAgent: c.req.header("user-agent") ?? null,
      seconds: SESSION_SECONDS,
    });
    if (opened) await setPersonCookie(c, opened);
    return c.redirect("/app/posts", 303);
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    if (err.kind === "invalid_input") {
      const limited = err.retryAfterSeconds;
      if (limited) c.header("retry-after", String(limited));
      return invitationPage(c, token, fieldErrorsOf(err) ?? {}, form.name, limited ? 429 : undefined);
    }
    return invitationPage(c, token);
  }
}
