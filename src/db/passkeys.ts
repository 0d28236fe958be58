// Passkeys (WebAuthn credentials) of people and the single-use challenges of their ceremonies.
import { and, desc, eq, gt, isNull } from "drizzle-orm";
import { type Database, nowIso } from "./client";
import { passkeyChallenges, passkeys } from "./schema-people";

export type PasskeyRow = typeof passkeys.$inferSelect;

export const listPasskeys = (db: Database, personId: number) =>
  db.select().from(passkeys).where(eq(passkeys.personId, personId)).orderBy(desc(passkeys.id)).all();

export const findPasskey = (db: Database, credentialId: string) =>
  db.select().from(passkeys).where(eq(passkeys.credentialId, credentialId)).get();

export const insertPasskey = (db: Database, row: typeof passkeys.$inferInsert) => db.insert(passkeys).values(row).run();

export const usePasskey = (db: Database, id: number, counter: number) =>
  db.update(passkeys).set({ counter, lastUsedAt: nowIso() }).where(eq(passkeys.id, id)).run();

export async function deletePasskey(db: Database, personId: number, id: number): Promise<boolean> {
  const row = await db
    .delete(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.personId, personId)))
    .returning({ id: passkeys.id })
    .get();
  return row !== undefined;
}

export const insertChallenge = (db: Database, row: typeof passkeyChallenges.$inferInsert) =>
  db.insert(passkeyChallenges).values(row).run();

/** Marks the challenge used, once: true when it was open, of this purpose (and person) and unexpired. */
export async function claimChallenge(
  db: Database,
  challenge: string,
  purpose: "register" | "sign_in",
  personId: number | null,
): Promise<boolean> {
  const at = nowIso();
  const row = await db
    .update(passkeyChallenges)
    .set({ usedAt: at })
    .where(
      and(
        eq(passkeyChallenges.challenge, challenge),
        eq(passkeyChallenges.purpose, purpose),
        personId === null ? isNull(passkeyChallenges.personId) : eq(passkeyChallenges.personId, personId),
        isNull(passkeyChallenges.usedAt),
        gt(passkeyChallenges.expiresAt, at),
      ),
    )
    .returning({ id: passkeyChallenges.id })
    .get();
  return row !== undefined;
}
