// What the monitoring and alerts benchmarks share: the local
// forum API (test/fixtures/forum/fake-forum.ts) served on a port, and the wrangler dev vars that point the
// Worker at it.
import http from "node:http";
import { FakeForum, readBody } from "../../test/fixtures/forum/fake-forum.ts";

/** Listens on 127.0.0.1:`port`; resolves once listening, rejects when the port is taken. */
export async function listen(server, port) {
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
}

/**
 * Starts the local forum API on `port` for the OAuth client `client` (secret "bench"). Returns the forum
 * (to add posts), its HTTP server (close it when done), its origin and the wrangler dev vars for it.
 */
export async function startForumApi(port, client) {
  const forum = new FakeForum({ acceptAnyClient: true });
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", `http://127.0.0.1:${port}`);
    if (!forum.handle(req, res, url, await readBody(req))) res.writeHead(404).end();
  });
  await listen(server, port);
  const origin = `http://127.0.0.1:${port}`;
  forum.reset(client, { secret: "bench" });
  const vars = {
    REDDIT_CLIENT_ID: client,
    REDDIT_CLIENT_SECRET: "bench",
    REDDIT_AUTH_URL: `${origin}/api/v1/access_token`,
    REDDIT_API_BASE_URL: origin,
  };
  return { forum, server, origin, vars };
}
