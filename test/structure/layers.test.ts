/// <reference types="vite/client" />
// The layering rules of docs/architecture.md, checked on the source text of src/ (bundled into the test by
// Vite's `?raw` glob: workerd has no file system). Each rule names what it found, file by file, so a
// failure says where the rule was broken.
import { describe, expect, it } from "vitest";

const SOURCES = import.meta.glob("/src/**/*.{ts,tsx}", { query: "?raw", import: "default", eager: true }) as Record<
  string,
  string
>;
/** "src/auth/check.ts" → its text. */
const files = new Map(Object.entries(SOURCES).map(([path, text]) => [path.replace(/^\//, ""), text]));

/** Every module specifier a file imports or re-exports, types included (a type cycle is a cycle to read). */
function specifiers(text: string): string[] {
  const found: string[] = [];
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  for (const m of code.matchAll(/\b(?:import|export)\s+(?:type\s+)?(?:[\w*${}\s,]+?\s+from\s+)?["']([^"']+)["']/g))
    found.push(m[1]!);
  for (const m of code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) found.push(m[1]!);
  return found;
}

/** A relative specifier of `from`, resolved to a file of src/; undefined for a package. */
function resolve(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const parts = from.split("/").slice(0, -1);
  for (const segment of specifier.split("/")) {
    if (segment === "..") parts.pop();
    else if (segment !== ".") parts.push(segment);
  }
  const base = parts.join("/");
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`])
    if (files.has(candidate)) return candidate;
  throw new Error(`${from}: cannot resolve ${specifier}`);
}

/** file → the src files it imports. */
const graph = new Map(
  [...files].map(([file, text]) => [
    file,
    specifiers(text)
      .map((s) => resolve(file, s))
      .filter((f): f is string => f !== undefined),
  ]),
);

const folderOf = (file: string) => file.split("/").slice(0, 2).join("/");

/** `file imports target` for each import of a file in `folder` that `allowed` refuses. */
function importsBreaking(folder: string, allowed: (target: string) => boolean): string[] {
  return [...graph]
    .filter(([file]) => file.startsWith(`${folder}/`))
    .flatMap(([file, targets]) => targets.filter((t) => !allowed(t)).map((t) => `${file} imports ${t}`));
}

/**
 * The HTTP and queue edge: what turns requests, cron ticks and queue messages into calls of the layers below
 * (docs/architecture.md). Every other folder and file of src/ is below the edge, found from the tree itself,
 * so a folder added tomorrow is checked the day it appears.
 */
const EDGE = [
  "src/index.ts",
  "src/app.ts",
  "src/errors.ts",
  "src/auth",
  "src/routes",
  "src/http",
  "src/mcp",
  "src/jobs",
  "src/console",
];
const isEdge = (file: string) => EDGE.some((e) => file === e || file.startsWith(`${e}/`));
/** "src/db", "src/env.ts", …: each folder (or top-level file) of src/ below the edge. */
const BELOW = [...new Set([...files.keys()].map(folderOf))].filter((unit) => !isEdge(unit)).sort();

describe("layers", () => {
  it("reads the whole of src/ (the glob works)", () => {
    expect(files.has("src/index.ts")).toBe(true);
    expect(files.has("src/lib/domain-errors.ts")).toBe(true);
    expect(files.size).toBeGreaterThan(50);
  });

  it("finds every folder below the edge, and every edge it names exists", () => {
    expect(BELOW).toEqual(
      expect.arrayContaining(["src/articles", "src/db", "src/lib", "src/monitor", "src/publishing"]),
    );
    expect(EDGE.filter((e) => ![...files.keys()].some((f) => f === e || f.startsWith(`${e}/`)))).toEqual([]);
  });

  it("src/lib is a leaf: it imports nothing of src outside src/lib", () => {
    expect(importsBreaking("src/lib", (t) => t.startsWith("src/lib/"))).toEqual([]);
  });

  it("src/articles is the pure engine: it imports only itself, src/outbound and src/lib", () => {
    const allowed = ["src/articles/", "src/outbound/", "src/lib/"];
    expect(importsBreaking("src/articles", (t) => allowed.some((a) => t.startsWith(a)))).toEqual([]);
  });

  it("src/outbound (fetching the open web) imports only itself and src/lib", () => {
    expect(importsBreaking("src/outbound", (t) => t.startsWith("src/outbound/") || t.startsWith("src/lib/"))).toEqual(
      [],
    );
  });

  it("src/contracts (schemas and messages every door shares) imports only itself, src/lib and src/db's types", () => {
    const allowed = ["src/contracts/", "src/lib/", "src/db/"];
    expect(importsBreaking("src/contracts", (t) => allowed.some((a) => t.startsWith(a)))).toEqual([]);
  });

  it("src/db imports no layer above it: only itself, src/lib and the engine's types", () => {
    const allowed = ["src/db/", "src/lib/", "src/articles/"];
    expect(importsBreaking("src/db", (t) => allowed.some((a) => t.startsWith(a)))).toEqual([]);
  });

  it("nothing below the edge imports the edge (auth, routes, HTTP, MCP, jobs, console, the app, the error model)", () => {
    const found = [...graph]
      .filter(([file]) => !isEdge(file))
      .flatMap(([file, targets]) => targets.filter(isEdge).map((t) => `${file} imports ${t}`));
    expect(found).toEqual([]);
  });

  it("has no import cycle", () => {
    const cycles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const stack: string[] = [];
    const visit = (file: string) => {
      state.set(file, "open");
      stack.push(file);
      for (const next of graph.get(file) ?? []) {
        if (state.get(next) === "open") cycles.push([...stack.slice(stack.indexOf(next)), next].join(" → "));
        else if (!state.has(next)) visit(next);
      }
      stack.pop();
      state.set(file, "done");
    };
    for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
    expect(cycles).toEqual([]);
  });

  it("files Node scripts import directly (type stripping) import nothing at run time", () => {
    // scripts/ and bench/ import these with their .ts extension; an import of theirs would not resolve,
    // unless it names another file of this list with its .ts extension (type stripping resolves that).
    const direct = ["src/auth/keys.ts", "src/lib/crypto.ts", "src/db/posts-query.ts", "src/db/fts-terms.ts"];
    const resolvesDirectly = (file: string, specifier: string) =>
      specifier.startsWith("./") &&
      specifier.endsWith(".ts") &&
      direct.includes(file.slice(0, file.lastIndexOf("/") + 1) + specifier.slice(2));
    const runtimeImports = direct.flatMap((file) =>
      [...files.get(file)!.matchAll(/^\s*import\s+(?!type\b)[^;]*?from\s+["']([^"']+)["']/gm)]
        .filter((m) => !resolvesDirectly(file, m[1]!))
        .map((m) => `${file} imports ${m[1]}`),
    );
    expect(runtimeImports).toEqual([]);
  });
});

describe("SQL only in src/db", () => {
  // D1 is reached through src/db alone. The Durable Object's own SQLite storage (ctx.storage.sql) is its
  // private state, not D1, and is written by src/durable itself: the one allowed exception.
  const DURABLE_STORAGE = (file: string) => file.startsWith("src/durable/");
  const rules: [string, RegExp, (file: string) => boolean][] = [
    ["imports drizzle-orm", /from\s+["']drizzle-orm[^"']*["']/, () => false],
    ["prepares a D1 statement", /\.prepare\(/, () => false],
    ["runs a D1 batch", /\.batch\(/, () => false],
    ["writes a sql`` template", /\bsql`/, () => false],
    [
      "runs a drizzle query builder",
      /\.(?:select|insert|update|delete)\([^)]*\)\s*\.(?:from|values|set|where)\(/,
      () => false,
    ],
    ["runs SQL on storage", /\bsql\.exec\(/, DURABLE_STORAGE],
    [
      "writes a SQL statement",
      /["'`]\s*(?:SELECT|INSERT INTO|UPDATE \w+ SET|DELETE FROM|CREATE TABLE)\b/,
      DURABLE_STORAGE,
    ],
  ];

  it.each(rules)("no file outside src/db %s", (_what, pattern, allowed) => {
    const found = [...files]
      .filter(([file]) => folderOf(file) !== "src/db" && !allowed(file))
      .filter(([, text]) => pattern.test(text))
      .map(([file]) => file);
    expect(found).toEqual([]);
  });

  it("the rules see SQL where it is (they would catch a query moved out of src/db)", () => {
    for (const [what, pattern] of rules.slice(0, 5)) {
      expect([what, [...files].some(([file, text]) => folderOf(file) === "src/db" && pattern.test(text))]).toEqual([
        what,
        true,
      ]);
    }
  });
});
