import { env } from "cloudflare:workers";
import { createHmac, timingSafeEqual } from "node:crypto";
import { vi } from "vitest";
import type { ReceivedDelivery, ReceiverOptions } from "../fixtures/receiver/webhook-receiver";
import { callJson } from "./api";

/** A receiver endpoint of its own on the fixture server (test/fixtures/handlers/50-webhook-receiver.ts). */
export function newReceiver(name: string) {
  const id = `${name}-${crypto.randomUUID().slice(0, 8)}`;
  const control = async (action: string, body?: unknown) => {
    const res = await fetch(`${env.FIXTURE_ORIGIN}/receiver-control/${id}/${action}`, {
      method: body === undefined && action === "deliveries" ? "GET" : "POST",
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return res.json();
  };
  return {
    url: `${env.FIXTURE_ORIGIN}/receiver/${id}`,
    configure: (options: ReceiverOptions) => control("configure", options),
    release: () => control("release", {}),
    deliveries: () => control("deliveries") as Promise<ReceivedDelivery[]>,
  };
}
export type Receiver = ReturnType<typeof newReceiver>;

export async function createWebhook(key: string, body: Record<string, unknown>) {
  const res = await callJson("/api/v1/actions/webhooks", { key, method: "POST", body });
  if (res.status !== 201) throw new Error(`webhook not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: number; secret: string; url: string; active: boolean };
}

export async function deliveriesOf(key: string, webhookId: number, query = "") {
  const res = await callJson(`/api/v1/actions/webhooks/${webhookId}/deliveries${query}`, { key });
  if (res.status !== 200) throw new Error(`deliveries: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { data: Record<string, any>[]; count: number; next_offset: number | null };
}

/** Polls until `check` stops throwing (the queue's consumer runs on its own). */
export const eventually = <T>(check: () => Promise<T>, timeout = 20_000) =>
  vi.waitFor(check, { timeout, interval: 100 });

/**
 * The receiver's check exactly as docs/alerts.md shows it (Node's crypto): parse `t` and `v1`, reject a
 * timestamp older than five minutes, recompute the HMAC over "<t>.<raw body>" and compare in constant time.
 */
export function verifyAsDocumented(rawBody: string, header: string, secret: string, now = Date.now()): boolean {
  const parts = Object.fromEntries(header.split(",").map((kv) => kv.split("=", 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(now / 1000 - t) > 300) return false;
  const expected = createHmac("sha256", secret).update(`${t}.${rawBody}`).digest("hex");
  const given = Buffer.from(parts.v1 ?? "", "utf8");
  return given.length === expected.length && timingSafeEqual(given, Buffer.from(expected, "utf8"));
}
