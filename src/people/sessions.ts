// A person's console sessions (docs/console.md, "People, sessions and roles"): a new random token at every sign-in (a session
// id is never carried over from before it), its SHA-256 stored, 12 hours, bound to one workspace of the
// person at a time; revoked one by one in Settings > Account, or all but the current one by a password change.
import { type Database, nowIso } from "../db/client";
import { findPerson, membershipOf, workspacesOf } from "../db/people";
import {
  findLiveSession,
  insertPersonSession,
  type PersonSessionRow,
  setPasswordEndingOtherSessions,
  switchSessionWorkspace,
  touchSession,
} from "../db/person-sessions";
import { sha256Hex } from "../lib/crypto";
import { forbidden, invalidInput } from "../lib/domain-errors";
import type { Role } from "../lib/role";
import { checkPassword, hashPassword, passwordProblem } from "./passwords";

const LAST_SEEN_RESOLUTION_MS = 60_000;

const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

export interface OpenedSession {
  token: string;
  expiresAt: number;
}

/** A new session of the person in the workspace (the first they belong to when none is named). */
export async function startPersonSession(
  dir: Database,
  input: {
    personId: number;
    workspaceId?: number;
    method: PersonSessionRow["method"];
    userAgent: string | null;
    seconds: number;
  },
): Promise<OpenedSession | undefined> {
  const workspaces = await workspacesOf(dir, input.personId);
  const workspaceId = input.workspaceId ?? workspaces[0]?.workspaceId;
  if (workspaceId === undefined || !workspaces.some((w) => w.workspaceId === workspaceId)) return undefined;
  const token = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const expiresAt = Math.floor(Date.now() / 1000) + input.seconds;
  await insertPersonSession(dir, {
    tokenHash: await sha256Hex(token),
    personId: input.personId,
    workspaceId,
    method: input.method,
    userAgent: input.userAgent?.slice(0, 300) ?? null,
    expiresAt: new Date(expiresAt * 1000).toISOString(),
  });
  return { token, expiresAt };
}

export interface LivePersonSession {
  sessionId: number;
  person: { id: number; name: string; email: string };
  workspaceId: number;
  role: Role;
  workspaces: { workspaceId: number; name: string; role: Role }[];
}

/** The live session a token names, with the person's current role in its workspace; else undefined. */
export async function resolvePersonSession(dir: Database, token: string): Promise<LivePersonSession | undefined> {
  const at = nowIso();
  const row = await findLiveSession(dir, await sha256Hex(token), at);
  if (!row) return undefined;
  const [person, membership, workspaces] = await Promise.all([
    findPerson(dir, row.personId),
    membershipOf(dir, row.workspaceId, row.personId),
    workspacesOf(dir, row.personId),
  ]);
  if (!person || !membership) return undefined;
  if (!row.lastSeenAt || Date.parse(at) - Date.parse(row.lastSeenAt) > LAST_SEEN_RESOLUTION_MS)
    await touchSession(dir, row.id, at);
  return {
    sessionId: row.id,
    person: { id: person.id, name: person.name, email: person.email },
    workspaceId: row.workspaceId,
    role: membership.role,
    workspaces,
  };
}

/** Points the session at another workspace of the person. */
export async function switchWorkspace(dir: Database, session: LivePersonSession, workspaceId: number): Promise<void> {
  if (!(await membershipOf(dir, workspaceId, session.person.id)))
    throw forbidden("you are not a member of that workspace");
  await switchSessionWorkspace(dir, session.sessionId, workspaceId);
}

/** A new password (the current one first); every other session of the person ends. */
export async function changePassword(
  dir: Database,
  session: LivePersonSession,
  input: { current: string; password: string },
): Promise<void> {
  const person = await findPerson(dir, session.person.id);
  if (!person || !(await checkPassword(input.current, person)))
    throw invalidInput([{ path: "body.current", message: "that is not your current password" }]);
  const weak = passwordProblem(input.password);
  if (weak) throw invalidInput([{ path: "body.password", message: weak }]);
  const hash = await hashPassword(input.password);
  await setPasswordEndingOtherSessions(dir, person.id, hash, session.sessionId);
}
