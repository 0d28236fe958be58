// The passkey ceremonies' doors (the browser side is in assets.ts: navigator.credentials from the one
// script). Form-encoded posts carrying the CSRF token, answered with JSON for the script.
import { directoryDb } from "../../db/client";
import { deletePasskey } from "../../db/passkeys";
import { DomainError, notFound } from "../../lib/domain-errors";
import {
  type RelyingParty,
  registerPasskey,
  registrationOptions,
  signInOptions,
  verifyPasskeySignIn,
} from "../../people/passkeys";
import { startPersonSession } from "../../people/sessions";
import { type ConsoleContext, pathIdOf, setPersonCookie } from "../context";
import { fieldErrorsOf, formValues } from "../forms";
import { afterChange } from "../layout";
import { SESSION_SECONDS } from "../session";
import { preSessionCsrfOk } from "./sign-in";

const relyingParty = (c: ConsoleContext): RelyingParty => {
  const url = new URL(c.req.url);
  return { origin: url.origin, rpID: url.hostname };
};

const parsed = (text: string | undefined): unknown => {
  try {
    return JSON.parse(text ?? "null");
  } catch {
    return null;
  }
};

/** A refused ceremony: the reason in a person's words (the field's message, not the API's `body.credential: `). */
const refusal = (c: ConsoleContext, err: unknown) => {
  if (!(err instanceof DomainError)) throw err;
  return c.json({ error: fieldErrorsOf(err)?.credential ?? err.message }, 400);
};

export async function passkeySignInOptions(c: ConsoleContext) {
  if (!(await preSessionCsrfOk(c))) return c.json({ error: "stale form: reload the page" }, 403);
  return c.json(await signInOptions(directoryDb(c.env), relyingParty(c)));
}

export async function passkeySignIn(c: ConsoleContext) {
  const form = await formValues(c);
  if (!(await preSessionCsrfOk(c))) return c.json({ error: "stale form: reload the page" }, 403);
  const dir = directoryDb(c.env);
  try {
    const personId = await verifyPasskeySignIn(dir, relyingParty(c), parsed(form.credential));
    const opened = await startPersonSession(dir, {
      personId,
      method: "passkey",
      userAgent: c.req.header("user-agent") ?? null,
      seconds: SESSION_SECONDS,
    });
    if (!opened) return c.json({ error: "this account belongs to no workspace any more" }, 400);
    await setPersonCookie(c, opened);
    return c.json({ next: "/app/posts" });
  } catch (err) {
    return refusal(c, err);
  }
}

export async function passkeyRegistrationOptions(c: ConsoleContext) {
  const person = c.get("session").person;
  if (!person) throw notFound("account");
  return c.json(await registrationOptions(directoryDb(c.env), relyingParty(c), person.person));
}

export async function addPasskey(c: ConsoleContext) {
  const person = c.get("session").person;
  if (!person) throw notFound("account");
  const form = await formValues(c);
  try {
    await registerPasskey(directoryDb(c.env), relyingParty(c), person.person.id, {
      response: parsed(form.credential),
      name: form.name ?? "",
    });
    return c.json({ next: afterChange("/app/settings/account", "passkey") });
  } catch (err) {
    return refusal(c, err);
  }
}

export async function removePasskey(c: ConsoleContext) {
  const person = c.get("session").person;
  if (!person) throw notFound("account");
  const id = pathIdOf(c, "passkey_id", "passkey");
  if (!(await deletePasskey(directoryDb(c.env), person.person.id, id))) throw notFound("passkey");
  return c.redirect(afterChange("/app/settings/account", "passkey_removed"), 303);
}
