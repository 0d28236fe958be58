// Errors of the domain, raised below the routes (services, db, durable objects, consumers, the forum and
// browser clients). They say what went wrong in the domain's words; only the HTTP edge (src/errors.ts)
// turns them into the error codes and statuses of docs/api.md ("Errors"). This module imports nothing (src/lib is a leaf).

/** What kind of failure: the edge maps each to one error code (`invalid_input` is `validation_failed`). */
export type DomainErrorKind =
  | "not_found"
  | "invalid_input"
  | "invalid_state"
  | "run_in_progress"
  | "persona_not_ready"
  | "browser_busy"
  /** The forum (or its OAuth host) could not be reached; the message names the address tried. */
  | "forum_unreachable"
  /** The browser could not be started, after one retry on a fresh one. */
  | "browser_unavailable"
  | "forbidden";

/** One problem with one field of the input, `path` as the API names it (`body.blog_url`, `query.search`). */
export interface FieldProblem {
  path: string;
  message: string;
}

export interface DomainErrorOptions {
  /** The fields at fault (`invalid_input`), or what is not ready (`persona_not_ready`). */
  problems?: FieldProblem[];
  /** When trying again may succeed (`browser_busy`, `browser_unavailable`): seconds to wait. */
  retryAfterSeconds?: number;
}

export class DomainError extends Error {
  readonly kind: DomainErrorKind;
  readonly problems?: FieldProblem[];
  readonly retryAfterSeconds?: number;

  constructor(kind: DomainErrorKind, message: string, options: DomainErrorOptions = {}) {
    super(message);
    this.name = "DomainError";
    this.kind = kind;
    this.problems = options.problems;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** `what` (a sync config, a persona...) does not exist in this workspace. */
export const notFound = (what: string) => new DomainError("not_found", `${what} not found`);

/** The input breaks a rule the schema cannot express; the message names the first problem. */
export function invalidInput(problems: FieldProblem[]): DomainError {
  const first = problems[0];
  const message = first ? `${first.path}: ${first.message}` : "request is invalid";
  return new DomainError(
    "invalid_input",
    problems.length > 1 ? `${message} (and ${problems.length - 1} more)` : message,
    { problems },
  );
}

/** The caller's role does not allow this (a member inviting an owner...). */
export const forbidden = (message: string) => new DomainError("forbidden", message);

/** The action does not fit the current state of what it acts on (a duplicate, a published post...). */
export const invalidState = (message: string) => new DomainError("invalid_state", message);

export const isDomainError = (err: unknown, kind?: DomainErrorKind): err is DomainError =>
  err instanceof DomainError && (kind === undefined || err.kind === kind);
