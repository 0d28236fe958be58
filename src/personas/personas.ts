// Personas (docs/publishing.md, "Personas"): forum accounts of a workspace, their encrypted sessions and the
// persona check.
import { BrowserError } from "../browser/forum-browser";
import type { WorkspaceDb } from "../db/client";
import {
  getPersonaRow,
  insertPersona,
  listPersonaRows,
  type PersonaRow,
  type PersonaView,
  serializePersona,
  updatePersona,
} from "../db/personas";
import type { Env } from "../env";
import { isForumError } from "../forum/errors";
import { DomainError, invalidState, notFound } from "../lib/domain-errors";
import { log, messageOf } from "../lib/log";
import { SessionKeyError } from "../lib/sealing";
import { inBrowserTurn, withPersonaForum } from "./browser-operation";
import { type ExportedCookie, mapExportedCookies } from "./cookies";
import { sealPersonaCookies } from "./sealed-cookies";

export interface Check {
  name: string;
  ok: boolean;
  reason: string | null;
}

/** Usernames are stored without `u/` (the schema allows the prefix on input). */
export const normalizeUsername = (username: string) => username.trim().replace(/^\/?u\//i, "");

async function seal(env: Env, w: WorkspaceDb, username: string, cookies: ExportedCookie[]): Promise<string> {
  try {
    return await sealPersonaCookies(env, w, username, mapExportedCookies(cookies));
  } catch (err) {
    if (err instanceof SessionKeyError) throw invalidState(`the session cannot be stored: ${err.message}`);
    throw err;
  }
}

export async function createPersona(
  env: Env,
  w: WorkspaceDb,
  input: { username: string; cookies: ExportedCookie[] },
): Promise<PersonaView> {
  const username = normalizeUsername(input.username);
  const row = await insertPersona(w, { username, sessionCiphertext: await seal(env, w, username, input.cookies) });
  if (!row) throw invalidState(`a persona named ${username} already exists in this workspace`);
  return serializePersona(row);
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

/** Replaces the session; the persona is not auth-completed or browser-ready until its next check. */
export async function replacePersonaSession(
  env: Env,
  w: WorkspaceDb,
  id: number,
  cookies: ExportedCookie[],
): Promise<PersonaView> {
  const persona = await requirePersona(w, id);
  const row = await updatePersona(w, id, {
    sessionCiphertext: await seal(env, w, persona.username, cookies),
    authCompleted: false,
    browserReady: false,
    lastError: null,
  });
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

/** Why a persona cannot be used for a browser operation (empty: it can). */
export function personaProblems(persona: PersonaRow): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  if (!persona.active)
    problems.push({ path: "persona.active", message: "the persona is not active (PATCH it with active: true)" });
  if (!persona.authCompleted)
    problems.push({
      path: "persona.auth_completed",
      message: "the persona's session is not confirmed; run POST /actions/personas/:id/preflight",
    });
  if (!persona.browserReady)
    problems.push({
      path: "persona.browser_ready",
      message: "the persona has not passed a browser check; run POST /actions/personas/:id/preflight",
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

/** The reason a forum operation failed, for a check or last_error; never carries a cookie. */
export function reasonOf(err: unknown): string {
  if (isForumError(err) || err instanceof SessionKeyError) return err.message;
  if (err instanceof DomainError) throw err;
  log("error", "browser operation failed unexpectedly", { error: messageOf(err) });
  return `the browser operation failed: ${messageOf(err)}`;
}

/**
 * The persona check (docs/publishing.md, "Personas"): opens the forum with the persona's session and asks who is
 * logged in. When the forum names this persona, it is auth-completed and browser-ready; otherwise neither, with the
 * reason. A browser that could not start checked nothing: the persona is left as it was, the checks say why.
 * The session is read in the browser turn, and the verdict is written only while that session is still the
 * persona's: a session replaced meanwhile (PUT .../session) is not marked checked by the old one's result.
 */
export async function preflightPersona(
  env: Env,
  w: WorkspaceDb,
  id: number,
): Promise<{ persona: PersonaView; checks: Check[] }> {
  await requirePersona(w, id);
  let checkedSession = "";
  // A browser that could not start checked nothing about the persona: its flags stay as they were.
  let browserStarted = true;
  const checks: Check[] = await inBrowserTurn(env, w.workspaceId, `persona check ${id}`, async (browser) => {
    // Read in the turn: a session replaced while the check waited for the browser is the one checked.
    const persona = await requirePersona(w, id);
    checkedSession = persona.sessionCiphertext;
    try {
      return await withPersonaForum(env, w, persona, browser, async (forum) => {
        const browser: Check = { name: "browser", ok: true, reason: null };
        const me = await forum.me();
        const same = me.name.toLowerCase() === persona.username.toLowerCase();
        return [
          browser,
          {
            name: "session",
            ok: same,
            reason: same
              ? null
              : `the session belongs to u/${me.name}, not u/${persona.username}; upload u/${persona.username}'s cookies with PUT /actions/personas/${persona.id}/session`,
          },
        ];
      });
    } catch (err) {
      if (err instanceof BrowserError && err.kind === "launch") browserStarted = false;
      const reason = reasonOf(err);
      const browserFailed = isForumError(err, "unreachable") || isForumError(err, "uncertain") || !isForumError(err);
      return browserFailed && !(err instanceof SessionKeyError)
        ? [
            { name: "browser", ok: false, reason },
            { name: "session", ok: false, reason: "not checked: the forum did not open" },
          ]
        : [
            {
              name: "browser",
              ok: !(err instanceof SessionKeyError),
              reason: err instanceof SessionKeyError ? reason : null,
            },
            { name: "session", ok: false, reason },
          ];
    }
  });
  if (!browserStarted) return { persona: serializePersona(await requirePersona(w, id)), checks };
  const ok = checks.every((c) => c.ok);
  const row = await updatePersona(
    w,
    id,
    {
      authCompleted: ok,
      browserReady: ok,
      lastCheckedAt: new Date().toISOString(),
      lastError: ok ? null : (checks.find((c) => !c.ok)?.reason ?? "the check failed"),
    },
    { session: checkedSession },
  );
  if (row) return { persona: serializePersona(row), checks };
  await requirePersona(w, id);
  throw invalidState("the persona's session was replaced while it was being checked; run the check again");
}
