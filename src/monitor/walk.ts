// The walk over the forum's ids (docs/monitoring.md, "The walk"): ids are allocated in order, so every id from
// the last one asked up to the newest is asked through /api/info, 100 a request. An id not answered yet (not
// visible yet, removed, private) is asked again about 2 and 30 minutes later, then given up and counted. A
// walk further behind than that retry window jumps to the newest ids and records the ids it skipped. The
// state is plain data the ingester keeps in its storage; `walkRound` is one round of it.
import { fullName, type ItemKind, idText, newestId } from "./forum-ids";

/** After the first ask, an id not answered is asked again this long later (then given up). */
export const RETRY_AFTER_MS = [2 * 60_000, 30 * 60_000] as const;
/** A walk whose next id is older than this jumps ahead (its retries could not be on time any more). */
export const RETRY_WINDOW_MS = RETRY_AFTER_MS[RETRY_AFTER_MS.length - 1]!;
/** How far back the head samples and skips are kept: coverage is reported over the last hour. */
const HISTORY_MS = 70 * 60_000;
const HOUR_MS = 3_600_000;
export const IDS_PER_REQUEST = 100;

export interface WalkState {
  /** The highest id asked (or jumped past); null before the first round. */
  walkedTo: number | null;
  /** [time, newest id] of each round: when each id existed, for lag, coverage and the jump. */
  samples: [number, number][];
  /** [id, first asked at, times asked] of ids not answered yet. */
  retries: [number, number, number][];
  /** [time, first id, last id] of the ranges the walk jumped over. */
  skips: [number, number, number][];
  /** When each of the walk's requests of the last minute was made (the caller notes them): its budget is per any 60 seconds. */
  spent?: number[];
  /** When the last round began: a round's share of the budget is the time since, at `perMinute`. */
  roundAt?: number;
  asked: number;
  returned: number;
  givenUp: number;
  skipped: number;
}

export const emptyWalk = (): WalkState => ({
  walkedTo: null,
  samples: [],
  retries: [],
  skips: [],
  spent: [],
  asked: 0,
  returned: 0,
  givenUp: 0,
  skipped: 0,
});

/**
 * What a round needs from the forum: the newest ids, and items by full name (the ones visible answer). Each
 * calls `sent` as its request leaves (after any wait for a quota permit or a token; again for a retry): the
 * walk's budget counts requests when the forum sees them, not when the walk asked for them.
 */
export interface WalkForum {
  newest(kind: ItemKind, sent: () => void): Promise<string[]>;
  info(fullnames: string[], sent: () => void): Promise<string[]>;
}

/**
 * About when id `n` was made: between the round that first saw an id as new as it and the round before,
 * in proportion (ids come at a steady rate between two rounds); now when no round saw it yet.
 */
export function existedBy(state: WalkState, n: number, now: number): number {
  const s = state.samples;
  for (let i = 0; i < s.length; i++) {
    const [at, head] = s[i]!;
    if (head < n) continue;
    const before = s[i - 1];
    if (!before || head === before[1]) return at;
    return before[0] + ((n - before[1]) / (head - before[1])) * (at - before[0]);
  }
  return now;
}

/**
 * The requests the walk may make now: `perMinute` less those it made in the last 60 seconds. A round that
 * comes late (the one before took long) may so spend what the rounds it missed did not, and no 60 seconds
 * ever hold more than `perMinute`.
 */
export function budgetLeft(state: WalkState, perMinute: number, now: number): number {
  state.spent = (state.spent ?? []).filter((at) => at > now - 60_000);
  return Math.max(0, perMinute - state.spent.length);
}

/** Notes a request of the walk made at `at`, for `budgetLeft`. */
export function noteRequest(state: WalkState, at: number): void {
  if (state.spent) state.spent.push(at);
  else state.spent = [at];
}

/** The time a round reads, and how it waits on it (a clock that stands still has no wait). */
export interface RoundClock {
  now: () => number;
  /**
   * Waits `ms` on `now`'s clock. Given, a round that finds the last 60 s full waits (10 s in all at most) for
   * their oldest request to leave them, rather than end: the round two back may have paced its requests
   * slower than this one does. Without it (a clock that stands still), such a round stops.
   */
  wait?: (ms: number) => Promise<void>;
}

/** A walk's share of the quota: `perMinute` requests in any 60 seconds, counted on its clock as each leaves. */
export interface WalkBudget extends RoundClock {
  perMinute: number;
}

/** A round waits this long in all at most for the window to free a request. */
const MAX_WAIT_MS = 10_000;

/**
 * What a round may spend at most: the budget of the time since the last round began (a minute's at most, and
 * a whole minute's for the first), so rounds 30 s apart take half each and a round that comes late takes what
 * the missed one would have. Without it one round could take the whole minute and leave the next ones nothing,
 * and the walk would go in bursts a minute or more apart.
 */
function roundShare(state: WalkState, perMinute: number, now: number): number {
  const since = state.roundAt === undefined ? 60_000 : Math.min(60_000, Math.max(0, now - state.roundAt));
  return Math.round((perMinute * since) / 60_000);
}

/**
 * One round: read the newest id, jump when too far behind, then ask retries due and new ids while the budget
 * allows, each request checked and noted as it is made (so the requests of two rounds back leave the last 60
 * seconds as this round makes its own). A round that finds none left asks nothing.
 */
export async function walkRound(
  state: WalkState,
  kind: ItemKind,
  forum: WalkForum,
  budget: WalkBudget,
  onAnswered: (fullnames: string[]) => Promise<void> = async () => {},
): Promise<{ requests: number }> {
  const now = budget.now();
  const share = roundShare(state, budget.perMinute, now);
  let requests = 0;
  let waited = 0;
  // Whether the round may make one more request: within its share, and the last 60 s not full (or soon not).
  const room = async (): Promise<boolean> => {
    if (requests >= share) return false;
    if (budgetLeft(state, budget.perMinute, budget.now()) > 0) return true;
    const ms = Math.min(...(state.spent ?? [])) + 60_001 - budget.now();
    if (!budget.wait || waited + ms > MAX_WAIT_MS) return false;
    waited += ms;
    await budget.wait(ms);
    return budgetLeft(state, budget.perMinute, budget.now()) > 0;
  };
  // A round that finds the window full forfeits its share (the one before took more than its own). One
  // request free is enough to begin: the round two back's requests leave the window as this one makes its own.
  state.roundAt = now;
  if (!(await room())) return { requests: 0 };
  const sent = () => noteRequest(state, budget.now());
  requests++;
  const head = newestId(await forum.newest(kind, sent));
  if (head !== null) {
    state.samples.push([now, head]);
    // It starts at the newest ids: no history walk.
    if (state.walkedTo === null) state.walkedTo = Math.max(0, head - IDS_PER_REQUEST);
  }
  state.samples = state.samples.filter(([at]) => at > now - HISTORY_MS);
  state.skips = state.skips.filter(([at]) => at > now - HISTORY_MS);
  if (head !== null && state.walkedTo !== null) jumpIfBehind(state, head, share, now);
  while (await room()) {
    const batch = nextBatch(state, head, now);
    if (batch.length === 0) break;
    const names = batch.map((n) => fullName(kind, n));
    const answered = await forum.info(names, sent);
    requests++;
    settle(state, kind, batch, new Set(answered), now);
    await onAnswered(answered);
  }
  return { requests };
}

function jumpIfBehind(state: WalkState, head: number, budget: number, now: number): void {
  const next = state.walkedTo! + 1;
  if (next > head || existedBy(state, next, now) >= now - RETRY_WINDOW_MS) return;
  // Keep what one round can ask; everything older is skipped and recorded.
  const to = head - Math.max(1, budget - 1) * IDS_PER_REQUEST;
  if (to < next) return;
  state.skips.push([now, next, to]);
  state.skipped += to - next + 1;
  state.walkedTo = to;
}

/** Up to 100 ids: retries that are due first, then new ids after the walk's position, oldest first. */
function nextBatch(state: WalkState, head: number | null, now: number): number[] {
  const batch: number[] = [];
  for (const [id, first, times] of state.retries) {
    if (batch.length >= IDS_PER_REQUEST) break;
    if (first + RETRY_AFTER_MS[times - 1]! <= now) batch.push(id);
  }
  const taken = new Set(batch);
  while (head !== null && state.walkedTo !== null && state.walkedTo < head && batch.length < IDS_PER_REQUEST) {
    state.walkedTo++;
    if (!taken.has(state.walkedTo)) batch.push(state.walkedTo);
  }
  return batch;
}

/** The answer to a batch: answered ids are done; the others wait for their next ask or are given up. */
function settle(state: WalkState, kind: ItemKind, batch: number[], answered: Set<string>, now: number): void {
  const retried = new Map(state.retries.map((r) => [r[0], r]));
  const has = (n: number) => answered.has(fullName(kind, n));
  const keep: [number, number, number][] = [];
  for (const n of batch) {
    const r = retried.get(n);
    if (!r) state.asked++;
    if (has(n)) {
      state.returned++;
      retried.delete(n);
      continue;
    }
    if (!r) keep.push([n, now, 1]);
    else if (r[2] < RETRY_AFTER_MS.length) r[2]++;
    else {
      state.givenUp++;
      retried.delete(n);
    }
  }
  const due = (r: [number, number, number]) => r[1] + RETRY_AFTER_MS[r[2] - 1]!;
  state.retries = [...retried.values(), ...keep].sort((a, b) => due(a) - due(b));
}

/** What GET /actions/monitoring shows of a walk; null before its first round. */
export function walkStatus(state: WalkState, now: number) {
  const last = state.samples[state.samples.length - 1];
  if (state.walkedTo === null || !last) return null;
  const [lastAt, head] = last;
  const behind = state.walkedTo < head;
  const lagMs = behind ? now - existedBy(state, state.walkedTo + 1, now) : now - lastAt;
  return {
    walked_to: idText(state.walkedTo),
    lag_seconds: Math.max(0, Math.round(lagMs / 1000)),
    coverage: coverage(state, head, now),
  };
}

/** Of the ids allocated in the last hour (as far as the walk has seen), the share that were asked. */
function coverage(state: WalkState, head: number, now: number): number {
  const before = state.samples.filter(([at]) => at <= now - HOUR_MS);
  const base = before.length > 0 ? before[before.length - 1]![1] : state.samples[0]![1] - IDS_PER_REQUEST;
  const allocated = head - base;
  if (allocated <= 0) return 1;
  const upTo = Math.min(state.walkedTo!, head);
  let skipped = 0;
  for (const [, from, to] of state.skips) skipped += Math.max(0, Math.min(to, upTo) - Math.max(from, base + 1) + 1);
  const asked = Math.max(0, upTo - base - skipped);
  return Math.round((asked / allocated) * 10_000) / 10_000;
}
