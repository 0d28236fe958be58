// OAuth connections in progress (docs/security.md, "Connecting a forum account"). They live in the directory
// database (src/db/client.ts): the forum's callback carries no key, only the state, so its workspace is not
// known until the state is found. Stored is the SHA-256 of the state, never the state itself.
import { eq, lt } from "drizzle-orm";
import type { Actor } from "../lib/role";
import { type Database, nowIso } from "./client";
import { oauthStates } from "./schema";

export type OAuthStateRow = typeof oauthStates.$inferSelect;

export async function insertOAuthState(
  db: Database,
  values: { stateHash: string; workspaceId: number; redirectUri: string; expiresAt: string; actor: Actor },
): Promise<void> {
  // Expired states go as new ones are made: the table holds only connections that may still come back.
  await db.batch([
    db.delete(oauthStates).where(lt(oauthStates.expiresAt, nowIso())),
    db.insert(oauthStates).values({
      stateHash: values.stateHash,
      workspaceId: values.workspaceId,
      redirectUri: values.redirectUri,
      expiresAt: values.expiresAt,
      actorType: values.actor.type,
      actorId: values.actor.id,
      actorName: values.actor.name,
    }),
  ]);
}

/** Takes the state out (single use): the row it was, or undefined when it is unknown or already used. */
export async function consumeOAuthState(db: Database, stateHash: string): Promise<OAuthStateRow | undefined> {
  return db.delete(oauthStates).where(eq(oauthStates.stateHash, stateHash)).returning().get();
}

/** Who started the connection of a state taken out, or undefined for a state that names no one. */
export const starterOf = (row: OAuthStateRow): Actor | undefined =>
  row.actorType ? { type: row.actorType, id: row.actorId, name: row.actorName ?? "" } : undefined;
