import type { AuthContext } from "../auth/keys";
import type { Env } from "../env";

/** Hono's environment type for every router: the Worker bindings and the per-request variables. */
export interface AppEnv {
  Bindings: Env;
  Variables: {
    requestId: string;
    /** The caller, set by the API key middleware (src/http/auth-middleware.ts) before any route runs. */
    auth: AuthContext;
  };
}
