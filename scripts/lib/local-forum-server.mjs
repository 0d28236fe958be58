// The local forum (test/fixtures/forum/serve.ts) for `npm run dev:forum`, `npm run docs:screenshots` and
// `npm run bench:publish`: its four origins (www: consent page and token endpoint, api: the OAuth host,
// site: the public site, upload: the upload host) on the ports after `port`, a registered web-app client,
// and on `port` itself the cookie-session forum the browser still publishes through
// (test/fixtures/forum/local-forum.ts), with a caller for each one's /__control steering API.
import http from "node:http";
import path from "node:path";
import { ROOT } from "./paths.mjs";

/** The web-app client the dev forum registers (any other client id is accepted too). */
export const DEV_CLIENT = { client_id: "threadwatch-local", secret: "local-secret" };

/**
 * Starts the cookie forum on 127.0.0.1:`port` and the OAuth forum on `port`+1..+4 (www, api, site,
 * upload); `onRequest` sees each request outside /__control.
 */
export async function serveLocalForum(port, { onRequest = () => {}, forum: forumOptions = {} } = {}) {
  const { createLocalForum } = await import(path.join(ROOT, "test", "fixtures", "forum", "local-forum.ts"));
  const { startLocalForum } = await import(path.join(ROOT, "test", "fixtures", "forum", "serve.ts"));
  const cookieForum = createLocalForum("");
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", `http://localhost:${port}`);
    if (!url.pathname.startsWith("/__control")) onRequest(req, url, "cookie");
    try {
      await cookieForum.handle(req, res, url);
    } catch (err) {
      res.writeHead(500).end(String(err));
    }
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  const forum = await startLocalForum({
    acceptAnyClient: true,
    clients: [DEV_CLIENT],
    ports: port === 0 ? {} : { www: port + 1, api: port + 2, site: port + 3, upload: port + 4 },
    onRequest: (origin, req, url) => onRequest(req, url, origin),
    ...forumOptions,
  }).catch((err) => {
    server.close();
    throw err;
  });
  const base = `http://localhost:${server.address().port}`;
  const control = async (p, body) =>
    (
      await fetch(`${base}/__control${p}`, {
        method: body === undefined ? "GET" : "POST",
        headers: { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    ).json();
  const close = async () => {
    await forum.close();
    await new Promise((resolve) => server.close(() => resolve()));
  };
  return { server, base, control, forum, origins: forum.origins, close };
}
