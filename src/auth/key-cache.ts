// A short per-isolate memory of looked-up keys, so a client's requests in a burst cost one D1 lookup, not
// one each. It holds the key's row (scope, expiry, revocation), never a verdict: expiry is judged against
// the request's own time on every request. The price is the revocation lag: a key revoked (or changed
// directly in D1) is still accepted for up to KEY_CACHE_TTL_MS by an isolate that looked it up just
// before (README, docs/api.md). The admin revoke route forgets the key in its own isolate at once.
// Unknown keys are never remembered: a new key works at once, and random keys cannot fill the memory.
import type { ResolvedKey } from "../db/api-keys";

/** How long a looked-up key is trusted without asking D1 again. */
export const KEY_CACHE_TTL_MS = 5_000;
/** At most this many keys are remembered; the oldest go first. */
const MAX_ENTRIES = 5_000;

const entries = new Map<string, { key: ResolvedKey; until: number }>();

/** The remembered row of the key with this digest, when it was looked up less than the TTL ago. */
export function cachedKey(digest: string, now: number): ResolvedKey | undefined {
  const entry = entries.get(digest);
  if (!entry) return undefined;
  if (entry.until > now) return entry.key;
  entries.delete(digest);
  return undefined;
}

export function rememberKey(digest: string, key: ResolvedKey, now: number): void {
  entries.delete(digest);
  if (entries.size >= MAX_ENTRIES) {
    const oldest = entries.keys().next();
    if (!oldest.done) entries.delete(oldest.value);
  }
  entries.set(digest, { key, until: now + KEY_CACHE_TTL_MS });
}

/** Forgets the key with this id (after it is revoked), so this isolate refuses it from now on. */
export function forgetKeyId(keyId: number): void {
  for (const [digest, entry] of entries) if (entry.key.keyId === keyId) entries.delete(digest);
}

/** Forgets every key: what the TTL does on its own after KEY_CACHE_TTL_MS (tests use it to skip the wait). */
export function forgetAllKeys(): void {
  entries.clear();
}
