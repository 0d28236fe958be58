// Signing deliveries the way Stripe signs webhooks (docs/alerts.md, "Signing (Stripe's scheme)"): for every attempt,
// the header `threadwatch-signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`. Pure: Web Crypto
// only, so tests and the docs' receiver recipe check the same thing.
import { toHex } from "../lib/crypto";

export const SIGNATURE_HEADER = "threadwatch-signature";
/** How old a signed timestamp a receiver should accept (docs/alerts.md). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** A new signing secret: `whsec_` and 32 random bytes in hex. */
export function newSigningSecret(): string {
  return `whsec_${toHex(crypto.getRandomValues(new Uint8Array(32)))}`;
}

async function hmacHex(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return toHex(new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(message))));
}

/** The header value for `body` signed at `timestampSeconds`. */
export async function signatureHeader(secret: string, body: string, timestampSeconds: number): Promise<string> {
  return `t=${timestampSeconds},v1=${await hmacHex(secret, `${timestampSeconds}.${body}`)}`;
}

export type VerifyResult = { ok: true; timestamp: number } | { ok: false; reason: string };

/**
 * What a receiver does (docs/alerts.md shows the same steps in Node): parse `t` and every `v1`, refuse a
 * timestamp further than the tolerance from now, recompute the HMAC and compare in constant time.
 */
export async function verifySignature(
  secret: string,
  body: string,
  header: string | null,
  nowSeconds = Math.floor(Date.now() / 1000),
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
): Promise<VerifyResult> {
  if (!header) return { ok: false, reason: "no signature header" };
  const parts = header.split(",").map((p) => p.trim().split("="));
  const t = Number(parts.find(([k]) => k === "t")?.[1]);
  const signatures = parts.filter(([k, v]) => k === "v1" && v).map(([, v]) => v!);
  if (!Number.isInteger(t) || signatures.length === 0) return { ok: false, reason: "malformed signature header" };
  if (Math.abs(nowSeconds - t) > toleranceSeconds) return { ok: false, reason: "timestamp outside the tolerance" };
  const expected = new TextEncoder().encode(await hmacHex(secret, `${t}.${body}`));
  for (const signature of signatures) {
    const given = new TextEncoder().encode(signature);
    if (given.byteLength === expected.byteLength && crypto.subtle.timingSafeEqual(given, expected))
      return { ok: true, timestamp: t };
  }
  return { ok: false, reason: "no signature matches" };
}
