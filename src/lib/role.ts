// The four roles of a workspace's members, least first, and who did something (the audit trail's actor).
// Import-free: src/lib is a leaf. The table of what each role may do is src/auth/roles.ts.

export const ROLES = ["viewer", "member", "admin", "owner"] as const;
export type Role = (typeof ROLES)[number];

export const roleRank = (role: Role) => ROLES.indexOf(role);
export const atLeast = (role: Role, least: Role) => roleRank(role) >= roleRank(least);
/** The lower of two roles (a key's ceiling under its maker's role). */
export const lowerRole = (a: Role, b: Role): Role => (roleRank(a) <= roleRank(b) ? a : b);
export const isRole = (value: unknown): value is Role => ROLES.includes(value as Role);

/** Who did something, as the audit trail and an approval name them. */
export interface Actor {
  type: "person" | "key" | "admin" | "system";
  id: string | null;
  name: string;
}

export const ADMIN_ACTOR: Actor = { type: "admin", id: null, name: "admin API" };
export const SYSTEM_ACTOR: Actor = { type: "system", id: null, name: "threadwatch" };
