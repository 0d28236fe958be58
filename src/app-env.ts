import type { AuthContext } from "./auth/middleware";
import type { Env } from "./env";

/** Hono's environment type for every router: the Worker bindings and the per-request variables. */
export interface AppEnv {
  Bindings: Env;
  Variables: {
    requestId: string;
    auth: AuthContext;
  };
}
