// The extraction engine's tree builder (src/articles/extract/html-tree.ts) bundled for Node, so the parser and
// signal benchmarks run the Worker's own code (esbuild into node_modules/.cache, then imported).
import path from "node:path";
import { build } from "esbuild";
import { ROOT } from "./paths.mjs";

/** Bundles html-tree.ts under `cacheName` and imports it. */
export async function importHtmlTree(cacheName) {
  const out = path.join(ROOT, "node_modules", ".cache", `${cacheName}.mjs`);
  await build({
    entryPoints: [path.join(ROOT, "src/articles/extract/html-tree.ts")],
    bundle: true,
    format: "esm",
    platform: "neutral",
    outfile: out,
    logLevel: "error",
  });
  return import(out);
}
