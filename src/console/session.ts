// Console sessions: a signed cookie naming the API key a person signed in with (its id, never the key), or
// a person's session (a random token whose digest is the session's row), and the CSRF tokens of its forms. The signing key is derived (HKDF-SHA256) from the SESSION_KEY secret, so the
// console needs no secret of its own; rotating SESSION_KEY signs everyone out of the console.

/** How long a console session lasts (docs/console.md). */
export const SESSION_SECONDS = 12 * 3600;
export const SESSION_COOKIE = "tw_console";
/** Before sign-in: a random nonce the sign-in form's CSRF token is bound to. */
export const SIGNIN_COOKIE = "tw_console_signin";
export const SIGNIN_SECONDS = 3600;

export interface SessionClaims {
  /** Id of the API key the session was opened with; every request re-checks that key. */
  keyId: number;
  /** Unix seconds. */
  expiresAt: number;
  /** Random per session; the CSRF token is bound to it. */
  nonce: string;
}

/** A person's session: its token names its row (by SHA-256); the CSRF token is bound to the token. */
export interface PersonClaims {
  personToken: string;
  expiresAt: number;
}

const encoder = new TextEncoder();

const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

export const randomToken = (bytes = 18) => base64url(crypto.getRandomValues(new Uint8Array(bytes)));

const keys = new Map<string, Promise<CryptoKey>>();

/** The console's HMAC key, derived from SESSION_KEY; cached per secret value. */
export function consoleSigningKey(sessionKey: string): Promise<CryptoKey> {
  let key = keys.get(sessionKey);
  if (!key) {
    key = crypto.subtle
      .importKey("raw", encoder.encode(sessionKey), "HKDF", false, ["deriveKey"])
      .then((base) =>
        crypto.subtle.deriveKey(
          { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: encoder.encode("threadwatch console v1") },
          base,
          { name: "HMAC", hash: "SHA-256", length: 256 },
          false,
          ["sign", "verify"],
        ),
      );
    keys.set(sessionKey, key);
  }
  return key;
}

async function sign(key: CryptoKey, text: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(text))));
}

/** Constant-time comparison of two signatures (verify through WebCrypto rather than `===`). */
async function verify(key: CryptoKey, text: string, signature: string): Promise<boolean> {
  const expected = await sign(key, text);
  if (expected.length !== signature.length) return false;
  let diff = 0;
  for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ signature.charCodeAt(i);
  return diff === 0;
}

/** `<keyId>.<expiresAt>.<nonce>.<signature>`: nothing secret in it, and nothing a person could forge. */
export async function sealSession(key: CryptoKey, claims: SessionClaims): Promise<string> {
  const body = `${claims.keyId}.${claims.expiresAt}.${claims.nonce}`;
  return `${body}.${await sign(key, `session.${body}`)}`;
}

/** The claims of a well-signed, unexpired cookie, else undefined. */
export async function openSession(
  key: CryptoKey,
  value: string | undefined,
  now: Date,
): Promise<SessionClaims | undefined> {
  const match = /^(\d{1,12})\.(\d{1,12})\.([A-Za-z0-9_-]{16,64})\.([A-Za-z0-9_-]{43})$/.exec(value ?? "");
  if (!match) return undefined;
  const [, keyId, expiresAt, nonce, signature] = match as unknown as [string, string, string, string, string];
  if (!(await verify(key, `session.${keyId}.${expiresAt}.${nonce}`, signature))) return undefined;
  if (Number(expiresAt) * 1000 <= now.getTime()) return undefined;
  return { keyId: Number(keyId), expiresAt: Number(expiresAt), nonce };
}

/** `p.<token>.<expiresAt>.<signature>`: the token is random; its row can be revoked. */
export async function sealPersonSession(key: CryptoKey, claims: PersonClaims): Promise<string> {
  const body = `p.${claims.personToken}.${claims.expiresAt}`;
  return `${body}.${await sign(key, `session.${body}`)}`;
}

/** The claims of a well-signed, unexpired person cookie, else undefined. */
export async function openPersonSession(
  key: CryptoKey,
  value: string | undefined,
  now: Date,
): Promise<PersonClaims | undefined> {
  const match = /^p\.([A-Za-z0-9_-]{32,64})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(value ?? "");
  if (!match) return undefined;
  const [, token, expiresAt, signature] = match as unknown as [string, string, string, string];
  if (!(await verify(key, `session.p.${token}.${expiresAt}`, signature))) return undefined;
  if (Number(expiresAt) * 1000 <= now.getTime()) return undefined;
  return { personToken: token, expiresAt: Number(expiresAt) };
}

/** The CSRF token of every form of a session (or of the sign-in form, bound to its pre-session nonce). */
export const csrfToken = (key: CryptoKey, purpose: "session" | "signin", nonce: string) =>
  sign(key, `csrf.${purpose}.${nonce}`);

export async function checkCsrf(
  key: CryptoKey,
  purpose: "session" | "signin",
  nonce: string,
  token: unknown,
): Promise<boolean> {
  return typeof token === "string" && token.length > 0 && verify(key, `csrf.${purpose}.${nonce}`, token);
}

/** Secure everywhere but on the local machine, where wrangler dev serves plain http. */
export function isLocalHost(url: string): boolean {
  const host = new URL(url).hostname;
  return host === "localhost" || host === "127.0.0.1" || host === "[::1]";
}
