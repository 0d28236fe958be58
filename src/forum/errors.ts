// Every way a forum call can fail, as one reason a person can act on (docs/publishing.md).

export type ForumErrorKind =
  /** The persona's grant does not work (revoked, missing, without a scope): the account must be connected again. */
  | "grant"
  /** The forum's per-account RATELIMIT: try again after `retryAfterSeconds`. */
  | "ratelimit"
  /** The deployment's forum API quota has no request left for a while: try again after `retryAfterSeconds`. */
  | "quota"
  /** The forum refused the request (json.errors, SUBMIT_VALIDATION_*, an HTTP status): the message quotes it. */
  | "refused"
  /** The answer was not what the forum's protocol says (not JSON, missing fields). */
  | "invalid_answer"
  /** The media upload form (S3) refused the file. */
  | "upload"
  /** The request was sent and no answer came back: the forum may or may not have acted on it. */
  | "uncertain"
  /** The forum could not be reached at `address` (network, a block page, a challenge). */
  | "unreachable";

export class ForumError extends Error {
  override readonly name = "ForumError";
  constructor(
    readonly kind: ForumErrorKind,
    message: string,
    readonly options: { status?: number; code?: string; retryAfterSeconds?: number; address?: string } = {},
  ) {
    super(message);
  }
}

export const isForumError = (err: unknown, kind?: ForumErrorKind): err is ForumError =>
  err instanceof ForumError && (kind === undefined || err.kind === kind);

const UNIT_SECONDS: Record<string, number> = {
  millisecond: 0.001,
  second: 1,
  minute: 60,
  hour: 3600,
  day: 86_400,
};

/**
 * The delay a RATELIMIT message names ("you are doing that too much. try again in 9 minutes.", "Take a break
 * for 5 minutes before trying again."); `fallback` when it names none. Rounded up to whole seconds, at least 1.
 */
export function parseRatelimitDelay(message: string, fallback = 60): number {
  const match = /(\d+(?:\.\d+)?)\s*(millisecond|second|minute|hour|day)s?/i.exec(message);
  if (!match) return fallback;
  return Math.max(1, Math.ceil(Number(match[1]) * (UNIT_SECONDS[match[2]!.toLowerCase()] ?? 1)));
}
