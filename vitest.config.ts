import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

// Three projects. `workers`: tests run inside workerd with real local D1, Durable Objects and Queues
// (wrangler.toml bindings); the outside world (blogs, the forum) is served by real local HTTP servers started
// in globalSetup. `console`: Node tests that start the Worker with `wrangler dev` and drive Debian's Chromium
// through the web console (test/console/). `node`: Node tests that run the command-line scripts.
export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "migrations"));
  return {
    test: {
      // Two files at a time, also on a 2-core machine (vitest's default there is one): much of a file's time is
      // spent waiting (on Chromium, the queues, the local servers), not computing. The console project still
      // runs its one file alone, after the others (fileParallelism: false below).
      maxWorkers: 2,
      projects: [
        {
          plugins: [
            cloudflareTest(({ inject }) => {
              const forum = inject<{ www: string; api: string; site: string; upload: string }>("forumOrigins");
              return {
                wrangler: { configPath: "./wrangler.toml" },
                miniflare: {
                  bindings: {
                    TEST_MIGRATIONS: migrations,
                    FIXTURE_ORIGIN: inject<string>("fixtureOrigin"),
                    // The local forum's public site: what the browser opens as a logged-out visitor.
                    FORUM_BASE_URL: forum.site,
                    ADMIN_TOKEN: "test-admin-token",
                    SESSION_KEY: "dGVzdC1zZXNzaW9uLWtleS0zMi1ieXRlcy1sb25nISE=",
                    ALLOW_PRIVATE_FETCH: "true",
                    // The local forum (test/fixtures/forum/serve.ts, started in globalSetup) on its four origins:
                    // the consent page and token endpoint (www), the OAuth host (api), the public site and the
                    // upload host. FORUM_*_ORIGIN are the tests' own, to reach its control API and check answers.
                    REDDIT_CLIENT_ID: "tw-test-client",
                    REDDIT_CLIENT_SECRET: "secret",
                    REDDIT_USER_AGENT: "test:threadwatch:1.0 (by threadwatch tests)",
                    REDDIT_AUTHORIZE_URL: `${forum.www}/api/v1/authorize`,
                    REDDIT_AUTH_URL: `${forum.www}/api/v1/access_token`,
                    // The ingester's alarm off: tests run its rounds themselves, at the local forum's time
                    // (test/monitor/ingest.test.ts); the 30 s default is checked there too.
                    MONITOR_INGEST_INTERVAL_S: "0",
                    REDDIT_API_BASE_URL: forum.api,
                    FORUM_WWW_ORIGIN: forum.www,
                    FORUM_API_ORIGIN: forum.api,
                    FORUM_SITE_ORIGIN: forum.site,
                    FORUM_UPLOAD_ORIGIN: forum.upload,
                    // No DataForSEO credentials by default (metrics stay null, as without a provider); the metrics tests
                    // pass them (dfs-login / dfs-password) in an env of their own.
                    DATAFORSEO_BASE_URL: `${inject<string>("fixtureOrigin")}/dataforseo`,
                    // Alert retries without waiting (production: 30 s doubling); test/alerts/ checks the real schedule.
                    ALERT_RETRY_BASE_SECONDS: "0",
                    // A warm browser per workspace for 20 s, not the default 60: many workspaces per file, each may
                    // keep one Chromium; test/publishing/personas.test.ts checks reuse and the idle close.
                    BROWSER_KEEP_WARM_SECONDS: "20",
                  },
                },
              };
            }),
          ],
          test: {
            name: "workers",
            include: ["test/**/*.test.ts"],
            exclude: ["test/console/**", "test/**/*.node.test.ts", "**/node_modules/**"],
            globalSetup: ["./test/global-setup.ts"],
            // One workerd for all the files instead of a new one per file (starting it and loading the Worker's
            // modules took a few seconds a file); test/fresh-storage.ts empties the storage before each file.
            isolate: false,
            setupFiles: ["./test/fresh-storage.ts"],
            testTimeout: 30_000,
            hookTimeout: 30_000,
          },
        },
        {
          // `node`: tests of the command-line scripts that run them as a person would (test/**/*.node.test.ts),
          // each on a random free port and its own temporary state.
          test: {
            name: "node",
            include: ["test/**/*.node.test.ts"],
            environment: "node",
            testTimeout: 300_000,
            hookTimeout: 60_000,
          },
        },
        {
          test: {
            name: "console",
            include: ["test/console/**/*.test.ts"],
            environment: "node",
            // One wrangler dev and one Chromium for the whole file; its cases run in order.
            fileParallelism: false,
            testTimeout: 120_000,
            hookTimeout: 180_000,
          },
        },
      ],
    },
  };
});
