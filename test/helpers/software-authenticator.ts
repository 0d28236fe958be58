// A passkey authenticator in software, from WebCrypto: an ES256 (P-256) key pair and the WebAuthn bytes a
// browser would send for it (a "none" attestation at registration, a signed assertion at sign-in), so the
// console's passkey doors can be driven from workers tests without a browser. Only the outside world (the
// person's device) is played here; the console verifies what it gets with its own library.

const encoder = new TextEncoder();

export const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

const sha256 = async (bytes: Uint8Array) => new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));

/** The CBOR head of a major type and its argument (RFC 8949, 3). */
function head(major: number, n: number): Uint8Array {
  if (n < 24) return Uint8Array.of((major << 5) | n);
  if (n < 256) return Uint8Array.of((major << 5) | 24, n);
  return Uint8Array.of((major << 5) | 25, n >> 8, n & 255);
}

type Cbor = number | string | Uint8Array | Map<number | string, Cbor>;

/** The few CBOR shapes WebAuthn needs: small integers, text, bytes and maps. */
function cbor(value: Cbor): Uint8Array {
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === "string") {
    const bytes = encoder.encode(value);
    return concat(head(3, bytes.length), bytes);
  }
  if (value instanceof Uint8Array) return concat(head(2, value.length), value);
  return concat(head(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)]));
}

/** An ECDSA signature as WebCrypto gives it (r || s) in the DER form WebAuthn carries. */
function toDer(raw: Uint8Array): Uint8Array {
  const int = (bytes: Uint8Array) => {
    let i = 0;
    while (i < bytes.length - 1 && bytes[i] === 0) i++;
    const trimmed = bytes.slice(i);
    const body = trimmed[0]! & 0x80 ? concat(Uint8Array.of(0), trimmed) : trimmed;
    return concat(Uint8Array.of(0x02, body.length), body);
  };
  const seq = concat(int(raw.slice(0, 32)), int(raw.slice(32)));
  return concat(Uint8Array.of(0x30, seq.length), seq);
}

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

export class SoftwareAuthenticator {
  private counter = 0;
  readonly credentialId = crypto.getRandomValues(new Uint8Array(16));

  private constructor(
    private readonly keys: CryptoKeyPair,
    private readonly origin: string,
  ) {}

  static async create(origin: string): Promise<SoftwareAuthenticator> {
    const keys = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
      "sign",
      "verify",
    ])) as CryptoKeyPair;
    return new SoftwareAuthenticator(keys, origin);
  }

  get id() {
    return base64url(this.credentialId);
  }

  private clientData(type: "webauthn.create" | "webauthn.get", challenge: string, origin = this.origin) {
    return encoder.encode(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  private async authData(rpId: string, flags: number, attested?: Uint8Array) {
    this.counter += 1;
    const count = Uint8Array.of(
      this.counter >>> 24,
      (this.counter >>> 16) & 255,
      (this.counter >>> 8) & 255,
      this.counter & 255,
    );
    return concat(await sha256(encoder.encode(rpId)), Uint8Array.of(flags), count, attested ?? new Uint8Array(0));
  }

  /** What `navigator.credentials.create()` answers (as `toJSON()`), for the console's registration options. */
  async register(options: { challenge: string; rp: { id: string }; user: { id: string } }) {
    const jwk = (await crypto.subtle.exportKey("jwk", this.keys.publicKey)) as JsonWebKey;
    const fromB64 = (s: string) =>
      Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
    const cose = cbor(
      new Map<number, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, fromB64(jwk.x!)],
        [-3, fromB64(jwk.y!)],
      ]),
    );
    const attested = concat(new Uint8Array(16), Uint8Array.of(0, this.credentialId.length), this.credentialId, cose);
    const authData = await this.authData(options.rp.id, FLAG_UP | FLAG_UV | FLAG_AT, attested);
    const attestationObject = cbor(
      new Map<string, Cbor>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", authData],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON: base64url(this.clientData("webauthn.create", options.challenge)),
        attestationObject: base64url(attestationObject),
        transports: ["internal"],
      },
      clientExtensionResults: {},
    };
  }

  /**
   * What `navigator.credentials.get()` answers (as `toJSON()`), for the console's sign-in options; `origin`
   * is the page that asked, as the browser reports it (a look-alike site's, in a phishing attempt).
   */
  async assert(options: { challenge: string; rpId: string }, origin = this.origin) {
    const authData = await this.authData(options.rpId, FLAG_UP | FLAG_UV);
    const clientData = this.clientData("webauthn.get", options.challenge, origin);
    const signed = concat(authData, await sha256(clientData));
    const raw = new Uint8Array(
      await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, this.keys.privateKey, signed),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON: base64url(clientData),
        authenticatorData: base64url(authData),
        signature: base64url(toDer(raw)),
      },
      clientExtensionResults: {},
    };
  }
}
