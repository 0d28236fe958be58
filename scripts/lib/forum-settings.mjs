// The forum settings `npm start` passes to the Worker (docs/commands.md, "start"): taken from this process's
// environment, and remembered in wrangler's local state directory (.wrangler/state/threadwatch-forum.json,
// git-ignored) so that a restart without them keeps talking to the same forum instead of silently falling
// back to the real one. A setting given again replaces the remembered one; an empty value forgets it.
import fs from "node:fs";
import path from "node:path";

export const FORUM_VARS = [
  "FORUM_BASE_URL",
  "REDDIT_AUTHORIZE_URL",
  "REDDIT_REDIRECT_URI",
  "REDDIT_CLIENT_ID",
  "REDDIT_CLIENT_SECRET",
  "REDDIT_USER_AGENT",
  "REDDIT_AUTH_URL",
  "REDDIT_API_BASE_URL",
  "VISIBILITY_CHECKS_S",
];

const SECRET = /SECRET|PASSWORD/;

/** The settings to pass: the remembered ones, overridden by those in `environment`; saved for next time. */
export function forumSettings(persistDir, environment = process.env) {
  const file = path.join(persistDir, "threadwatch-forum.json");
  let remembered = {};
  try {
    remembered = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    remembered = {};
  }
  const settings = { ...remembered };
  for (const name of FORUM_VARS) {
    if (environment[name] === undefined) continue;
    if (environment[name] === "") delete settings[name];
    else settings[name] = environment[name];
  }
  fs.mkdirSync(persistDir, { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
  const given = FORUM_VARS.filter((name) => environment[name] !== undefined);
  return { settings, file, fromEnvironment: given };
}

/** One line per setting for the start banner; secrets are named, never shown. */
export const describeSettings = (settings) =>
  Object.entries(settings).map(([name, value]) => `${name}=${SECRET.test(name) ? "(set)" : value}`);
