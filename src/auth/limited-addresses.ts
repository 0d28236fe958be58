// What this isolate knows about client addresses over their failed-authentication limit (check.ts), so a
// flood of random keys from one address costs no D1 lookup per request: while an address is marked, a key
// is looked up only if it is among the live keys' digests, read from D1 at most once per LIVE_KEYS_TTL_MS
// per isolate. A valid key from that address therefore still works, as before; a key created in the last
// few seconds may be answered 429 from a marked address until the next read (docs/api.md).

/** How long an address stays marked after the limiter last refused it; then the limiter is asked again. */
export const LIMITED_FOR_MS = 10_000;
/** How long the live keys' digests are trusted. */
export const LIVE_KEYS_TTL_MS = 5_000;
/** At most this many addresses are remembered; the oldest go first. */
const MAX_ADDRESSES = 10_000;

const limited = new Map<string, number>();
let live: { digests: Set<string>; until: number } | undefined;
let loading: Promise<Set<string>> | undefined;

/** True while the address's bucket is marked over its limit. */
export function isLimited(bucket: string, now: number): boolean {
  const until = limited.get(bucket);
  if (until === undefined) return false;
  if (until > now) return true;
  limited.delete(bucket);
  return false;
}

/** Marks the bucket: the limiter has just refused it. */
export function markLimited(bucket: string, now: number): void {
  limited.delete(bucket);
  if (limited.size >= MAX_ADDRESSES) {
    const oldest = limited.keys().next();
    if (!oldest.done) limited.delete(oldest.value);
  }
  limited.set(bucket, now + LIMITED_FOR_MS);
}

/** The digests of the live keys: remembered for LIVE_KEYS_TTL_MS, one read at a time. */
export async function liveKeyDigests(read: () => Promise<string[]>, now: number): Promise<Set<string>> {
  if (live && live.until > now) return live.digests;
  loading ??= read()
    .then((digests) => {
      const set = new Set(digests);
      live = { digests: set, until: now + LIVE_KEYS_TTL_MS };
      return set;
    })
    .finally(() => {
      loading = undefined;
    });
  return loading;
}

/** Forgets every mark and the live digests (tests use it to start from a clean isolate). */
export function forgetLimitedAddresses(): void {
  limited.clear();
  live = undefined;
}
