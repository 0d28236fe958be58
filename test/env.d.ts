// The test runtime's bindings: the Worker's own (generated, worker-configuration.d.ts) and the tests' extras.
declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
      FIXTURE_ORIGIN: string;
    }
  }
}

export {};
