// Personas of a workspace (docs/publishing.md, "Personas"). The session ciphertext is read only by the persona service,
// which decrypts it for a browser operation; serializePersona never includes it.
import { and, asc, desc, eq } from "drizzle-orm";
import { isUniqueViolation, nowIso, type WorkspaceDb } from "./client";
import { personas } from "./schema";

export type PersonaRow = typeof personas.$inferSelect;

export function serializePersona(row: PersonaRow) {
  return {
    id: row.id,
    username: row.username,
    active: row.active,
    auth_completed: row.authCompleted,
    browser_ready: row.browserReady,
    approved: row.approved,
    last_checked_at: row.lastCheckedAt,
    last_error: row.lastError,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

export type PersonaView = ReturnType<typeof serializePersona>;

const inWorkspace = (w: WorkspaceDb, id: number) => and(eq(personas.workspaceId, w.workspaceId), eq(personas.id, id));

/** `undefined`: the username is already taken in the workspace (case-insensitively). */
export async function insertPersona(
  w: WorkspaceDb,
  values: { username: string; sessionCiphertext: string },
): Promise<PersonaRow | undefined> {
  try {
    return await w.db
      .insert(personas)
      .values({ workspaceId: w.workspaceId, ...values })
      .returning()
      .get();
  } catch (err) {
    if (isUniqueViolation(err)) return undefined;
    throw err;
  }
}

export async function getPersonaRow(w: WorkspaceDb, id: number): Promise<PersonaRow | undefined> {
  return w.db.select().from(personas).where(inWorkspace(w, id)).get();
}

export async function listPersonaRows(w: WorkspaceDb): Promise<PersonaRow[]> {
  return w.db.select().from(personas).where(eq(personas.workspaceId, w.workspaceId)).orderBy(asc(personas.id)).all();
}

/** `undefined`: no such persona in the workspace, or (with `session`) its session is no longer that one. */
export async function updatePersona(
  w: WorkspaceDb,
  id: number,
  fields: Partial<
    Pick<
      PersonaRow,
      "active" | "authCompleted" | "browserReady" | "approved" | "sessionCiphertext" | "lastCheckedAt" | "lastError"
    >
  >,
  only: { session?: string } = {},
): Promise<PersonaRow | undefined> {
  return w.db
    .update(personas)
    .set({ ...fields, updatedAt: nowIso() })
    .where(
      and(inWorkspace(w, id), only.session === undefined ? undefined : eq(personas.sessionCiphertext, only.session)),
    )
    .returning()
    .get();
}

/**
 * The persona chosen when a config names none (docs/publishing.md, "Personas"): an active, auth-completed,
 * browser-ready one, approved ones first, then the most recently checked.
 */
export async function findReadyPersona(w: WorkspaceDb): Promise<PersonaRow | undefined> {
  return w.db
    .select()
    .from(personas)
    .where(
      and(
        eq(personas.workspaceId, w.workspaceId),
        eq(personas.active, true),
        eq(personas.authCompleted, true),
        eq(personas.browserReady, true),
      ),
    )
    .orderBy(desc(personas.approved), desc(personas.lastCheckedAt), asc(personas.id))
    .get();
}
