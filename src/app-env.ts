import type { AuthContext, PresentedKey } from "./auth/check";
import type { Env } from "./env";

/** Hono's environment type for every router: the Worker bindings and the per-request variables. */
export interface AppEnv {
  Bindings: Env;
  Variables: {
    requestId: string;
    auth: AuthContext;
    /** On a route that checks the key in its own batch (src/auth/key-in-query.ts): the key, until then. */
    presentedKey: PresentedKey;
  };
}
