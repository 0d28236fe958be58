// `npm run dev:receiver -- --secret ...` (scripts/dev-receiver.mjs) as a person runs it: a delivery signed
// with the secret is answered 200 and printed "signature ok"; a bad signature is printed SIGNATURE BAD and
// answered 400 with the reason, as a careful receiver answers it (so the service's delivery log shows it).
import { type ChildProcess, spawn } from "node:child_process";
import { createHmac } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, ROOT } from "./run-script";

const SECRET = `whsec_${"ab".repeat(32)}`;
const BODY = JSON.stringify({ id: "evt_1", type: "webhook.test", created_at: "2026-12-01T00:00:00Z", data: {} });

const sign = (secret: string, body: string, t = Math.floor(Date.now() / 1000)) =>
  `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`;

/** Starts the receiver and resolves once it prints that it listens. */
async function startReceiver(args: string[]) {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [path.join(ROOT, "scripts", "dev-receiver.mjs"), "--port", String(port), ...args],
    {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let out = "";
  for (const stream of [child.stdout, child.stderr]) stream.on("data", (chunk) => (out += chunk));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", () => out.includes("webhook receiver on") && resolve());
    child.once("exit", (code) => reject(new Error(`dev:receiver exited (${code}):\n${out}`)));
  });
  const deliver = async (signature: string | undefined) => {
    const res = await fetch(`http://127.0.0.1:${port}/hook`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(signature ? { "threadwatch-signature": signature } : {}) },
      body: BODY,
    });
    const text = await res.text();
    // The line about this delivery is printed after the answer.
    await new Promise((resolve) => setTimeout(resolve, 100));
    return { status: res.status, text };
  };
  return { child, deliver, output: () => out };
}

const running: ChildProcess[] = [];
afterAll(() => {
  for (const child of running) child.kill("SIGTERM");
});

describe("npm run dev:receiver", () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver(["--secret", SECRET]);
    running.push(receiver.child);
  });

  it("answers a good signature 200", async () => {
    const res = await receiver.deliver(sign(SECRET, BODY));
    expect(res).toEqual({ status: 200, text: "ok" });
    expect(receiver.output()).toMatch(/→ 200 signature ok evt_1 webhook\.test/);
  });

  it("answers a bad signature, a missing one and a stale one 400 with the reason", async () => {
    const wrong = await receiver.deliver(sign(`whsec_${"cd".repeat(32)}`, BODY));
    expect(wrong.status).toBe(400);
    expect(wrong.text).toBe("signature refused: the signature does not match this secret (is --secret the webhook's?)");
    expect(receiver.output()).toMatch(/→ 400 SIGNATURE BAD \(the signature does not match this secret/);
    const missing = await receiver.deliver(undefined);
    expect(missing).toEqual({ status: 400, text: "signature refused: no threadwatch-signature header" });
    const stale = await receiver.deliver(sign(SECRET, BODY, Math.floor(Date.now() / 1000) - 360));
    expect(stale.status).toBe(400);
    expect(stale.text).toContain("more than 5 minutes");
  });

  it("without --secret checks nothing and answers 200", async () => {
    const plain = await startReceiver([]);
    running.push(plain.child);
    expect((await plain.deliver(undefined)).status).toBe(200);
  });
});
