// Persona grants at rest (docs/storage.md): AES-GCM under the SESSION_KEY secret (base64 of 32 random bytes,
// e.g. `openssl rand -base64 32`), a fresh random 96-bit IV for every write, and the owner (workspace and
// username) bound in as additional data so a ciphertext copied to another persona does not decrypt. The
// stored form names the key it was written under (first 8 hex digits of the key's SHA-256), so a rotated
// or wrong key is told apart from a damaged record and reported as such, never decrypted into garbage.

const VERSION = "v1";

/** The grant cannot be sealed or opened; the message says what a person must do. Never carries secrets. */
export class SessionKeyError extends Error {
  override readonly name = "SessionKeyError";
}

const toBase64Url = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

function fromBase64(text: string): Uint8Array {
  const normal = text.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(normal + "=".repeat((4 - (normal.length % 4)) % 4));
  return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
}

interface SessionKey {
  key: CryptoKey;
  id: string;
}

const keys = new Map<string, Promise<SessionKey>>();

async function importKey(secret: string): Promise<SessionKey> {
  let raw: Uint8Array;
  try {
    raw = fromBase64(secret.trim());
  } catch {
    throw new SessionKeyError(
      "SESSION_KEY is not base64; set it to 32 random bytes in base64 (openssl rand -base64 32)",
    );
  }
  if (raw.length !== 32)
    throw new SessionKeyError(
      `SESSION_KEY must decode to 32 bytes, not ${raw.length}; set it to the output of: openssl rand -base64 32`,
    );
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", raw));
  const id = [...digest.subarray(0, 4)].map((b) => b.toString(16).padStart(2, "0")).join("");
  const key = await crypto.subtle.importKey("raw", raw, { name: "AES-GCM" }, false, ["encrypt", "decrypt"]);
  return { key, id };
}

function sessionKey(secret: string | undefined): Promise<SessionKey> {
  if (!secret)
    return Promise.reject(new SessionKeyError("the service has no SESSION_KEY secret; an operator must set it"));
  let entry = keys.get(secret);
  if (!entry) {
    entry = importKey(secret);
    keys.set(secret, entry);
    entry.catch(() => keys.delete(secret));
  }
  return entry;
}

const additionalData = (owner: string) => new TextEncoder().encode(`threadwatch persona session ${VERSION} ${owner}`);

/** Encrypts `plaintext` for `owner` (e.g. `workspace:3:user:alice`). */
export async function sealSession(secret: string | undefined, owner: string, plaintext: string): Promise<string> {
  const { key, id } = await sessionKey(secret);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: additionalData(owner) },
    key,
    new TextEncoder().encode(plaintext),
  );
  return [VERSION, id, toBase64Url(iv), toBase64Url(new Uint8Array(sealed))].join(".");
}

/** Decrypts what `sealSession` wrote for the same owner; a wrong or rotated key is a SessionKeyError. */
export async function openSession(secret: string | undefined, owner: string, stored: string): Promise<string> {
  const { key, id } = await sessionKey(secret);
  const [version, keyId, iv, data] = stored.split(".");
  if (version !== VERSION || !keyId || !iv || !data)
    throw new SessionKeyError("the stored grant is not in a known format; connect the forum account again");
  if (keyId !== id)
    throw new SessionKeyError(
      "the stored grant was encrypted under another SESSION_KEY (the key was rotated or is wrong); connect the forum account again",
    );
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: fromBase64(iv), additionalData: additionalData(owner) },
      key,
      fromBase64(data),
    );
    return new TextDecoder().decode(plain);
  } catch {
    throw new SessionKeyError(
      "the stored grant does not decrypt under the current SESSION_KEY (wrong key or damaged record); connect the forum account again",
    );
  }
}
