// What can go wrong fetching the open web: one error whose code callers branch on, and whose message says
// what happened in words a user can act on.

export type FetchErrorCode =
  | "bad_url"
  | "blocked_address"
  | "too_large"
  | "timeout"
  | "http_status"
  | "too_many_redirects"
  | "robots_disallowed"
  | "network"
  | "parse";

/**
 * A failed fetch. A layer above may add codes of its own knowledge (the article engine's `not_a_blog`) by
 * naming them: `new FetchError<ItsCodes>(...)`; without that, only the codes above are accepted.
 */
export class FetchError<Code extends string = FetchErrorCode> extends Error {
  override readonly name = "FetchError";
  constructor(
    readonly code: NoInfer<Code>,
    message: string,
    readonly status?: number,
    readonly url?: string,
  ) {
    super(message);
  }
}
