// The test runtime's bindings: the Worker's own (generated, worker-configuration.d.ts) and the tests' extras.
declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
      FIXTURE_ORIGIN: string;
      // Monitoring against the local forum API and DataForSEO (vitest.config.ts).
      REDDIT_CLIENT_ID: string;
      REDDIT_CLIENT_SECRET: string;
      REDDIT_USER_AGENT: string;
      REDDIT_AUTH_URL: string;
      REDDIT_API_BASE_URL: string;
      REDDIT_AUTHORIZE_URL: string;
      // The local forum's four origins (test/fixtures/forum/serve.ts), to reach its control API.
      FORUM_WWW_ORIGIN: string;
      FORUM_API_ORIGIN: string;
      FORUM_SITE_ORIGIN: string;
      FORUM_UPLOAD_ORIGIN: string;
      DATAFORSEO_BASE_URL: string;
    }
  }
}

export {};
