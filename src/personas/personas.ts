// Personas (docs/publishing.md, "Personas"): forum accounts of a workspace connected by OAuth, their flags, and
// the persona check.
import type { WorkspaceDb } from "../db/client";
import {
  deletePersonaRow,
  getPersonaRow,
  listPersonaRows,
  type PersonaRow,
  type PersonaView,
  queuedPostsOfPersona,
  serializePersona,
  updatePersona,
} from "../db/personas";
import type { Env } from "../env";
import { isForumError } from "../forum/errors";
import { revokeToken } from "../forum/oauth";
import { ForumClient } from "../forum/persona-client";
import { DomainError, invalidState, notFound } from "../lib/domain-errors";
import { log, messageOf } from "../lib/log";
import type { Actor } from "../lib/role";
import { SessionKeyError } from "../lib/sealing";
import { inBrowserTurn, unreachableError, visitorView } from "./browser-operation";
import { missingScopes, openRefreshToken, personaAccessToken, requireOAuthClient, scopeError } from "./grants";

export interface Check {
  name: string;
  ok: boolean;
  reason: string | null;
}

export async function listPersonas(w: WorkspaceDb): Promise<PersonaView[]> {
  return (await listPersonaRows(w)).map(serializePersona);
}

export async function requirePersona(w: WorkspaceDb, id: number): Promise<PersonaRow> {
  const row = await getPersonaRow(w, id);
  if (!row) throw notFound("persona");
  return row;
}

export async function getPersona(w: WorkspaceDb, id: number): Promise<PersonaView> {
  return serializePersona(await requirePersona(w, id));
}

export async function patchPersona(w: WorkspaceDb, id: number, input: { active?: boolean }): Promise<PersonaView> {
  await requirePersona(w, id);
  const row = await updatePersona(w, id, input.active === undefined ? {} : { active: input.active });
  if (!row) throw notFound("persona");
  return serializePersona(row);
}

/** Admin: approved for the customer (docs/publishing.md, "Personas"), or revoked. */
export async function setPersonaApproval(w: WorkspaceDb, id: number, approved: boolean): Promise<PersonaView> {
  await requirePersona(w, id);
  const row = await updatePersona(w, id, { approved });
  if (!row) throw notFound("persona");
  return serializePersona(row);
}

/**
 * Deletes a persona: its refresh token is revoked at the forum first (and with it every access token), then
 * the row goes. Refused while a post of a config naming it is queued; a forum that cannot be reached keeps
 * the persona (502), so the grant is never left alive at the forum without a record of it here. The row's
 * deletion and its `persona.deleted` event (naming `actor`) are one write.
 */
export async function deletePersona(env: Env, w: WorkspaceDb, id: number, actor: Actor): Promise<void> {
  const persona = await requirePersona(w, id);
  const queued = await queuedPostsOfPersona(w, id);
  if (queued > 0)
    throw invalidState(
      `${queued} post${queued === 1 ? " is" : "s are"} queued for publishing as u/${persona.username}; publish or send ${queued === 1 ? "it" : "them"} back to draft first`,
    );
  let token: string | null = null;
  try {
    token = await openRefreshToken(env, persona);
  } catch (err) {
    // A grant sealed under another key can be used by nobody: there is nothing left to revoke.
    if (!(err instanceof SessionKeyError)) throw err;
  }
  if (token) {
    try {
      await revokeToken(requireOAuthClient(env), token);
    } catch (err) {
      const outside = unreachableError(err);
      if (outside) throw outside;
      if (!isForumError(err)) throw err;
      // The forum answered and refused: the grant dies with the row here (it was sealed and is now gone).
      log("warn", "forum refused to revoke a persona's grant", { persona_id: id, error: err.message });
    }
  }
  const deleted = await deletePersonaRow(w, id, {
    actor,
    action: "persona.deleted",
    target: { type: "persona", id },
    details: { username: persona.username },
  });
  if (!deleted) throw notFound("persona");
}

/** Why a persona cannot be used for a browser operation (empty: it can). */
export function personaProblems(persona: PersonaRow): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  if (!persona.active)
    problems.push({ path: "persona.active", message: "the persona is not active (PATCH it with active: true)" });
  if (!persona.authCompleted)
    problems.push({
      path: "persona.auth_completed",
      message: persona.lastError
        ? `the persona's forum connection does not work: ${persona.lastError}`
        : "the persona's forum connection is not confirmed; run POST /actions/personas/:id/preflight",
    });
  if (!persona.browserReady)
    problems.push({
      path: "persona.browser_ready",
      message: "the persona has not passed the visitor's check; run POST /actions/personas/:id/preflight",
    });
  return problems;
}

export function personaNotReady(persona: PersonaRow): DomainError {
  const problems = personaProblems(persona);
  return new DomainError(
    "persona_not_ready",
    `persona ${persona.username} is not ready: ${problems.map((p) => p.message).join("; ")}`,
    { problems },
  );
}

/** The reason a forum operation failed, for a check or last_error; never carries a token. */
export function reasonOf(err: unknown): string {
  if (isForumError(err) || err instanceof SessionKeyError) return err.message;
  if (err instanceof DomainError) throw err;
  log("error", "forum operation failed unexpectedly", { error: messageOf(err) });
  return `the operation failed: ${messageOf(err)}`;
}

/**
 * The API side of the persona check: a fresh token (renewed if needed), who am I (this username, not
 * suspended), the scopes granted. Unreachable forums are thrown (they say nothing about the persona).
 */
async function grantChecks(env: Env, w: WorkspaceDb, persona: PersonaRow): Promise<Check[]> {
  try {
    await personaAccessToken(env, w, persona.id);
  } catch (err) {
    if (unreachableError(err)) throw err;
    return [{ name: "grant", ok: false, reason: reasonOf(err) }];
  }
  const checks: Check[] = [{ name: "grant", ok: true, reason: null }];
  try {
    const me = await new ForumClient(env, w, persona).me();
    if (me.name.toLowerCase() !== persona.username.toLowerCase())
      checks.push({
        name: "identity",
        ok: false,
        reason: `the grant belongs to u/${me.name}, not u/${persona.username}; connect u/${persona.username} again`,
      });
    else if (me.isSuspended)
      checks.push({
        name: "identity",
        ok: false,
        reason: `the forum account u/${me.name} is suspended; it cannot post`,
      });
    else checks.push({ name: "identity", ok: true, reason: null });
  } catch (err) {
    if (unreachableError(err)) throw err;
    checks.push({ name: "identity", ok: false, reason: reasonOf(err) });
  }
  const fresh = await requirePersona(w, persona.id);
  const lacking = missingScopes(fresh.scopes);
  checks.push(
    lacking.length
      ? { name: "scopes", ok: false, reason: scopeError(lacking) }
      : { name: "scopes", ok: true, reason: null },
  );
  return checks;
}

/**
 * The persona check (docs/publishing.md, "Persona check"), in the workspace's browser slot: the grant, who am
 * I and the scopes from the Worker, then the account's profile as a logged-out visitor in the browser. An
 * unreachable forum (502) or a browser that cannot start (503) changes no flag. The verdict is written only
 * over the grant it checked: one replaced meanwhile (a new connection) is not marked by the old one's result.
 */
export async function preflightPersona(
  env: Env,
  w: WorkspaceDb,
  id: number,
): Promise<{ persona: PersonaView; checks: Check[] }> {
  await requirePersona(w, id);
  let grantVersion = 0;
  const checks = await inBrowserTurn(env, w.workspaceId, `persona check ${id}`, async (browser) => {
    const persona = await requirePersona(w, id);
    try {
      const api = await grantChecks(env, w, persona);
      grantVersion = (await requirePersona(w, id)).grantVersion;
      if (!api.every((c) => c.ok))
        return [...api, { name: "visible", ok: false, reason: "not checked: the forum's connection does not work" }];
      const view = await visitorView(env, browser, persona.username);
      return [
        ...api,
        view.visible
          ? { name: "visible", ok: true, reason: null }
          : { name: "visible", ok: false, reason: view.reason },
      ];
    } catch (err) {
      throw unreachableError(err) ?? err;
    }
  });
  const failed = checks.find((c) => !c.ok);
  const apiOk = checks.filter((c) => c.name !== "visible").every((c) => c.ok);
  const row = await updatePersona(
    w,
    id,
    {
      authCompleted: apiOk,
      browserReady: checks.find((c) => c.name === "visible")?.ok === true,
      lastCheckedAt: new Date().toISOString(),
      lastError: failed?.reason ?? null,
    },
    { grantVersion },
  );
  if (row) return { persona: serializePersona(row), checks };
  await requirePersona(w, id);
  throw invalidState("the persona's forum connection was replaced while it was being checked; run the check again");
}
