// A browser operation of a workspace (persona check, readiness, publish preflight, publishing) in its turn
// of the workspace's browser slot (SPEC 6), then in a browser logged in as the persona.
import { BROWSER_OPERATION_TIMEOUT_MS, withForumPage } from "../browser/forum-browser";
import type { WorkspaceDb } from "../db/client";
import type { PersonaRow } from "../db/personas";
import { coordinatorFor } from "../durable/workspace-coordinator";
import type { Env } from "../env";
import { ForumClient } from "../forum/client";
import { DomainError } from "../lib/domain-errors";
import { cookiesForForum } from "./cookies";
import { openPersonaCookies } from "./sessions";

export const forumBase = (env: Pick<Env, "FORUM_BASE_URL">) =>
  (env.FORUM_BASE_URL || "https://www.reddit.com").replace(/\/+$/, "");

/**
 * Runs `work` holding the workspace's browser slot: waits up to 30 s for its turn (first come, first
 * served), else DomainError `browser_busy` with the seconds to wait. The slot is released when `work`
 * settles; if the Worker dies first, the slot's deadline (an alarm) frees it.
 */
export async function inBrowserTurn<T>(
  env: Pick<Env, "WORKSPACE">,
  workspaceId: number,
  operation: string,
  work: () => Promise<T>,
  options: { waitMs?: number; leaseMs?: number } = {},
): Promise<T> {
  const coordinator = coordinatorFor(env, workspaceId);
  const slot = await coordinator.acquireBrowserSlot(operation, {
    leaseMs: BROWSER_OPERATION_TIMEOUT_MS + 30_000,
    ...options,
  });
  if (!slot.ok)
    throw new DomainError(
      "browser_busy",
      `another browser operation of this workspace (${slot.holder}) is running; retry in ${slot.retryAfterSeconds} s`,
      { retryAfterSeconds: slot.retryAfterSeconds },
    );
  try {
    return await work();
  } finally {
    await coordinator.releaseBrowserSlot(slot.token);
  }
}

/** Opens the forum in a browser with the persona's cookies and hands `work` a forum client for it. */
export async function withPersonaForum<T>(
  env: Env,
  w: WorkspaceDb,
  persona: PersonaRow,
  work: (forum: ForumClient) => Promise<T>,
): Promise<T> {
  const cookies = await openPersonaCookies(env, w, persona);
  const base = forumBase(env);
  return withForumPage(
    env.BROWSER,
    { landingUrl: `${base}/api/me.json`, cookies: cookiesForForum(cookies, base) },
    (session) => work(new ForumClient(session, base)),
  );
}
