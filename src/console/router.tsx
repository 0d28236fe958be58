// The web console under /app (docs/console.md): server-rendered pages over the same services as /api/v1.
import { type Handler, Hono } from "hono";
import { ApiError } from "../errors";
import { DomainError } from "../lib/domain-errors";
import { log } from "../lib/log";
import { SCRIPT, STYLESHEET } from "./assets";
import {
  type ConsoleContext,
  type ConsoleEnv,
  requireConsoleAccess,
  requireSession,
  securityHeaders,
  withSigningKey,
} from "./context";
import { Page } from "./layout";
import { accountSettingsPage, changePasswordForm, revokeSessionForm, switchWorkspaceForm } from "./pages/account";
import { insightsPage } from "./pages/insights";
import { auditSettingsPage, changeRoleForm, inviteForm, membersSettingsPage, removeMemberForm } from "./pages/members";
import {
  addPasskey,
  passkeyRegistrationOptions,
  passkeySignIn,
  passkeySignInOptions,
  removePasskey,
} from "./pages/passkeys";
import { checkFromConsole, connectFromConsole, deleteFromConsole, personasListPage } from "./pages/personas";
import { inboxPage, triageComment, triagePost } from "./pages/posts";
import { approveItem, editItem, reviewItemPage } from "./pages/review";
import { apiSettingsPage, createApiKey, revokeApiKey } from "./pages/settings";
import { signIn, signInPage, signOut } from "./pages/sign-in";
import { acceptInvitationForm, invitationForm, signInWithPasswordForm } from "./pages/sign-in-person";
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

type Guarded = (method: "get" | "post", path: string, handler: Handler<ConsoleEnv>) => unknown;

/** The inbox (posts and comments, triaged) and Insights. */
function inboxRoutes(guarded: Guarded) {
  guarded("get", "/posts", inboxPage);
  guarded("post", "/posts/:id", triagePost);
  guarded("post", "/comments/:id", triageComment);
  guarded("get", "/insights", insightsPage);
}

/** The Personas page: connect, check, delete. */
function personasRoutes(guarded: Guarded) {
  guarded("get", "/personas", personasListPage);
  guarded("post", "/personas/connect", connectFromConsole);
  guarded("post", "/personas/:id/check", checkFromConsole);
  guarded("post", "/personas/:id/delete", deleteFromConsole);
}

/** Settings › API, Account, Members and Audit, and the workspace switch. */
function settingsRoutes(guarded: Guarded) {
  guarded("get", "/settings/api", apiSettingsPage);
  guarded("post", "/settings/api/keys", createApiKey);
  guarded("post", "/settings/api/keys/:key_id/revoke", revokeApiKey);
  guarded("post", "/workspace", switchWorkspaceForm);
  guarded("get", "/settings/account", accountSettingsPage);
  guarded("post", "/settings/account/password", changePasswordForm);
  guarded("post", "/settings/account/sessions/:session_id/revoke", revokeSessionForm);
  guarded("post", "/settings/account/passkeys/options", passkeyRegistrationOptions);
  guarded("post", "/settings/account/passkeys", addPasskey);
  guarded("post", "/settings/account/passkeys/:passkey_id/delete", removePasskey);
  guarded("get", "/settings/members", membersSettingsPage);
  guarded("post", "/settings/members/invitations", inviteForm);
  guarded("post", "/settings/members/:person_id", changeRoleForm);
  guarded("post", "/settings/members/:person_id/delete", removeMemberForm);
  guarded("get", "/settings/audit", auditSettingsPage);
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
  app.post("/sign-in/password", signInWithPasswordForm);
  app.post("/sign-in/passkey/options", passkeySignInOptions);
  app.post("/sign-in/passkey", passkeySignIn);
  app.get("/invitations/:token", invitationForm);
  app.post("/invitations/:token", acceptInvitationForm);

  app.use("*", requireSession);
  // Every action behind sign-in is in the roles table (src/auth/roles.ts), checked before its handler.
  const guarded = (method: "get" | "post", path: string, handler: Handler<ConsoleEnv>) =>
    app.on(method.toUpperCase(), path, requireConsoleAccess(method, path), handler);
  guarded("post", "/sign-out", signOut);
  inboxRoutes(guarded);
  guarded("get", "/keywords", keywordsPage);
  guarded("post", "/keywords", addKeyword);
  guarded("post", "/keywords/:id", editKeyword);
  guarded("post", "/keywords/:id/delete", removeKeyword);
  guarded("get", "/competitors", competitorsPage);
  guarded("post", "/competitors", addCompetitor);
  guarded("post", "/competitors/:id", editCompetitor);
  guarded("post", "/competitors/:id/delete", removeCompetitor);
  guarded("get", "/syncs", syncsPage);
  guarded("post", "/syncs", createSync);
  guarded("get", "/syncs/:id", syncPage);
  guarded("post", "/syncs/:id", updateSync);
  guarded("post", "/syncs/:id/dry-run", dryRunSync);
  guarded("post", "/syncs/:id/run", runSyncNow);
  guarded("get", "/syncs/:id/items/:item_id", reviewItemPage);
  guarded("post", "/syncs/:id/items/:item_id/approve", approveItem);
  guarded("post", "/syncs/:id/items/:item_id/edit", editItem);
  personasRoutes(guarded);
  settingsRoutes(guarded);

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
    const refused =
      (err instanceof DomainError && err.kind === "forbidden") || (err instanceof ApiError && err.code === "forbidden");
    if (refused) return c.html(errorPage("Forbidden", `Forbidden: ${err.message}.`), 403);
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
