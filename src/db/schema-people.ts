import { sql } from "drizzle-orm";
import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

// People, memberships, invitations, console sessions of people, passkeys and sign-in failures live in the
// directory (like workspaces and keys: a person is looked up before a workspace is known); audit events
// in the workspace's database. Migrations 0077 and 0078 make them; docs/storage.md lists what each holds.

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;
const roleEnum = { enum: ["owner", "admin", "member", "viewer"] as const };

export const people = sqliteTable("people", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  email: text("email").notNull(),
  name: text("name").notNull(),
  passwordHash: text("password_hash"),
  passwordSalt: text("password_salt"),
  passwordIterations: integer("password_iterations"),
  createdAt: text("created_at").notNull().default(now),
});

export const memberships = sqliteTable(
  "memberships",
  {
    workspaceId: integer("workspace_id").notNull(),
    personId: integer("person_id").notNull(),
    role: text("role", roleEnum).notNull(),
    joinedAt: text("joined_at").notNull().default(now),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.personId] })],
);

export const invitations = sqliteTable("invitations", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  workspaceId: integer("workspace_id").notNull(),
  email: text("email").notNull(),
  role: text("role", roleEnum).notNull(),
  tokenHash: text("token_hash").notNull(),
  createdAt: text("created_at").notNull().default(now),
  expiresAt: text("expires_at").notNull(),
  usedAt: text("used_at"),
  usedBy: integer("used_by"),
});

export const personSessions = sqliteTable("person_sessions", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  tokenHash: text("token_hash").notNull(),
  personId: integer("person_id").notNull(),
  workspaceId: integer("workspace_id").notNull(),
  method: text("method", { enum: ["password", "passkey", "invitation"] }).notNull(),
  userAgent: text("user_agent"),
  createdAt: text("created_at").notNull().default(now),
  lastSeenAt: text("last_seen_at"),
  expiresAt: text("expires_at").notNull(),
  revokedAt: text("revoked_at"),
});

export const passkeys = sqliteTable("passkeys", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  personId: integer("person_id").notNull(),
  credentialId: text("credential_id").notNull(),
  publicKey: text("public_key").notNull(),
  counter: integer("counter").notNull().default(0),
  transports: text("transports", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
  name: text("name").notNull(),
  createdAt: text("created_at").notNull().default(now),
  lastUsedAt: text("last_used_at"),
});

export const passkeyChallenges = sqliteTable("passkey_challenges", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  challenge: text("challenge").notNull(),
  purpose: text("purpose", { enum: ["register", "sign_in"] }).notNull(),
  personId: integer("person_id"),
  expiresAt: text("expires_at").notNull(),
  usedAt: text("used_at"),
});

export const signInFailures = sqliteTable("sign_in_failures", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  bucket: text("bucket").notNull(),
  at: text("at").notNull(),
});

export const auditEvents = sqliteTable("audit_events", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  workspaceId: integer("workspace_id").notNull(),
  at: text("at").notNull(),
  actorType: text("actor_type", { enum: ["person", "key", "admin", "system"] }).notNull(),
  actorId: text("actor_id"),
  actorName: text("actor_name"),
  action: text("action").notNull(),
  targetType: text("target_type").notNull(),
  targetId: text("target_id"),
  details: text("details", { mode: "json" }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
});
