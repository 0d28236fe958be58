// The persona and destination checks shared by readiness, publish preflight and publishing (docs/publishing.md): who
// the grant belongs to, the subreddit (exists, reachable for this account, takes text posts, images), its post
// requirements and its link flair templates.

import type { BrowserReuse } from "../browser/forum-browser";
import type { SyncConfigRow } from "../db/blog-sync-configs";
import type { WorkspaceDb } from "../db/client";
import { findReadyPersona, getPersonaRow, type PersonaRow } from "../db/personas";
import type { Env } from "../env";
import { isForumError } from "../forum/errors";
import type { FlairAnswer, ForumClient } from "../forum/persona-client";
import type { PostRequirements } from "../forum/schemas";
import { notFound } from "../lib/domain-errors";
import { unreachableError, visitorView } from "../personas/browser-operation";
import { personaNotReady, personaProblems, reasonOf } from "../personas/personas";
import { type Check, flairCheck } from "./submission";

export type PersonaChoice =
  | { persona: PersonaRow; ready: boolean; reason: string | null }
  | { persona: null; reason: string };

/**
 * The persona of an operation: the given one (must be active, auth-completed and browser-ready, else
 * DomainError persona_not_ready; unknown or another workspace's: not found), else the config's, else an
 * automatically chosen ready one.
 */
export async function choosePersona(w: WorkspaceDb, config: SyncConfigRow, personaId?: number): Promise<PersonaChoice> {
  if (personaId !== undefined) {
    const given = await getPersonaRow(w, personaId);
    if (!given) throw notFound("persona");
    if (personaProblems(given).length > 0) throw personaNotReady(given);
    return { persona: given, ready: true, reason: null };
  }
  const chosen = config.personaId !== null ? await getPersonaRow(w, config.personaId) : await findReadyPersona(w);
  if (!chosen)
    return {
      persona: null,
      reason:
        "no active, auth-completed, browser-ready persona in the workspace: connect one (POST /actions/personas/connect, or the console's Personas page) and run its preflight",
    };
  const problems = personaProblems(chosen);
  return problems.length
    ? {
        persona: chosen,
        ready: false,
        reason: `persona u/${chosen.username}: ${problems.map((p) => p.message).join("; ")}`,
      }
    : { persona: chosen, ready: true, reason: null };
}

export interface Destination {
  checks: Check[];
  /** Set when the subreddit could be read. */
  requirements?: PostRequirements;
  flairs?: FlairAnswer;
  /** Who am I names the persona (false: nothing else was checked). */
  sessionOk: boolean;
}

const notChecked = (name: string, why: string): Check => ({ name, ok: false, reason: `not checked: ${why}` });

/**
 * The persona's profile as a logged-out visitor sees it, in the turn's browser (docs/publishing.md,
 * "Readiness"): `browser_ready` confirmed at this moment.
 */
export async function visibleCheck(env: Env, browser: BrowserReuse, persona: PersonaRow): Promise<Check> {
  const view = await visitorView(env, browser, persona.username);
  return view.visible
    ? { name: "visible", ok: true, reason: null }
    : { name: "visible", ok: false, reason: view.reason };
}

/** Who am I for the persona: the grant must name this username and the account must not be suspended. */
async function identityCheck(forum: ForumClient, persona: PersonaRow): Promise<Check> {
  try {
    const me = await forum.me();
    if (me.name.toLowerCase() !== persona.username.toLowerCase())
      return {
        name: "identity",
        ok: false,
        reason: `the grant belongs to u/${me.name}, not u/${persona.username}; connect u/${persona.username} again (POST /actions/personas/connect)`,
      };
    if (me.isSuspended)
      return { name: "identity", ok: false, reason: `the forum account u/${me.name} is suspended; it cannot post` };
    return { name: "identity", ok: true, reason: null };
  } catch (err) {
    if (unreachableError(err)) throw err;
    return { name: "identity", ok: false, reason: reasonOf(err) };
  }
}

/**
 * The persona's identity and the destination (docs/publishing.md, "Readiness"): every call from the Worker
 * with the persona's token. An unreachable forum is thrown (502: it says nothing about the destination).
 */
export async function checkDestination(
  forum: ForumClient,
  persona: PersonaRow,
  config: Pick<SyncConfigRow, "subreddit" | "flairId" | "includeMedia">,
): Promise<Destination> {
  const checks: Check[] = [];
  const sr = config.subreddit;
  const identity = await identityCheck(forum, persona);
  checks.push(identity);
  if (!identity.ok) return { checks, sessionOk: false };

  let requirements: PostRequirements | undefined;
  let flairs: FlairAnswer | undefined;
  try {
    const about = await forum.subreddit(sr);
    if (about.status !== "ok") {
      checks.push({ name: "subreddit", ok: false, reason: about.reason });
      checks.push(notChecked("text_posts", `r/${sr} cannot be read`));
      checks.push(notChecked("post_requirements", `r/${sr} cannot be read`));
      checks.push(notChecked("flair", `r/${sr} cannot be read`));
      return { checks, sessionOk: true };
    }
    const s = about.subreddit;
    const member = s.userIsContributor || s.userIsModerator;
    if (s.userIsBanned)
      checks.push({ name: "subreddit", ok: false, reason: `u/${persona.username} is banned from r/${sr}` });
    else if (s.type !== "public" && s.type !== "user" && !member)
      checks.push({
        name: "subreddit",
        ok: false,
        reason: `r/${sr} is ${s.type}: only approved members may post, and u/${persona.username} is not one; ask its moderators`,
      });
    else checks.push({ name: "subreddit", ok: true, reason: null });
    checks.push(
      s.submissionType === "link"
        ? { name: "text_posts", ok: false, reason: `r/${sr} accepts link posts only; a synced post is a text post` }
        : { name: "text_posts", ok: true, reason: null },
    );
    if (config.includeMedia)
      checks.push(
        s.allowImages
          ? { name: "images", ok: true, reason: null }
          : {
              name: "images",
              ok: false,
              reason: `r/${sr} does not allow images; turn include_media off or pick another subreddit`,
            },
      );
  } catch (err) {
    if (!isForumError(err) || unreachableError(err)) throw err;
    checks.push({ name: "subreddit", ok: false, reason: reasonOf(err) });
  }
  try {
    requirements = await forum.postRequirements(sr);
    checks.push({ name: "post_requirements", ok: true, reason: null });
  } catch (err) {
    if (!isForumError(err) || unreachableError(err)) throw err;
    checks.push({ name: "post_requirements", ok: false, reason: reasonOf(err) });
  }
  try {
    flairs = await forum.linkFlairs(sr);
    checks.push(flairCheck(config.flairId, requirements?.is_flair_required ?? false, flairs));
  } catch (err) {
    if (!isForumError(err) || unreachableError(err)) throw err;
    checks.push({ name: "flair", ok: false, reason: reasonOf(err) });
  }
  return { checks, requirements, flairs, sessionOk: true };
}
