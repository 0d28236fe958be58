// Every way a forum call can fail, as one reason a person can act on (docs/publishing.md).

export type ForumErrorKind =
  /** Nobody (or another account) is logged in: the session expired or the cookies are wrong. */
  | "logged_out"
  /** The forum's per-account RATELIMIT: try again after `retryAfterSeconds`. */
  | "ratelimit"
  /** The forum refused the request (json.errors, an HTTP status): the message quotes it. */
  | "refused"
  /** The answer was not what the forum's protocol says (not JSON, missing fields). */
  | "invalid_answer"
  /** The media upload form (S3) refused the file. */
  | "upload"
  /** The request left the browser and no answer came back: the forum may or may not have acted. */
  | "uncertain"
  /** The browser could not open the forum at all. */
  | "unreachable";

export class ForumError extends Error {
  override readonly name = "ForumError";
  constructor(
    readonly kind: ForumErrorKind,
    message: string,
    readonly options: { status?: number; code?: string; retryAfterSeconds?: number } = {},
  ) {
    super(message);
  }
}

export const isForumError = (err: unknown, kind?: ForumErrorKind): err is ForumError =>
  err instanceof ForumError && (kind === undefined || err.kind === kind);

const UNIT_SECONDS: Record<string, number> = { second: 1, minute: 60, hour: 3600, millisecond: 0.001 };

/**
 * The delay a RATELIMIT message names ("Take a break for 5 minutes before trying again.", "try again in 9
 * seconds", "... in 1 hour"); `fallback` when it names none. Rounded up to whole seconds, at least 1.
 */
export function parseRatelimitDelay(message: string, fallback = 60): number {
  const match = /(\d+(?:\.\d+)?)\s*(millisecond|second|minute|hour)s?/i.exec(message);
  if (!match) return fallback;
  return Math.max(1, Math.ceil(Number(match[1]) * (UNIT_SECONDS[match[2]!.toLowerCase()] ?? 1)));
}
