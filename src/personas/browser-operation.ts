// Browser operations of a workspace (docs/publishing.md, "Browser operations"): the persona check,
// readiness, publish preflight and publishing, each in its turn of the workspace's browser slot. The browser
// only opens the forum's public site as a logged-out visitor (never with a persona's credentials); every
// forum API call goes from the Worker with the persona's bearer token (src/forum/persona-client.ts).
import { BROWSER_OPERATION_TIMEOUT_MS, BrowserError, type BrowserReuse, withForumPage } from "../browser/forum-browser";
import { withBrowserSlot } from "../durable/workspace-coordinator";
import type { Env } from "../env";
import { ForumError } from "../forum/errors";
import { VisitorAbout } from "../forum/schemas";
import { DomainError } from "../lib/domain-errors";

export const forumBase = (env: Pick<Env, "FORUM_BASE_URL">) =>
  (env.FORUM_BASE_URL || "https://www.reddit.com").replace(/\/+$/, "");

/** How long a caller is told to wait after the browser could not be started. */
const BROWSER_RETRY_AFTER_S = 30;

/**
 * Runs `work` in the workspace's browser slot (the coordinator's `withBrowserSlot`: FIFO, 30 s wait, else
 * DomainError `browser_busy`), with a lease that outlasts the browser operation's own deadline so a hung
 * operation is cut by its timeout before the slot's alarm frees it.
 */
export function inBrowserTurn<T>(
  env: Pick<Env, "WORKSPACE">,
  workspaceId: number,
  operation: string,
  work: (browser: BrowserReuse) => Promise<T>,
  options: { waitMs?: number; leaseMs?: number } = {},
): Promise<T> {
  return withBrowserSlot(env, workspaceId, operation, work, {
    leaseMs: BROWSER_OPERATION_TIMEOUT_MS + 30_000,
    ...options,
  });
}

/** What a logged-out visitor sees of an account's profile. */
export type VisitorView = { visible: true } | { visible: false; reason: string };

/**
 * The forum's answer is the page's own JSON: a wrapped account, or the forum's not-found error (`{"error":
 * 404}`, `{"message": "Not Found", "error": 404}`). Anything else (a block page, a challenge, a 403, a 429, a
 * login wall) says nothing about the account.
 */
function classify(username: string, page: { status: number; text: string; url: string }, address: string): VisitorView {
  let body: unknown;
  try {
    body = JSON.parse(page.text);
  } catch {
    body = undefined;
  }
  const notFound = body && typeof body === "object" && (body as { error?: unknown }).error === 404;
  if (page.status === 404 && notFound)
    return {
      visible: false,
      reason: `u/${username} is shadow-banned: the forum knows the account (who am I names it), but a logged-out visitor gets the forum's not-found page at ${address}; the account cannot reach anyone, appeal to the forum's admins or connect another account`,
    };
  const about = VisitorAbout.safeParse(body);
  if (page.status === 200 && about.success && about.data.data.name.toLowerCase() === username.toLowerCase()) {
    if (about.data.data.is_suspended)
      return { visible: false, reason: `u/${username} is suspended: a logged-out visitor sees it as suspended` };
    return { visible: true };
  }
  throw new ForumError(
    "unreachable",
    `the forum's public site did not show ${address} to the browser (HTTP ${page.status}${page.status === 200 ? ", not the account's page: a block page or a challenge" : ""}); check FORUM_BASE_URL, or try again later`,
    { status: page.status, address },
  );
}

/** Opens `FORUM_BASE_URL/user/<username>/about.json` in the turn's browser as a logged-out visitor. */
export async function visitorView(env: Env, browser: BrowserReuse, username: string): Promise<VisitorView> {
  const address = `${forumBase(env)}/user/${encodeURIComponent(username)}/about.json`;
  return withForumPage(env.BROWSER, { landingUrl: address, reuse: browser }, async (session) =>
    classify(username, session.landing, address),
  );
}

/**
 * The API error of a browser or forum failure that says nothing about the persona: the browser could not start
 * (503 `browser_unavailable`), or the forum could not be reached (502 `forum_unreachable`, naming the address).
 * Undefined for every other error.
 */
export function unreachableError(err: unknown): DomainError | undefined {
  if (err instanceof BrowserError && err.kind === "launch")
    return new DomainError("browser_unavailable", `${err.message}; try again in a minute`, {
      retryAfterSeconds: BROWSER_RETRY_AFTER_S,
    });
  if (err instanceof BrowserError)
    return new DomainError(
      "forum_unreachable",
      err.address ? `the forum could not be reached at ${err.address}: ${err.message}` : err.message,
    );
  if (err instanceof ForumError && err.kind === "unreachable") return new DomainError("forum_unreachable", err.message);
  return undefined;
}
