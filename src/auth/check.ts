// The one API key check, used by the /api/v1 middleware (middleware.ts), by /mcp before any protocol
// work, and by the console's sign-in form (a pasted key instead of a header): read the header, find the key
// (the per-isolate cache, else D1), judge it, then count the request against the key's rate limit. Nothing
// of a workspace's data is read before the key is known to be live. A request that fails the check counts
// against its client address's limit of failures, so bad keys cannot buy work: past it, the answer
// is 429 instead of 401.
import { findKeyByHash, listLiveKeyHashes, type ResolvedKey, touchKey } from "../db/api-keys";
import { directoryDb } from "../db/client";
import type { Env } from "../env";
import { ApiError } from "../errors";
import { sha256Hex } from "../lib/crypto";
import { log, messageOf } from "../lib/log";
import { addressBucket } from "./address-bucket";
import { cachedKey, rememberKey } from "./key-cache";
import { type AuthContext, KEY_PATTERN } from "./keys";
import { isLimited, liveKeyDigests, markLimited } from "./limited-addresses";

/** How stale `last_used_at` may get before a request refreshes it (keeps writes off most requests). */
const LAST_USED_RESOLUTION_MS = 60_000;

type WaitUntil = { waitUntil(promise: Promise<unknown>): void };
type AuthEnv = Pick<Env, "DB" | "RATE_LIMITER" | "AUTH_FAILURE_LIMITER">;

export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header ?? "");
  return match?.[1];
}

/** What a request presents: its Authorization header and the client address Cloudflare saw. */
export interface Credentials {
  authorization: string | undefined;
  /** `cf-connecting-ip`; always set on Cloudflare's edge, absent only in local runs and tests. */
  clientAddress: string | undefined;
}

/**
 * Schemes other clients commonly send, the only words of a refused header an answer repeats: anything else
 * in that place may be the key itself (a header of just the key), and an answer is kept by proxies and logs,
 * so it names no part of what was sent (docs/security.md).
 */
const KNOWN_SCHEMES = new Set(["basic", "digest", "negotiate", "token", "apikey", "api-key", "oauth", "hoba"]);

/** Why no key could be read from the header, in words that say what to send instead. */
function missingKeyMessage(header: string | undefined): string {
  const given = header?.trim() ?? "";
  if (!given) return "missing API key: send Authorization: Bearer <key>";
  const words = given.split(/\s+/);
  const scheme = words[0]!;
  if (scheme.toLowerCase() !== "bearer") {
    if (KNOWN_SCHEMES.has(scheme.toLowerCase()))
      return `the Authorization header uses the ${scheme} scheme; send the API key as Authorization: Bearer <key>`;
    return "the Authorization header does not start with Bearer; send the API key as Authorization: Bearer <key>";
  }
  if (words.length > 2)
    return "the Authorization header has more than one word after Bearer; send the key alone, without spaces: Authorization: Bearer <key>";
  return "the Authorization header has no key after Bearer; send Authorization: Bearer <key>";
}

/** The key's digest from `Authorization: Bearer <key>`; 401 when the header is missing or not a key's shape. */
async function presentedDigest(header: string | undefined): Promise<string> {
  const token = bearerToken(header);
  if (!token) throw new ApiError("unauthorized", missingKeyMessage(header));
  if (!KEY_PATTERN.test(token)) throw new ApiError("unauthorized", "malformed API key");
  return sha256Hex(token);
}

/** The key's row: remembered by this isolate for a few seconds (key-cache.ts), else looked up in D1. */
async function lookUpKey(env: AuthEnv, digest: string, now: number): Promise<ResolvedKey | undefined> {
  const cached = cachedKey(digest, now);
  if (cached) return cached;
  const found = await findKeyByHash(directoryDb(env), digest);
  if (found) rememberKey(digest, found, now);
  return found;
}

/**
 * Judges a looked-up key at `at`: 401 for an unknown, revoked or expired one, else the caller. Refreshes
 * `last_used_at` off the hot path (the response does not wait for that write).
 */
export async function acceptKey(
  env: AuthEnv,
  key: ResolvedKey | undefined,
  at: Date,
  ctx: WaitUntil | undefined,
): Promise<AuthContext> {
  if (!key) throw new ApiError("unauthorized", "unknown API key");
  if (key.revokedAt) throw new ApiError("unauthorized", "API key has been revoked");
  if (key.expiresAt && new Date(key.expiresAt) <= at) throw new ApiError("unauthorized", "API key has expired");
  if (!key.lastUsedAt || at.getTime() - new Date(key.lastUsedAt).getTime() > LAST_USED_RESOLUTION_MS) {
    // The remembered row says so too, so the requests of the next minute do not write again.
    key.lastUsedAt = at.toISOString();
    const write = touchKey(directoryDb(env), key.keyId, key.lastUsedAt).catch((err: unknown) =>
      log("warn", "last_used_at update failed", { error: messageOf(err) }),
    );
    if (ctx) ctx.waitUntil(write);
    else await write;
  }
  return {
    keyId: key.keyId,
    workspaceId: key.workspaceId,
    scope: key.scope,
    role: key.role,
    personId: key.personId,
    actor: { type: "key", id: String(key.keyId), name: key.name },
  };
}

/** Counts one request against the key's own limit (the bucket is named by the key's digest); 429 past it. */
async function countAgainstKey(env: AuthEnv, digest: string): Promise<void> {
  const { success } = await env.RATE_LIMITER.limit({ key: `key:${digest}` });
  if (!success) {
    throw new ApiError("rate_limited", "rate limit reached for this API key; retry later", {
      headers: { "retry-after": "60" },
    });
  }
}

const addressLimited = () =>
  new ApiError("rate_limited", "too many requests without a valid API key from this address; retry later", {
    headers: { "retry-after": "60" },
  });

/**
 * Counts one failed authentication against the client's address (an IPv6 client by its /64); 429 past the
 * limit, and the address is marked in this isolate (limited-addresses.ts). A request without an address
 * (local runs only) is not counted.
 */
async function countFailure(env: AuthEnv, clientAddress: string | undefined, now: number): Promise<void> {
  if (!clientAddress) return;
  const bucket = addressBucket(clientAddress);
  if (isLimited(bucket, now)) throw addressLimited();
  const { success } = await env.AUTH_FAILURE_LIMITER.limit({ key: `addr:${bucket}` });
  if (!success) {
    markLimited(bucket, now);
    throw addressLimited();
  }
}

/**
 * From an address marked over its limit, a key that is neither remembered nor among the live keys is
 * refused before any per-request D1 lookup: a flood of random keys costs one read of the live digests per
 * few seconds, not one lookup each.
 */
async function refuseUnknownFromLimited(
  env: AuthEnv,
  clientAddress: string | undefined,
  digest: string,
  now: number,
): Promise<void> {
  if (!clientAddress || !isLimited(addressBucket(clientAddress), now) || cachedKey(digest, now)) return;
  const live = await liveKeyDigests(() => listLiveKeyHashes(directoryDb(env)), now);
  if (!live.has(digest)) throw addressLimited();
}

/**
 * Resolves the request's key to its caller, or throws 401 (429 when its address has failed too often).
 * `countRequest: false` leaves the key's rate limit alone (the console's sign-in). `/mcp` counts each of its
 * requests here, before any protocol work, and the REST request a tool call dispatches is not counted again
 * (docs/mcp.md).
 */
export function authenticate(
  env: AuthEnv,
  credentials: Credentials,
  options: { countRequest: boolean },
  ctx?: WaitUntil,
): Promise<AuthContext> {
  return judgeKey(env, () => presentedDigest(credentials.authorization), credentials.clientAddress, options, ctx);
}

/**
 * The console's sign-in: a key a person pasted into the form, judged exactly like a request's bearer key,
 * its failure (malformed, unknown, revoked, expired) counted against the client's address, so the sign-in
 * form is no way around the limit of failures (429 past it). Console requests do not count against the
 * key's own rate limit (README), so neither does the sign-in.
 */
export function authenticatePastedKey(
  env: AuthEnv,
  key: string,
  clientAddress: string | undefined,
  ctx?: WaitUntil,
): Promise<AuthContext> {
  const digest = async () => {
    if (!KEY_PATTERN.test(key)) throw new ApiError("unauthorized", "malformed API key");
    return sha256Hex(key);
  };
  return judgeKey(env, digest, clientAddress, { countRequest: false }, ctx);
}

async function judgeKey(
  env: AuthEnv,
  digestOf: () => Promise<string>,
  clientAddress: string | undefined,
  options: { countRequest: boolean },
  ctx: WaitUntil | undefined,
): Promise<AuthContext> {
  const at = new Date();
  let auth: AuthContext;
  let digest: string;
  try {
    digest = await digestOf();
    await refuseUnknownFromLimited(env, clientAddress, digest, at.getTime());
    auth = await acceptKey(env, await lookUpKey(env, digest, at.getTime()), at, ctx);
  } catch (err) {
    if (err instanceof ApiError && err.code === "unauthorized") await countFailure(env, clientAddress, at.getTime());
    throw err;
  }
  if (options.countRequest) await countAgainstKey(env, digest);
  return auth;
}
