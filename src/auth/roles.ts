// Who may do what: the one table of every API operation and console action with the least key scope and
// the least role it needs (docs/security.md, "People and roles"). The API's routes (src/http/openapi.ts) and the
// console's routes (src/console/router.tsx) both read their rule from here; test/auth/roles-table.test.ts
// checks every operation of both against every role and scope.
import { ApiError } from "../errors";
import { atLeast, ROLES, type Role } from "../lib/role";
import type { KeyScope } from "./keys";

export { ROLES, type Role };

export interface Access {
  /** The least key scope: `read_write` for every change (a person's session counts as read_write). */
  scope: KeyScope;
  /** The least role (of the person, or of the key's ceiling). */
  role: Role;
  /** Only a person's session (never a key session): a person's own account. */
  person?: true;
}

const read: Access = { scope: "read", role: "viewer" };
const write: Access = { scope: "read_write", role: "member" };
const manage: Access = { scope: "read_write", role: "admin" };
/** Needs a change but no role beyond viewer (the service narrows what a viewer may make). */
const own: Access = { scope: "read_write", role: "viewer" };
const account: Access = { scope: "read_write", role: "viewer", person: true };

/** Every /api/v1 operation, as `METHOD path` with the OpenAPI document's path. */
export const API_OPERATIONS: Record<string, Access> = {
  "GET /posts": read,
  "GET /posts/{id}": read,
  "PATCH /posts/{id}": write,
  "GET /comments": read,
  "GET /comments/{id}": read,
  "PATCH /comments/{id}": write,
  "GET /keywords": read,
  "GET /keywords/{id}": read,
  "POST /keywords": write,
  "PATCH /keywords/{id}": write,
  "DELETE /keywords/{id}": write,
  "GET /competitors": read,
  "GET /competitors/{id}": read,
  "POST /competitors": write,
  "PATCH /competitors/{id}": write,
  "DELETE /competitors/{id}": write,
  "POST /actions/blog-subreddit-syncs": write,
  "GET /actions/blog-subreddit-syncs": read,
  "GET /actions/blog-subreddit-syncs/{id}": read,
  "DELETE /actions/blog-subreddit-syncs/{id}": write,
  "GET /actions/blog-subreddit-syncs/{id}/runs": read,
  "GET /actions/blog-subreddit-syncs/{id}/runs/{run_id}": read,
  "GET /actions/blog-subreddit-syncs/{id}/items": read,
  "PATCH /actions/blog-subreddit-syncs/{id}/items/{item_id}": write,
  "POST /actions/blog-subreddit-syncs/{id}/run": write,
  "POST /actions/blog-subreddit-syncs/{id}/readiness": write,
  "POST /actions/blog-subreddit-syncs/{id}/publish-preflight": write,
  "POST /actions/blog-subreddit-syncs/{id}/items/{item_id}/approve": write,
  "GET /actions/monitoring": read,
  "POST /actions/monitoring/run": write,
  "GET /actions/monitoring/exclusions": read,
  "PUT /actions/monitoring/exclusions": write,
  "GET /insights/mentions": read,
  "GET /insights/opportunities": read,
  "POST /actions/personas/connect": write,
  "GET /actions/personas": read,
  "GET /actions/personas/{id}": read,
  "PATCH /actions/personas/{id}": write,
  "DELETE /actions/personas/{id}": write,
  "POST /actions/personas/{id}/preflight": write,
  "POST /actions/webhooks": manage,
  "GET /actions/webhooks": read,
  "DELETE /actions/webhooks/{id}": manage,
  "POST /actions/webhooks/{id}/test": manage,
  "GET /actions/webhooks/{id}/deliveries": read,
  "GET /actions/members": read,
  "POST /actions/members/invitations": manage,
  "PATCH /actions/members/{id}": manage,
  "DELETE /actions/members/{id}": manage,
  "GET /actions/audit-events": manage,
};

/** Every console action behind sign-in, as `METHOD path` with the console router's path (under /app). */
export const CONSOLE_OPERATIONS: Record<string, Access> = {
  "POST /sign-out": read,
  "POST /workspace": account,
  "GET /posts": read,
  "POST /posts/:id": write,
  "POST /comments/:id": write,
  "GET /insights": read,
  "GET /keywords": read,
  "POST /keywords": write,
  "POST /keywords/:id": write,
  "POST /keywords/:id/delete": write,
  "GET /competitors": read,
  "POST /competitors": write,
  "POST /competitors/:id": write,
  "POST /competitors/:id/delete": write,
  "GET /syncs": read,
  "POST /syncs": write,
  "GET /syncs/:id": read,
  "POST /syncs/:id": write,
  "POST /syncs/:id/dry-run": write,
  "POST /syncs/:id/run": write,
  "GET /syncs/:id/items/:item_id": read,
  "POST /syncs/:id/items/:item_id/approve": write,
  "POST /syncs/:id/items/:item_id/edit": write,
  "GET /personas": read,
  "POST /personas/connect": write,
  "POST /personas/:id/check": write,
  "POST /personas/:id/delete": write,
  "GET /settings/api": read,
  "POST /settings/api/keys": own,
  "POST /settings/api/keys/:key_id/revoke": own,
  "GET /settings/account": account,
  "POST /settings/account/password": account,
  "POST /settings/account/sessions/:session_id/revoke": account,
  "POST /settings/account/passkeys/options": account,
  "POST /settings/account/passkeys": account,
  "POST /settings/account/passkeys/:passkey_id/delete": account,
  "GET /settings/members": { scope: "read", role: "admin" },
  "POST /settings/members/invitations": manage,
  "POST /settings/members/:person_id": manage,
  "POST /settings/members/:person_id/delete": manage,
  "GET /settings/audit": manage,
};

/** What is asked of an operation without an entry: the most (the table test names it). */
const STRICTEST: Access = { scope: "read_write", role: "owner" };

/**
 * An API operation's entry. Without one (the table test fails for it), a read keeps its declared scope for
 * every role and anything else needs an owner's read_write key.
 */
export const apiAccess = (method: string, path: string, declared: KeyScope = "read_write"): Access =>
  API_OPERATIONS[`${method.toUpperCase()} ${path}`] ?? (declared === "read" ? read : STRICTEST);

export const consoleAccess = (method: string, path: string): Access =>
  CONSOLE_OPERATIONS[`${method.toUpperCase()} ${path}`] ?? STRICTEST;

/** The caller as the table judges it: a key's scope and ceiling, or a person's session (read_write, role). */
export interface Grant {
  scope: KeyScope;
  role: Role;
  person: boolean;
}

/** Why the caller may not do it, or undefined when it may. */
export function refusal(access: Access, grant: Grant): string | undefined {
  if (access.person && !grant.person) return "this is a person's own account: sign in as a person";
  if (access.scope === "read_write" && grant.scope !== "read_write")
    return "this API key is read-only; a read_write key is needed for this operation";
  if (!atLeast(grant.role, access.role))
    return grant.person
      ? `your role (${grant.role}) cannot do this; it needs ${access.role} or above`
      : `this API key's role ceiling (${grant.role}) cannot do this; it needs ${access.role} or above`;
  return undefined;
}

export const allows = (access: Access, grant: Grant) => refusal(access, grant) === undefined;

/** 403 `forbidden` unless the caller may. */
export function assertAccess(access: Access, grant: Grant): void {
  const why = refusal(access, grant);
  if (why) throw new ApiError("forbidden", why);
}
