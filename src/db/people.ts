// People and their memberships, in the directory (docs/storage.md, "People"). Emails are stored trimmed
// and lower-cased; a person's password is stored as its PBKDF2 hash, salt and iteration count only.
import { and, asc, eq } from "drizzle-orm";
import type { Role } from "../lib/role";
import type { Database } from "./client";
import { workspaces } from "./schema";
import { memberships, people } from "./schema-people";

export type PersonRow = typeof people.$inferSelect;

export const normalEmail = (email: string) => email.trim().toLowerCase();

export const findPersonByEmail = (db: Database, email: string) =>
  db
    .select()
    .from(people)
    .where(eq(people.email, normalEmail(email)))
    .get();

export const findPerson = (db: Database, id: number) => db.select().from(people).where(eq(people.id, id)).get();

export interface PasswordRecord {
  passwordHash: string;
  passwordSalt: string;
  passwordIterations: number;
}

export const insertPerson = (db: Database, input: { email: string; name: string } & PasswordRecord) =>
  db
    .insert(people)
    .values({ ...input, email: normalEmail(input.email) })
    .returning()
    .get();

export const setPassword = (db: Database, personId: number, password: PasswordRecord) =>
  db.update(people).set(password).where(eq(people.id, personId));

export const membershipOf = (db: Database, workspaceId: number, personId: number) =>
  db
    .select()
    .from(memberships)
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.personId, personId)))
    .get();

/** The workspaces a person belongs to, with the role in each, by workspace id. */
export const workspacesOf = (db: Database, personId: number) =>
  db
    .select({ workspaceId: memberships.workspaceId, role: memberships.role, name: workspaces.name })
    .from(memberships)
    .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
    .where(eq(memberships.personId, personId))
    .orderBy(asc(memberships.workspaceId))
    .all();

export interface MemberView {
  id: number;
  email: string;
  name: string;
  role: Role;
  joined_at: string;
}

export async function listMembers(db: Database, workspaceId: number): Promise<MemberView[]> {
  return db
    .select({
      id: people.id,
      email: people.email,
      name: people.name,
      role: memberships.role,
      joined_at: memberships.joinedAt,
    })
    .from(memberships)
    .innerJoin(people, eq(people.id, memberships.personId))
    .where(eq(memberships.workspaceId, workspaceId))
    .orderBy(asc(memberships.joinedAt), asc(people.id))
    .all();
}

export const insertMembership = (db: Database, workspaceId: number, personId: number, role: Role) =>
  db.insert(memberships).values({ workspaceId, personId, role });

export const setMembershipRole = (db: Database, workspaceId: number, personId: number, role: Role) =>
  db
    .update(memberships)
    .set({ role })
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.personId, personId)));

export const deleteMembership = (db: Database, workspaceId: number, personId: number) =>
  db.delete(memberships).where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.personId, personId)));

export async function ownerCount(db: Database, workspaceId: number): Promise<number> {
  const rows = await db
    .select({ id: memberships.personId })
    .from(memberships)
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.role, "owner")))
    .all();
  return rows.length;
}
