import type { TestProject } from "vitest/node";
import { startLocalForum } from "./fixtures/forum/serve.ts";
import { startFixtureServer } from "./fixtures/server";
import { hideRuntimeNoise } from "./runtime-noise";

declare module "vitest" {
  interface ProvidedContext {
    fixtureOrigin: string;
    /** The local forum's four origins (test/fixtures/forum/serve.ts). */
    forumOrigins: { www: string; api: string; site: string; upload: string };
  }
}

/** The OAuth client the Worker's env names in the tests (vitest.config.ts REDDIT_CLIENT_ID / _SECRET). */
export const TEST_CLIENT = {
  client_id: "tw-test-client",
  secret: "secret",
  redirect_uris: [
    "http://localhost/oauth/forum/callback",
    "https://localhost/oauth/forum/callback",
    "http://example.com/oauth/forum/callback",
    "https://example.com/oauth/forum/callback",
  ],
};

/**
 * Starts the local stand-ins for the outside world (blogs, the forum on its four origins) on 127.0.0.1, and
 * hides the runtime's known noise (test/runtime-noise.ts) from the run's output, saying at the end how many
 * lines it hid.
 */
export default async function setup(project: TestProject) {
  const noise = hideRuntimeNoise();
  const server = await startFixtureServer();
  const forum = await startLocalForum({ clients: [TEST_CLIENT] });
  project.provide("fixtureOrigin", server.origin);
  project.provide("forumOrigins", forum.origins);
  return async () => {
    await forum.close();
    await server.close();
    noise.restore();
    const hidden = noise.hidden();
    if (hidden > 0) console.log(`(${hidden} known runtime messages hidden from the output: see test/runtime-noise.ts)`);
  };
}
