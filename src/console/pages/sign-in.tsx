// Sign-in with a workspace API key (pasted once, never kept: the session cookie names the key's id) and sign-out.
import { getCookie, setCookie } from "hono/cookie";
import { authenticatePastedKey } from "../../auth/check";
import { KEY_PATTERN } from "../../auth/keys";
import { directoryDb } from "../../db/client";
import { revokePersonSession } from "../../db/person-sessions";
import { ApiError } from "../../errors";
import { clientAddressOf } from "../../http/auth-middleware";
import { optionalExecutionCtx } from "../../http/context";
import { type ConsoleContext, cookieOptions, endSession, safeNext, startSession } from "../context";
import { formValues } from "../forms";
import { Notice, Page } from "../layout";
import { checkCsrf, csrfToken, randomToken, SIGNIN_COOKIE, SIGNIN_SECONDS } from "../session";

/** The CSRF token of the forms before sign-in, bound to a random nonce in a short-lived cookie of its own. */
export async function preSessionCsrf(c: ConsoleContext): Promise<string> {
  let nonce = getCookie(c, SIGNIN_COOKIE);
  if (!nonce || !/^[A-Za-z0-9_-]{24}$/.test(nonce)) {
    nonce = randomToken();
    setCookie(c, SIGNIN_COOKIE, nonce, cookieOptions(c, SIGNIN_SECONDS));
  }
  return csrfToken(c.get("signingKey"), "signin", nonce);
}

/** The pre-session form's token is the one its nonce cookie expects. */
export async function preSessionCsrfOk(c: ConsoleContext): Promise<boolean> {
  const raw = (await c.req.parseBody())._csrf;
  const nonce = getCookie(c, SIGNIN_COOKIE);
  return nonce !== undefined && (await checkCsrf(c.get("signingKey"), "signin", nonce, raw));
}

export interface SignInOptions {
  error?: string;
  passwordError?: string;
  email?: string;
  next?: string;
  expired?: boolean;
  status?: 401 | 429;
}

export function PasswordSignIn({ csrf, options }: { csrf: string; options: SignInOptions }) {
  return (
    <>
      <form method="post" action="/app/sign-in/password" class="card" aria-label="Sign in with email and password">
        <h2>Sign in as a person</h2>
        <input type="hidden" name="_csrf" value={csrf} />
        <input type="hidden" name="next" value={safeNext(options.next)} />
        {options.passwordError ? (
          <p class="error" id="password-error" role="alert">
            {options.passwordError}
          </p>
        ) : null}
        <div class="row">
          <div>
            <label for="f-email">Email</label>
            <input
              id="f-email"
              name="email"
              type="email"
              autocomplete="username"
              value={options.email ?? ""}
              required
            />
          </div>
          <div>
            <label for="f-password">Password</label>
            <input id="f-password" name="password" type="password" autocomplete="current-password" required />
          </div>
          <button type="submit">Sign in</button>
        </div>
      </form>
      <div class="card" id="passkey-sign-in" data-passkey-sign-in={csrf}>
        <button type="button" class="secondary" id="passkey-button">
          Sign in with a passkey
        </button>
        <p class="error" id="passkey-error" hidden />
      </div>
      <h2>Or with a workspace API key</h2>
    </>
  );
}

export async function signInForm(c: ConsoleContext, options: SignInOptions) {
  const csrf = await preSessionCsrf(c);
  return c.html(
    <Page title="Sign in">
      {options.expired ? <Notice>Your session has ended. Sign in again to go on where you were.</Notice> : null}
      <PasswordSignIn csrf={csrf} options={options} />
      <form method="post" action="/app/sign-in" class="card">
        <input type="hidden" name="_csrf" value={csrf} />
        <input type="hidden" name="next" value={safeNext(options.next)} />
        <div>
          <label for="f-api_key">Workspace API key</label>
          <input
            id="f-api_key"
            name="api_key"
            type="password"
            autocomplete="off"
            required
            size={52}
            placeholder="tw_live_..."
            aria-invalid={options.error ? "true" : undefined}
            aria-describedby={options.error ? "f-api_key-error" : "f-api_key-help"}
          />
          {options.error ? (
            <p class="error" id="f-api_key-error">
              {options.error}
            </p>
          ) : null}
          <p class="meta" id="f-api_key-help">
            A read key can look at everything; a read_write key can also change things. Keys are issued under Settings ›
            API. The key is checked once and not kept: the session lasts 12 hours.
          </p>
        </div>
        <button type="submit">Sign in</button>
      </form>
    </Page>,
    options.status ?? (options.error || options.passwordError ? 401 : 200),
  );
}

export const signInPage = (c: ConsoleContext) =>
  signInForm(c, { next: c.req.query("next"), expired: c.req.query("expired") === "1" });

export async function signIn(c: ConsoleContext) {
  const form = await formValues(c);
  if (!(await preSessionCsrfOk(c))) {
    return c.text("Forbidden: the sign-in form is missing its security token or it is stale. Reload the page.", 403);
  }
  const key = (form.api_key ?? "").trim();
  const next = form.next;
  // The API's key check, failures counted against the client's address as the API counts them.
  try {
    const auth = await authenticatePastedKey(c.env, key, clientAddressOf(c), optionalExecutionCtx(c));
    await startSession(c, auth.keyId!);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.code === "rate_limited") {
      c.header("retry-after", err.headers?.["retry-after"] ?? "60");
      return signInForm(c, { next, status: 429, error: `Sign-in refused for now: ${err.message}.` });
    }
    if (err.code !== "unauthorized") throw err;
    if (!KEY_PATTERN.test(key))
      return signInForm(c, {
        next,
        error: "That is not an API key: keys start with tw_live_ followed by letters and digits.",
      });
    return signInForm(c, { next, error: `This key does not open the console: ${err.message}.` });
  }
  return c.redirect(safeNext(next), 303);
}

export async function signOut(c: ConsoleContext) {
  const person = c.get("session").person;
  if (person) await revokePersonSession(directoryDb(c.env), person.person.id, person.sessionId);
  endSession(c);
  return c.redirect("/app/sign-in", 303);
}
