import type { TestProject } from "vitest/node";
import { startFixtureServer } from "./fixtures/server";
import { hideRuntimeNoise } from "./runtime-noise";

declare module "vitest" {
  interface ProvidedContext {
    fixtureOrigin: string;
  }
}

/**
 * Starts the local stand-ins for the outside world (blogs, the forum) on 127.0.0.1, and hides the runtime's
 * known noise (test/runtime-noise.ts) from the run's output, saying at the end how many lines it hid.
 */
export default async function setup(project: TestProject) {
  const noise = hideRuntimeNoise();
  const server = await startFixtureServer();
  project.provide("fixtureOrigin", server.origin);
  return async () => {
    await server.close();
    noise.restore();
    const hidden = noise.hidden();
    if (hidden > 0) console.log(`(${hidden} known runtime messages hidden from the output: see test/runtime-noise.ts)`);
  };
}
