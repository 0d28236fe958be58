// Passkeys (docs/security.md, "Signing in as a person") through SimpleWebAuthn's server library: registration by a
// signed-in person, sign-in with a discoverable credential. Each ceremony's challenge is stored and claimed
// once (five minutes); the relying party is the console's own host, and the origin must be the console's.
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import type { Database } from "../db/client";
import { claimChallenge, findPasskey, insertChallenge, insertPasskey, listPasskeys, usePasskey } from "../db/passkeys";
import { invalidInput } from "../lib/domain-errors";

const CHALLENGE_SECONDS = 300;
const RP_NAME = "threadwatch";

/** Where the ceremony happens: the console's origin and host. */
export interface RelyingParty {
  origin: string;
  rpID: string;
}

const expires = () => new Date(Date.now() + CHALLENGE_SECONDS * 1000).toISOString();
const refused = (message: string) => invalidInput([{ path: "body.credential", message }]);

const toBase64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
const fromBase64url = (text: string) =>
  Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (ch) => ch.charCodeAt(0));

export async function registrationOptions(
  dir: Database,
  rp: RelyingParty,
  person: { id: number; email: string; name: string },
) {
  const existing = await listPasskeys(dir, person.id);
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: rp.rpID,
    userName: person.email,
    userDisplayName: person.name,
    userID: new Uint8Array(new TextEncoder().encode(`person:${person.id}`).buffer as ArrayBuffer),
    attestationType: "none",
    excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
    authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
  });
  await insertChallenge(dir, {
    challenge: options.challenge,
    purpose: "register",
    personId: person.id,
    expiresAt: expires(),
  });
  return options;
}

export async function registerPasskey(
  dir: Database,
  rp: RelyingParty,
  personId: number,
  input: { response: unknown; name: string },
): Promise<void> {
  let claimed = false;
  const verification = await verifyRegistrationResponse({
    // biome-ignore lint/suspicious/noExplicitAny: the browser's JSON, checked by the library
    response: input.response as any,
    expectedChallenge: async (challenge) => (claimed = await claimChallenge(dir, challenge, "register", personId)),
    expectedOrigin: rp.origin,
    expectedRPID: rp.rpID,
    requireUserVerification: false,
  }).catch((err: Error) => {
    throw refused(claimed ? err.message : "this passkey ceremony has expired or was already used; try again");
  });
  if (!verification.verified || !verification.registrationInfo) throw refused("the passkey could not be verified");
  const { credential } = verification.registrationInfo;
  await insertPasskey(dir, {
    personId,
    credentialId: credential.id,
    publicKey: toBase64url(credential.publicKey),
    counter: credential.counter,
    transports: credential.transports ?? [],
    name: input.name.trim().slice(0, 100) || "Passkey",
  });
}

export async function signInOptions(dir: Database, rp: RelyingParty) {
  const options = await generateAuthenticationOptions({ rpID: rp.rpID, userVerification: "preferred" });
  await insertChallenge(dir, {
    challenge: options.challenge,
    purpose: "sign_in",
    personId: null,
    expiresAt: expires(),
  });
  return options;
}

/** The person a passkey assertion proves, or a refusal (unknown passkey, stale challenge, bad signature). */
export async function verifyPasskeySignIn(dir: Database, rp: RelyingParty, response: unknown): Promise<number> {
  const id = (response as { id?: unknown } | null)?.id;
  const passkey = typeof id === "string" ? await findPasskey(dir, id) : undefined;
  if (!passkey) throw refused("this passkey is not registered here");
  const verification = await verifyAuthenticationResponse({
    // biome-ignore lint/suspicious/noExplicitAny: the browser's JSON, checked by the library
    response: response as any,
    expectedChallenge: (challenge) => claimChallenge(dir, challenge, "sign_in", null),
    expectedOrigin: rp.origin,
    expectedRPID: rp.rpID,
    credential: {
      id: passkey.credentialId,
      publicKey: fromBase64url(passkey.publicKey),
      counter: passkey.counter,
      // biome-ignore lint/suspicious/noExplicitAny: stored as the browser gave them
      transports: passkey.transports as any,
    },
    requireUserVerification: false,
  }).catch(() => {
    throw refused("the passkey could not be verified");
  });
  if (!verification.verified) throw refused("the passkey could not be verified");
  await usePasskey(dir, passkey.id, verification.authenticationInfo.newCounter);
  return passkey.personId;
}
