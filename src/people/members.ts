// Members, invitations and roles of a workspace (docs/security.md, "People and roles"). The roles table
// (src/auth/roles.ts) decides who may reach these at all (admin or owner); the rules about owners live here:
// only an owner makes, unmakes or removes an owner, and the last owner can be neither demoted nor removed.
import { recordAudit } from "../audit/events";
import type { Database, WorkspaceDb } from "../db/client";
import { findOpenInvitation, insertInvitation, removeUnlessLastOwner, setRoleUnlessLastOwner } from "../db/memberships";
import {
  findPerson,
  findPersonByEmail,
  listMembers,
  type MemberView,
  membershipOf,
  normalEmail,
  ownerCount,
} from "../db/people";
import { sha256Hex } from "../lib/crypto";
import { forbidden, invalidState, notFound } from "../lib/domain-errors";
import type { Actor, Role } from "../lib/role";

export const INVITATION_SECONDS = 7 * 24 * 3600;

/** Who asks: the role (a person's, or a key's ceiling) and the name the audit trail gives them. */
export interface Caller {
  role: Role;
  actor: Actor;
}

export interface InvitationView {
  id: number;
  email: string;
  role: Role;
  expires_at: string;
}

const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

/** The path an invitation's link opens (the caller prefixes the service's origin). */
export const invitationPath = (token: string) => `/app/invitations/${token}`;
export const INVITATION_TOKEN = /^[A-Za-z0-9_-]{43}$/;

function mayTouchOwners(caller: Caller, what: string): void {
  if (caller.role !== "owner") throw forbidden(`only an owner can ${what}`);
}

/** A single-use invitation valid 7 days; the plain token is in the returned link only. */
export async function inviteMember(
  dir: Database,
  w: WorkspaceDb,
  caller: Caller,
  input: { email: string; role: Role },
): Promise<{ invitation: InvitationView; token: string }> {
  if (input.role === "owner") mayTouchOwners(caller, "invite an owner");
  const email = normalEmail(input.email);
  const person = await findPersonByEmail(dir, email);
  if (person && (await membershipOf(dir, w.workspaceId, person.id)))
    throw invalidState(`${email} is already a member of this workspace`);
  const token = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const expiresAt = new Date(Date.now() + INVITATION_SECONDS * 1000).toISOString();
  const row = await insertInvitation(dir, {
    workspaceId: w.workspaceId,
    email,
    role: input.role,
    tokenHash: await sha256Hex(token),
    expiresAt,
  });
  const invitation = { id: row.id, email, role: row.role, expires_at: row.expiresAt };
  await recordAudit(w, {
    actor: caller.actor,
    action: "member.invited",
    target: { type: "invitation", id: row.id },
    details: { email, role: input.role },
  });
  return { invitation, token };
}

/** The open invitation a link's token names: unused and unexpired, else undefined. */
export async function openInvitation(dir: Database, token: string) {
  if (!INVITATION_TOKEN.test(token)) return undefined;
  return findOpenInvitation(dir, await sha256Hex(token));
}

export const membersOf = (dir: Database, workspaceId: number): Promise<MemberView[]> => listMembers(dir, workspaceId);

async function memberOrNotFound(dir: Database, workspaceId: number, personId: number) {
  const membership = await membershipOf(dir, workspaceId, personId);
  const person = membership ? await findPerson(dir, personId) : undefined;
  if (!membership || !person) throw notFound("member");
  return { membership, person };
}

async function keepAnOwner(dir: Database, workspaceId: number, what: string): Promise<void> {
  if ((await ownerCount(dir, workspaceId)) <= 1) throw lastOwner(what);
}

const lastOwner = (what: string) =>
  invalidState(`the last owner of a workspace cannot be ${what}; make another member owner first`);

export async function changeRole(
  dir: Database,
  w: WorkspaceDb,
  caller: Caller,
  personId: number,
  role: Role,
): Promise<MemberView> {
  const { membership, person } = await memberOrNotFound(dir, w.workspaceId, personId);
  if (membership.role === "owner" || role === "owner") mayTouchOwners(caller, "make or unmake an owner");
  if (membership.role === "owner" && role !== "owner") await keepAnOwner(dir, w.workspaceId, "demoted");
  if (membership.role !== role) {
    if (!(await setRoleUnlessLastOwner(dir, w.workspaceId, personId, role))) throw lastOwner("demoted");
    await recordAudit(w, {
      actor: caller.actor,
      action: "member.role_changed",
      target: { type: "person", id: personId },
      details: { email: person.email, from: membership.role, to: role },
    });
  }
  return { id: person.id, email: person.email, name: person.name, role, joined_at: membership.joinedAt };
}

/** Removes the member: their sessions looking at this workspace end and the keys they made here are revoked. */
export async function removeMember(dir: Database, w: WorkspaceDb, caller: Caller, personId: number): Promise<void> {
  const { membership, person } = await memberOrNotFound(dir, w.workspaceId, personId);
  if (membership.role === "owner") {
    mayTouchOwners(caller, "remove an owner");
    await keepAnOwner(dir, w.workspaceId, "removed");
  }
  if (!(await removeUnlessLastOwner(dir, w.workspaceId, personId))) throw lastOwner("removed");
  await recordAudit(w, {
    actor: caller.actor,
    action: "member.removed",
    target: { type: "person", id: personId },
    details: { email: person.email, role: membership.role },
  });
}
