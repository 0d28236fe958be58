// The extraction engine's tree and its parser (src/articles/extract/html-tree.ts and parse-html.ts) bundled for
// Node, so the parser and signal benchmarks run the Worker's own code (esbuild into node_modules/.cache, then
// imported).
import path from "node:path";
import { build } from "esbuild";
import { ROOT } from "./paths.mjs";

const EXTRACT = path.join(ROOT, "src/articles/extract");

/** Bundles html-tree.ts and parse-html.ts under `cacheName` and imports them (one module, both files' exports). */
export async function importHtmlTree(cacheName) {
  const out = path.join(ROOT, "node_modules", ".cache", `${cacheName}.mjs`);
  await build({
    stdin: {
      contents: `export * from "./html-tree.ts";\nexport * from "./parse-html.ts";\n`,
      resolveDir: EXTRACT,
      loader: "ts",
    },
    bundle: true,
    format: "esm",
    platform: "neutral",
    outfile: out,
    logLevel: "error",
  });
  return import(out);
}
