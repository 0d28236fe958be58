// Password hashing (docs/security.md, "Signing in as a person"): PBKDF2-SHA256 through WebCrypto, 100,000 iterations (the
// most the Workers runtime allows), a random 16-byte salt per password, compared in constant time.
import { toHex } from "../lib/crypto";

export const PBKDF2_ITERATIONS = 100_000;
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 1024;
const SALT_BYTES = 16;
const HASH_BITS = 256;

export interface PasswordHash {
  passwordHash: string;
  passwordSalt: string;
  passwordIterations: number;
}

const fromHex = (hex: string) => new Uint8Array((hex.match(/../g) ?? []).map((h) => Number.parseInt(h, 16)));

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<ArrayBuffer> {
  const base = await crypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, [
    "deriveBits",
  ]);
  return crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, base, HASH_BITS);
}

/** Why a new password is refused, or undefined. */
export function passwordProblem(password: string): string | undefined {
  if ([...password].length < MIN_PASSWORD_LENGTH) return `at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > MAX_PASSWORD_LENGTH) return `at most ${MAX_PASSWORD_LENGTH} characters`;
  return undefined;
}

export async function hashPassword(password: string): Promise<PasswordHash> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(password, salt, PBKDF2_ITERATIONS);
  return {
    passwordHash: toHex(new Uint8Array(hash)),
    passwordSalt: toHex(salt),
    passwordIterations: PBKDF2_ITERATIONS,
  };
}

/** A stored hash no password matches, for the same work when the email is unknown (no timing difference). */
const DUMMY: PasswordHash = {
  passwordHash: "00".repeat(HASH_BITS / 8),
  passwordSalt: "00".repeat(SALT_BYTES),
  passwordIterations: PBKDF2_ITERATIONS,
};

/**
 * Whether `password` matches the stored hash; with no stored hash (unknown email, no password set) it
 * derives against a dummy all the same and answers false, so both take the same time.
 */
export async function checkPassword(
  password: string,
  stored: { passwordHash: string | null; passwordSalt: string | null; passwordIterations: number | null } | undefined,
): Promise<boolean> {
  const known = stored?.passwordHash && stored.passwordSalt && stored.passwordIterations;
  const record = known ? (stored as PasswordHash) : DUMMY;
  const given = await derive(
    password.slice(0, MAX_PASSWORD_LENGTH),
    fromHex(record.passwordSalt),
    record.passwordIterations,
  );
  const expected = fromHex(record.passwordHash).buffer as ArrayBuffer;
  if (given.byteLength !== expected.byteLength) return false;
  const same = crypto.subtle.timingSafeEqual(given, expected);
  return Boolean(known) && same;
}
