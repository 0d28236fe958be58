// The web console under /app (docs/console.md): server-rendered pages over the same services as /api/v1.
import { Hono } from "hono";
import { ApiError } from "../errors";
import { DomainError } from "../lib/domain-errors";
import { log } from "../lib/log";
import { SCRIPT, STYLESHEET } from "./assets";
import {
  type ConsoleContext,
  type ConsoleEnv,
  requireSession,
  requireWrite,
  securityHeaders,
  withSigningKey,
} from "./context";
import { Page } from "./layout";
import { insightsPage } from "./pages/insights";
import { checkFromConsole, connectFromConsole, deleteFromConsole, personasListPage } from "./pages/personas";
import { inboxPage, triageComment, triagePost } from "./pages/posts";
import { approveItem, editItem, reviewItemPage } from "./pages/review";
import { apiSettingsPage, createApiKey, revokeApiKey } from "./pages/settings";
import { signIn, signInPage, signOut } from "./pages/sign-in";
import { createSync, dryRunSync, runSyncNow, syncPage, syncsPage, updateSync } from "./pages/syncs";
import {
  addCompetitor,
  addKeyword,
  competitorsPage,
  editCompetitor,
  editKeyword,
  keywordsPage,
  removeCompetitor,
  removeKeyword,
} from "./pages/tracking";

function errorPage(title: string, message: string, requestId?: string) {
  return (
    <Page title={title}>
      <p>{message}</p>
      {requestId ? <p class="meta">{`Request id: ${requestId}`}</p> : null}
      <p>
        <a href="/app/posts">Back to the inbox</a>
      </p>
    </Page>
  );
}

export function createConsoleRouter() {
  const app = new Hono<ConsoleEnv>();
  app.use("*", securityHeaders);

  const asset =
    (body: string, type: string) => (c: { body: (b: string, s: 200, h: Record<string, string>) => Response }) =>
      c.body(body, 200, { "content-type": type, "cache-control": "public, max-age=300" });
  app.get("/assets/console.css", asset(STYLESHEET, "text/css; charset=utf-8"));
  app.get("/assets/console.js", asset(SCRIPT, "text/javascript; charset=utf-8"));

  app.use("*", withSigningKey);
  app.get("/", (c) => c.redirect("/app/posts", 303));
  app.get("/sign-in", signInPage);
  app.post("/sign-in", signIn);

  app.use("*", requireSession);
  app.post("/sign-out", signOut);
  app.use("*", requireWrite);
  app.get("/posts", inboxPage);
  app.post("/posts/:id", triagePost);
  app.post("/comments/:id", triageComment);
  app.get("/insights", insightsPage);
  app.get("/keywords", keywordsPage);
  app.post("/keywords", addKeyword);
  app.post("/keywords/:id", editKeyword);
  app.post("/keywords/:id/delete", removeKeyword);
  app.get("/competitors", competitorsPage);
  app.post("/competitors", addCompetitor);
  app.post("/competitors/:id", editCompetitor);
  app.post("/competitors/:id/delete", removeCompetitor);
  app.get("/syncs", syncsPage);
  app.post("/syncs", createSync);
  app.get("/syncs/:id", syncPage);
  app.post("/syncs/:id", updateSync);
  app.post("/syncs/:id/dry-run", dryRunSync);
  app.post("/syncs/:id/run", runSyncNow);
  app.get("/syncs/:id/items/:item_id", reviewItemPage);
  app.post("/syncs/:id/items/:item_id/approve", approveItem);
  app.post("/syncs/:id/items/:item_id/edit", editItem);
  app.get("/personas", personasListPage);
  app.post("/personas/connect", connectFromConsole);
  app.post("/personas/:id/check", checkFromConsole);
  app.post("/personas/:id/delete", deleteFromConsole);
  app.get("/settings/api", apiSettingsPage);
  app.post("/settings/api/keys", createApiKey);
  app.post("/settings/api/keys/:key_id/revoke", revokeApiKey);

  // A sub-app's notFound is not asked once it is mounted (the Worker's JSON 404 would answer), so the console
  // ends its own routes with a catch-all: a mistyped address is an HTML page, signed in or not.
  const noSuchPage = (c: ConsoleContext) =>
    c.html(errorPage("Not found", "There is no such page in the console."), 404);
  app.all("*", noSuchPage);
  app.notFound(noSuchPage);
  app.onError((err, c) => {
    const requestId = c.get("requestId");
    const notFound =
      (err instanceof DomainError && err.kind === "not_found") || (err instanceof ApiError && err.code === "not_found");
    if (notFound) return c.html(errorPage("Not found", `${err.message}.`), 404);
    log("error", "console: unexpected error", {
      request_id: requestId,
      method: c.req.method,
      path: c.req.path,
      error: err.message,
      stack: err.stack,
    });
    return c.html(
      errorPage(
        "Something went wrong",
        "An unexpected error occurred; quote the request id when reporting it.",
        requestId,
      ),
      500,
    );
  });
  return app;
}
