// A browser operation of a workspace (persona check, readiness, publish preflight, publishing) in its turn
// of the workspace's browser slot (docs/publishing.md, "Publishing"), then in a browser logged in as the persona.
import { BROWSER_OPERATION_TIMEOUT_MS, type BrowserReuse, withForumPage } from "../browser/forum-browser";
import type { WorkspaceDb } from "../db/client";
import type { PersonaRow } from "../db/personas";
import { withBrowserSlot } from "../durable/workspace-coordinator";
import type { Env } from "../env";
import { ForumClient } from "../forum/persona-client";
import { cookiesForForum } from "./cookies";
import { openPersonaCookies } from "./sealed-cookies";

export const forumBase = (env: Pick<Env, "FORUM_BASE_URL">) =>
  (env.FORUM_BASE_URL || "https://www.reddit.com").replace(/\/+$/, "");

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

/**
 * Opens the forum in a browser with the persona's cookies (the turn's warm browser when there is one, in a
 * context of its own) and hands `work` a forum client for it.
 */
export async function withPersonaForum<T>(
  env: Env,
  w: WorkspaceDb,
  persona: PersonaRow,
  browser: BrowserReuse,
  work: (forum: ForumClient) => Promise<T>,
): Promise<T> {
  const cookies = await openPersonaCookies(env, w, persona);
  const base = forumBase(env);
  return withForumPage(
    env.BROWSER,
    { landingUrl: `${base}/api/me.json`, cookies: cookiesForForum(cookies, base), reuse: browser },
    (session) => work(new ForumClient(session, base)),
  );
}
