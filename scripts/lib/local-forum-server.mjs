// The local forum (test/fixtures/forum/serve.ts) for `npm run dev:forum`, `npm run docs:screenshots` and
// `npm run bench:publish`: its four origins (www: consent page and token endpoint, api: the OAuth host,
// site: the public site, upload: the upload host) on the four ports after `port` (0: any free ports), with
// a registered web-app client and a caller for its /__control steering API (on the www origin).
import path from "node:path";
import { ROOT } from "./paths.mjs";

/** The web-app client the dev forum registers (any other client id is accepted too). */
export const DEV_CLIENT = { client_id: "threadwatch-local", secret: "local-secret" };

/** Starts the forum on 127.0.0.1:`port`+1..+4 (www, api, site, upload); `onRequest` sees each request outside /__control. */
export async function serveLocalForum(port, { onRequest = () => {}, forum: forumOptions = {} } = {}) {
  const { startLocalForum } = await import(path.join(ROOT, "test", "fixtures", "forum", "serve.ts"));
  const forum = await startLocalForum({
    acceptAnyClient: true,
    clients: [DEV_CLIENT],
    ports: port === 0 ? {} : { www: port + 1, api: port + 2, site: port + 3, upload: port + 4 },
    onRequest: (origin, req, url) => onRequest(req, url, origin),
    ...forumOptions,
  });
  const control = (p, body) => forum.control(p, body);
  return { base: forum.origins.www, control, forum, origins: forum.origins, close: () => forum.close() };
}

/** The Worker's settings that point it at `origins` with the dev client (what dev:forum prints for npm start). */
export const workerVars = (origins) => ({
  REDDIT_CLIENT_ID: DEV_CLIENT.client_id,
  REDDIT_CLIENT_SECRET: DEV_CLIENT.secret,
  REDDIT_AUTHORIZE_URL: `${origins.www}/api/v1/authorize`,
  REDDIT_AUTH_URL: `${origins.www}/api/v1/access_token`,
  REDDIT_API_BASE_URL: origins.api,
  FORUM_BASE_URL: origins.site,
});
