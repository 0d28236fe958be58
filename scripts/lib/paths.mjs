import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root (scripts run from anywhere through npm, but wrangler must run here). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
/** wrangler's default local state directory (`wrangler dev` and `d1 --local` without --persist-to). */
export const DEFAULT_PERSIST_DIR = path.join(ROOT, ".wrangler", "state");
