/**
 * API key format (docs/api.md, "Authentication and scopes"): `tw_live_` + 40 base62 characters from crypto.getRandomValues.
 * Import-free on purpose: the seed script (Node, type stripping) imports this file directly.
 */
export const KEY_PREFIX = "tw_live_";
const KEY_BODY_LENGTH = 40;
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export const KEY_PATTERN = /^tw_live_[0-9A-Za-z]{32,128}$/;

export type KeyScope = "read" | "read_write";

import type { Actor, Role } from "../lib/role";

export type { Actor };

/**
 * The caller: an accepted key, or a person's console session (no key: `keyId` null, scope read_write).
 * What every /api/v1 handler reads from the context.
 */
export interface AuthContext {
  keyId: number | null;
  workspaceId: number;
  scope: KeyScope;
  /** The key's role ceiling, or the person's role in the workspace (src/auth/roles.ts). */
  role: Role;
  /** The person signed in, or who made the key (null for keys of the admin API, the seed and the demo). */
  personId: number | null;
  actor: Actor;
}

/** Whether the key may do what needs `scope`: a read_write key may do everything, a read key only read. */
export function hasScope(auth: AuthContext, scope: KeyScope): boolean {
  return scope !== "read_write" || auth.scope === "read_write";
}

export function generateApiKey(): string {
  // Rejection sampling keeps every base62 character equally likely (256 is not a multiple of 62).
  const out: string[] = [];
  while (out.length < KEY_BODY_LENGTH) {
    for (const byte of crypto.getRandomValues(new Uint8Array(64))) {
      if (byte < 248 && out.length < KEY_BODY_LENGTH) out.push(BASE62[byte % 62]!);
    }
  }
  return KEY_PREFIX + out.join("");
}

/** What is shown of a key after creation: the prefix and four characters. */
export const displayPrefix = (key: string) => key.slice(0, KEY_PREFIX.length + 4);
