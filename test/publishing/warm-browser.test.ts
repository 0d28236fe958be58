// The workspace's warm browser when it is going away (docs/publishing.md, "A warm browser"), against the real
// Chromium of wrangler's local Browser Rendering: a browser that is closing still accepts the connection and
// then fails its first command, so the operation must start a fresh one; a browser that cannot start at all
// checked nothing about a persona (503 browser_unavailable, after one retry on a fresh one).

import { env } from "cloudflare:workers";
import puppeteer from "@cloudflare/puppeteer";
import { describe, expect, it } from "vitest";
import { closeBrowserSession, withForumPage } from "../../src/browser/forum-browser";
import { workspaceDb } from "../../src/db/client";
import { getPersonaRow } from "../../src/db/personas";
import { coordinatorFor } from "../../src/durable/workspace-coordinator";
import { callJson, callJsonWith, createTestWorkspace } from "../helpers/api";
import { newAccount, newPersona, PERSONAS } from "../helpers/forum";

/** A profile as a logged-out visitor opens it (the persona check's page). */
const profileOf = (username: string) => `${env.FORUM_BASE_URL}/user/${username}/about.json`;

/** A browser left open and disconnected, as an operation leaves the one the workspace keeps warm. */
async function leftOpen(): Promise<string> {
  const browser = await puppeteer.launch(env.BROWSER as unknown as Parameters<typeof puppeteer.launch>[0]);
  const sessionId = browser.sessionId();
  await browser.disconnect();
  return sessionId;
}

/** Browser Rendering at its limit: every request for a browser is refused, as the platform answers then. */
const refusingBrowser = {
  fetch: async () => new Response("Browser time limit exceeded for today", { status: 429 }),
} as unknown as typeof env.BROWSER;

describe("a warm browser that is going away", () => {
  // 0 ms: the close has only just been asked for; 100 ms: Chromium is shutting down.
  for (const delayMs of [0, 100]) {
    it(`an operation lent a browser that is closing does its work in a fresh one (${delayMs} ms in)`, async () => {
      const { username } = await newAccount();
      const warm = await leftOpen();
      const closing = closeBrowserSession(env.BROWSER, warm);
      if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
      let kept: string | null | undefined;
      const status = await withForumPage(
        env.BROWSER,
        {
          landingUrl: profileOf(username),
          reuse: {
            sessionId: warm,
            keepWarmMs: 20_000,
            keep: (sessionId) => {
              kept = sessionId;
            },
          },
        },
        async (session) => session.landing.status,
      );
      await closing;
      expect(status).toBe(200);
      expect(kept).toEqual(expect.any(String));
      expect(kept).not.toBe(warm);
      await closeBrowserSession(env.BROWSER, kept!);
    }, 60_000);
  }

  it("a persona check whose warm browser is closing still checks the persona, in a fresh browser", async () => {
    const ws = await createTestWorkspace();
    const { id } = await newPersona(ws, { check: true });
    const coordinator = coordinatorFor(env, ws.id);
    const warm = (await coordinator.browserStatus()).warm;
    expect(warm).toMatchObject({ sessionId: expect.any(String), lent: false });
    // What the coordinator does when the warm browser idles out, just as the next check is lent it.
    const closing = closeBrowserSession(env.BROWSER, warm!.sessionId);
    const res = await callJson(`${PERSONAS}/${id}/preflight`, { key: ws.writeKey, method: "POST" });
    await closing;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.checks).toEqual([
      { name: "grant", ok: true, reason: null },
      { name: "identity", ok: true, reason: null },
      { name: "scopes", ok: true, reason: null },
      { name: "visible", ok: true, reason: null },
    ]);
    expect(res.body.persona).toMatchObject({ auth_completed: true, browser_ready: true, last_error: null });
    const now = (await coordinator.browserStatus()).warm;
    expect(now).toMatchObject({ sessionId: expect.any(String), lent: false });
    expect(now!.sessionId).not.toBe(warm!.sessionId);
  }, 60_000);

  it("a browser that cannot start, twice, is 503 browser_unavailable and changes nothing about the persona", async () => {
    const ws = await createTestWorkspace();
    const { id } = await newPersona(ws, { check: true });
    const before = await getPersonaRow(workspaceDb(env, ws.id), id);
    expect(before).toMatchObject({ authCompleted: true, browserReady: true, lastError: null });
    let launches = 0;
    const counting = {
      fetch: async (...args: Parameters<typeof refusingBrowser.fetch>) => {
        launches++;
        return refusingBrowser.fetch(...args);
      },
    } as unknown as typeof env.BROWSER;
    // The warm browser the first check left cannot be reached through this binding either: a fresh launch is
    // tried, and tried once more.
    const res = await callJsonWith(
      `${PERSONAS}/${id}/preflight`,
      { BROWSER: counting },
      { key: ws.writeKey, method: "POST" },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(503);
    expect(res.body.error).toMatchObject({
      code: "browser_unavailable",
      message: expect.stringMatching(/the browser could not be started.*429/),
    });
    expect(res.res.headers.get("retry-after")).toBe("30");
    expect(launches).toBeGreaterThanOrEqual(2);
    expect(await getPersonaRow(workspaceDb(env, ws.id), id)).toEqual(before);
  }, 60_000);
});
