// A persona's forum cookies at rest: sealed with AES-GCM under SESSION_KEY, bound to the workspace and the
// username (src/lib/sealing.ts). Plain cookies exist only in memory for one browser operation.
import type { WorkspaceDb } from "../db/client";
import type { PersonaRow } from "../db/personas";
import type { Env } from "../env";
import { openSession, sealSession } from "../lib/sealing";
import type { StoredCookie } from "./cookies";

const owner = (workspaceId: number, username: string) => `workspace:${workspaceId}:user:${username.toLowerCase()}`;

export function sealPersonaCookies(
  env: Pick<Env, "SESSION_KEY">,
  w: WorkspaceDb,
  username: string,
  cookies: StoredCookie[],
): Promise<string> {
  return sealSession(env.SESSION_KEY, owner(w.workspaceId, username), JSON.stringify(cookies));
}

/** The persona's cookies; a SessionKeyError (wrong or rotated key, damaged record) says what to do. */
export async function openPersonaCookies(
  env: Pick<Env, "SESSION_KEY">,
  w: WorkspaceDb,
  persona: PersonaRow,
): Promise<StoredCookie[]> {
  const plain = await openSession(env.SESSION_KEY, owner(w.workspaceId, persona.username), persona.sessionCiphertext);
  return JSON.parse(plain) as StoredCookie[];
}
