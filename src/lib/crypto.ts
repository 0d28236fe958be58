// Digests and hex, used across the app (key digests, request ids, config fingerprints, source hashes).
// Import-free on purpose: Node scripts (type stripping) import this file directly, and src/lib is a leaf.

/** Lower-case hex of some bytes (digests, request ids). */
export const toHex = (bytes: Uint8Array): string => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");

/** SHA-256 of the UTF-8 bytes of `value`, as lower-case hex. */
export async function sha256Hex(value: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value));
  return toHex(new Uint8Array(digest));
}

/** Constant-time string comparison (compares digests, so lengths do not leak). */
export async function timingSafeEqualStrings(a: string, b: string): Promise<boolean> {
  const [da, db] = await Promise.all([a, b].map((s) => crypto.subtle.digest("SHA-256", new TextEncoder().encode(s))));
  return crypto.subtle.timingSafeEqual(da!, db!);
}
