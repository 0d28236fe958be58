#!/usr/bin/env node
// npm run dev:receiver [-- --port N] [--secret whsec_...] [--fail N] [--status S] [--delay MS]
// A local webhook receiver (test/fixtures/receiver/webhook-receiver.ts, the one the tests use) that prints
// every delivery it gets and, given the webhook's secret, checks its signature the way docs/alerts.md shows.
// Point a webhook of the local service at it to watch alerts arrive (`npm start` allows local addresses).
import { createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";
import { WebhookReceiver } from "../test/fixtures/receiver/webhook-receiver.ts";
import { integerOption, parseCommandLine, runMain } from "./lib/cli.mjs";

const USAGE = `usage: npm run dev:receiver [-- --port N] [--secret whsec_...] [--fail N] [--status S] [--delay MS]

  --port N       port to listen on (default 8792)
  --secret S     the webhook's signing secret: each delivery's signature is checked and the result printed;
                 a bad one is answered 400 (the delivery log shows it failed)
  --fail N       answer the first N deliveries with 500 (to watch retries)
  --status S     answer every other delivery with this status (default 200; 410 disables the webhook)
  --delay MS     wait this long before answering (over 10000: the service times out and retries)`;

/**
 * The receiver's check of docs/alerts.md (five minutes' tolerance, HMAC-SHA256 compared in constant time):
 * why the signature is refused, or undefined when it is good.
 */
function signatureProblem(rawBody, header, secret) {
  if (!header) return "no threadwatch-signature header";
  const parts = Object.fromEntries(header.split(",").map((kv) => kv.split("=", 2)));
  const t = Number(parts.t);
  if (!Number.isInteger(t)) return "the signature has no timestamp t=";
  if (Math.abs(Date.now() / 1000 - t) > 300) return "the signature's timestamp is more than 5 minutes away";
  const expected = createHmac("sha256", secret).update(`${t}.${rawBody}`).digest("hex");
  const given = Buffer.from(parts.v1 ?? "", "utf8");
  if (given.length === expected.length && timingSafeEqual(given, Buffer.from(expected, "utf8"))) return undefined;
  return "the signature does not match this secret (is --secret the webhook's?)";
}

function describe(body) {
  try {
    const event = JSON.parse(body);
    if (event.type === "post.created") {
      const p = event.data.post;
      return `${event.id} post.created [${p.priority}] r/${p.subreddit}: ${p.title}`;
    }
    if (event.text) return `slack: ${event.text}`;
    return `${event.id} ${event.type}`;
  } catch {
    return `(not JSON: ${body.slice(0, 80)})`;
  }
}

runMain(async () => {
  const { values } = parseCommandLine(process.argv.slice(2), {
    port: { type: "string", default: "8792" },
    secret: { type: "string" },
    fail: { type: "string", default: "0" },
    status: { type: "string", default: "200" },
    delay: { type: "string", default: "0" },
  });
  const port = integerOption("port", values.port, { min: 1, max: 65535 });
  const receiver = new WebhookReceiver();
  receiver.configure("dev", {
    failTimes: integerOption("fail", values.fail, { min: 0, max: 1000 }),
    status: integerOption("status", values.status, { min: 200, max: 599 }),
    delayMs: integerOption("delay", values.delay, { min: 0, max: 600_000 }),
    // A bad signature is refused with 400, as a careful receiver refuses it, so the service's delivery log
    // shows the mistake instead of a delivery.
    refuse: values.secret
      ? ({ headers, body }) => {
          const problem = signatureProblem(body, headers["threadwatch-signature"], values.secret);
          return problem && `signature refused: ${problem}`;
        }
      : undefined,
  });
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", `http://127.0.0.1:${port}`);
    if (req.method !== "POST") {
      res.writeHead(405, { allow: "POST" }).end("POST deliveries here");
      return;
    }
    const done = receiver.receive("dev", req, res, url.pathname);
    await done;
    const got = receiver.deliveries("dev").at(-1);
    if (!got) return;
    const problem = values.secret && signatureProblem(got.body, got.headers["threadwatch-signature"], values.secret);
    const check = values.secret ? (problem ? `SIGNATURE BAD (${problem})` : "signature ok") : "";
    console.log(`${new Date(got.receivedAt).toISOString()} → ${got.answered} ${check} ${describe(got.body)}`);
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  console.log(
    [
      `webhook receiver on http://127.0.0.1:${port}/ (Ctrl-C stops it)`,
      "Create a webhook of the local service pointing at it (low: every new post), then pass --secret to check signatures:",
      `  curl -s localhost:8787/api/v1/actions/webhooks -H "authorization: Bearer $KEY" -H 'content-type: application/json' \\`,
      `    -d '{"url": "http://127.0.0.1:${port}/hook", "min_priority": "low"}'`,
    ].join("\n"),
  );
  await new Promise((resolve) => {
    const stop = () => server.close(() => resolve());
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}, USAGE);
