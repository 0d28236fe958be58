// The local forum (test/fixtures/forum/) on a port of its own, for `npm run dev:forum` and
// `npm run docs:screenshots`: the HTTP server and a caller for its /__control steering API.
import http from "node:http";
import path from "node:path";
import { ROOT } from "./paths.mjs";

/** Starts the forum on 127.0.0.1:`port`; `onRequest` sees each request outside /__control. */
export async function serveLocalForum(port, { onRequest = () => {} } = {}) {
  const { createLocalForum } = await import(path.join(ROOT, "test", "fixtures", "forum", "local-forum.ts"));
  const forum = createLocalForum("");
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", `http://localhost:${port}`);
    if (!url.pathname.startsWith("/__control")) onRequest(req, url);
    try {
      await forum.handle(req, res, url);
    } catch (err) {
      res.writeHead(500).end(String(err));
    }
  });
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  const base = `http://localhost:${port}`;
  const control = async (p, body) =>
    (
      await fetch(`${base}/__control${p}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      })
    ).json();
  return { server, base, control };
}
