import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root (scripts run from anywhere through npm, but wrangler must run here). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
/** wrangler's default local state directory (`wrangler dev` and `d1 --local` without --persist-to). */
export const DEFAULT_PERSIST_DIR = path.join(ROOT, ".wrangler", "state");
/** The shared test corpus the benchmarks read: $CORPUS_DIR when set, else ../shared/corpus beside the repository. */
export const CORPUS_DIR = process.env.CORPUS_DIR ?? path.join(ROOT, "..", "shared", "corpus");
/** Mozilla Readability's test pages inside the corpus (one directory per page: source.html, expected.html). */
export const READABILITY_TEST_PAGES = path.join(CORPUS_DIR, "extraction", "mozilla__readability", "test", "test-pages");
