// GET /oauth/forum/callback: where the forum sends a person back after its consent page (docs/publishing.md,
// "Connecting"). No key and no console session is needed: the state is the credential. The answer is a page
// in words: the account connected (with a link to the console), or why nothing was stored (400).
import type { Context } from "hono";
import { recordAudit } from "../../audit/events";
import { workspaceDb } from "../../db/client";
import type { AppEnv } from "../../http/hono-env";
import { completeConnection } from "../../personas/connect";
import { Notice, Page } from "../layout";

export async function forumCallback(c: Context<AppEnv>) {
  const q = c.req.query();
  const result = await completeConnection(c.env, { state: q.state, code: q.code, error: q.error });
  // The state names who started the connection (an API key or a console person), whom the trail names.
  if (result.ok)
    await recordAudit(workspaceDb(c.env, result.workspaceId), {
      actor: result.actor,
      action: "persona.connected",
      target: { type: "persona", id: result.personaId },
      details: { username: result.username, created: result.created },
    });
  const page = result.ok ? (
    <Page title="Account connected">
      <Notice kind="good">
        <p id="connected">{`u/${result.username} is connected to workspace ${result.workspaceId}.`}</p>
      </Notice>
      <p>
        {result.created
          ? "A new persona was made for it. Run its check (Check on the Personas page, or POST /actions/personas/:id/preflight) before publishing."
          : "Its persona's connection was replaced; the persona's other settings are kept."}
      </p>
      <p>
        <a href="/app/personas">Back to the console's Personas page</a>
      </p>
    </Page>
  ) : (
    <Page title="Nothing was connected">
      <Notice kind="bad">
        <p id="refused">{result.message}</p>
      </Notice>
      <p>
        <a href="/app/personas">The console's Personas page</a>
      </p>
    </Page>
  );
  const res = await c.html(page, result.ok ? 200 : 400);
  res.headers.set(
    "content-security-policy",
    "default-src 'none'; style-src 'self'; frame-ancestors 'none'; base-uri 'none'",
  );
  res.headers.set("cache-control", "no-store");
  res.headers.set("referrer-policy", "no-referrer");
  return res;
}
