// The console's sign-in form is a second door for API keys: its failures count against the client's address
// exactly like the API's (docs/api.md, "Rate limit"), so guessing keys there is limited too. Driven through
// the Worker's own fetch handler, with the form's real nonce cookie and CSRF token.
import { beforeAll, describe, expect, it } from "vitest";
import { callJson, createTestWorkspace, type TestWorkspace } from "../helpers/api";
import { type FormSession, postForm, signInForm } from "../helpers/console-client";

const FAILURES_PER_MINUTE = 30; // wrangler.toml AUTH_FAILURE_LIMITER
const WINDOW_MS = 60_000;
const randomKey = () => `tw_live_${crypto.randomUUID().replaceAll("-", "")}xxxxxxxx`;

let ws: TestWorkspace;
beforeAll(async () => {
  ws = await createTestWorkspace("console sign-in limit");
});

const signIn = (form: FormSession, key: string, address: string) =>
  postForm("/app/sign-in", form, { api_key: key, next: "/app/posts" }, address);

/** Miniflare's limiter counts in wall-clock windows: a run straddling a boundary starts again from a fresh count. */
async function inOneWindow(run: (attempt: number) => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const window = Math.floor(Date.now() / WINDOW_MS);
    try {
      await run(attempt);
      return;
    } catch (err) {
      if (Math.floor(Date.now() / WINDOW_MS) === window || attempt === 3) throw err;
    }
  }
}

describe("console sign-in and the limit of failed authentications per address", () => {
  it("refuses sign-in with 429 after the address's limit of failures, the same bucket as the API's", async () => {
    const form = await signInForm();
    await inOneWindow(async (attempt) => {
      const address = `203.0.113.${200 + attempt}`;
      const statuses = await Promise.all(
        Array.from({ length: FAILURES_PER_MINUTE }, async () => (await signIn(form, randomKey(), address)).status),
      );
      expect(statuses).toEqual(Array(FAILURES_PER_MINUTE).fill(401));

      const limited = await signIn(form, randomKey(), address);
      expect(limited.status).toBe(429);
      expect(limited.headers.get("retry-after")).toBe("60");
      expect(await limited.text()).toContain("too many requests without a valid API key from this address");
      // One bucket for both doors: the API refuses the address too.
      const api = await callJson("/api/v1/keywords", { key: randomKey(), headers: { "cf-connecting-ip": address } });
      expect([api.status, api.body.error.code]).toEqual([429, "rate_limited"]);
      // A valid key from that address still signs in: only failures are limited.
      const valid = await signIn(form, ws.writeKey, address);
      expect([valid.status, valid.headers.get("location")]).toEqual([303, "/app/posts"]);
    });
  });
});
