import type { TestProject } from "vitest/node";
import { startFixtureServer } from "./fixtures/server";

declare module "vitest" {
  interface ProvidedContext {
    fixtureOrigin: string;
  }
}

/** Starts the local stand-ins for the outside world (blogs, the forum) on 127.0.0.1. */
export default async function setup(project: TestProject) {
  const server = await startFixtureServer();
  project.provide("fixtureOrigin", server.origin);
  return () => server.close();
}
