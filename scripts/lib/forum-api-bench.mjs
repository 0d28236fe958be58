// What the monitoring and alerts benchmarks share: the local forum (test/fixtures/forum/serve.ts) in this
// process, its token endpoint on `port` (its other origins on free ports), and the wrangler dev vars that
// point the Worker at it.

import { clientStats, plant } from "../../test/fixtures/forum/control.ts";
import { startLocalForum } from "../../test/fixtures/forum/serve.ts";

/** Listens on 127.0.0.1:`port`; resolves once listening, rejects when the port is taken. */
export async function listen(server, port) {
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
}

/**
 * The world of today's search benchmarks unless `options` say otherwise: 100 requests a minute, a search
 * without lag or cap, no generated items (the forum's own defaults are its real ones: 1,000 per 600 s, a
 * search that lags and stops at 250, ids allocated at the peak rates).
 */
export const SEARCH_BENCH_WORLD = {
  limit: 100,
  window_s: 60,
  token_ttl_s: 3600,
  search_lag_s: 0,
  search_cap: null,
  posts: { per_minute: 0 },
  comments: { per_minute: 0 },
};

/**
 * Starts the local forum for the OAuth client `client` (secret "bench"). Returns `forum` (addPosts,
 * stats, its world for anything else), a `server` to close, the www origin and the wrangler dev vars.
 */
export async function startForumApi(port, client, options = SEARCH_BENCH_WORLD) {
  const local = await startLocalForum({
    ports: { www: port },
    clients: [{ client_id: client, secret: "bench", ...options }],
  });
  const { world, origins } = local;
  const forum = {
    world,
    origins,
    addPosts: (id, posts) => {
      const c = world.client(id);
      for (const p of posts) plant(world, c, p);
    },
    stats: (id) => clientStats(world.client(id)),
  };
  const server = {
    close: (done) => {
      local.close().then(
        () => done?.(),
        (err) => done?.(err),
      );
    },
  };
  const vars = {
    REDDIT_CLIENT_ID: client,
    REDDIT_CLIENT_SECRET: "bench",
    REDDIT_AUTHORIZE_URL: `${origins.www}/api/v1/authorize`,
    REDDIT_AUTH_URL: `${origins.www}/api/v1/access_token`,
    REDDIT_API_BASE_URL: origins.api,
  };
  return { forum, server, origin: origins.www, origins, vars };
}
