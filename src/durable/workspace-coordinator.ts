import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";

/**
 * One per workspace (idFromName(`ws:${id}`)). The workspace's coordinator: it serializes the workspace's
 * browser operations and holds the fingerprint each active sync run started with. Its methods are typed
 * RPC; deadlines are alarms.
 */
export class WorkspaceCoordinator extends DurableObject<Env> {}

export const coordinatorFor = (env: Pick<Env, "WORKSPACE">, workspaceId: number) =>
  env.WORKSPACE.get(env.WORKSPACE.idFromName(`ws:${workspaceId}`));
