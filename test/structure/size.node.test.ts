// No file of src/ over 600 lines and no function over 80: past those sizes a file holds several ideas and a
// function several steps, and the next engineer has to find the seams before changing anything. Functions
// are found with TypeScript's own parser (declarations, methods, arrows, function expressions,
// constructors, accessors) and measured from their first line to their last, so an outer function counts
// the inner ones it holds.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const MAX_FILE_LINES = 600;
const MAX_FUNCTION_LINES = 80;

/**
 * Generated or data files, which no one reads as code, each with the reason. None today: src/ holds
 * neither (the one generated file, worker-configuration.d.ts from `npm run types`, is at the root).
 */
const EXCLUDED: Record<string, string> = {};

const ROOT = path.resolve(import.meta.dirname, "../..");

/** The lines of a text, a final line break ending the last line rather than starting another. */
const lineCount = (text: string) => text.split("\n").length - (text.endsWith("\n") ? 1 : 0);

type FunctionNode =
  | ts.FunctionDeclaration
  | ts.MethodDeclaration
  | ts.ArrowFunction
  | ts.FunctionExpression
  | ts.ConstructorDeclaration
  | ts.AccessorDeclaration;

function isFunction(node: ts.Node): node is FunctionNode {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  );
}

/** The name a reader would search for: its own, or that of what it is assigned to, with its class. */
function nameOf(node: FunctionNode, sf: ts.SourceFile): string {
  const parent = node.parent;
  let name = "(anonymous)";
  if (ts.isConstructorDeclaration(node)) name = "constructor";
  else if (node.name) name = node.name.getText(sf);
  else if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
    name = parent.name.getText(sf);
  if (ts.isGetAccessorDeclaration(node)) name = `get ${name}`;
  if (ts.isSetAccessorDeclaration(node)) name = `set ${name}`;
  const owner = ts.isClassLike(parent) ? parent : ts.isPropertyDeclaration(parent) ? parent.parent : undefined;
  return owner?.name ? `${owner.name.getText(sf)}.${name}` : name;
}

/** What is too long in one file: the file itself, and each function, as "file:line name: N lines". */
function oversized(file: string, text: string): string[] {
  const found: string[] = [];
  const lines = lineCount(text);
  if (lines > MAX_FILE_LINES) found.push(`${file}: ${lines} lines (over ${MAX_FILE_LINES})`);
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const visit = (node: ts.Node) => {
    if (isFunction(node) && node.body) {
      const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      const length = last - first + 1;
      if (length > MAX_FUNCTION_LINES)
        found.push(`${file}:${first + 1} ${nameOf(node, sf)}: ${length} lines (over ${MAX_FUNCTION_LINES})`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** Every TypeScript file of src/, as a path from the repository's root. */
function sourceFiles(): string[] {
  return readdirSync(path.join(ROOT, "src"), { recursive: true, encoding: "utf8" })
    .filter((f) => /\.tsx?$/.test(f))
    .map((f) => `src/${f.split(path.sep).join("/")}`)
    .sort();
}

/** A function of `lines` lines in all, its body padded with statements. */
const longFunction = (header: string, lines: number, footer = "}") =>
  [header, ...Array.from({ length: lines - 2 }, (_, i) => `  const v${i} = ${i};`), footer].join("\n");

describe("sizes in src/", () => {
  it("reads the whole of src/", () => {
    const files = sourceFiles();
    expect(files).toContain("src/index.ts");
    expect(files).toContain("src/console/layout.tsx");
    expect(files.length).toBeGreaterThan(100);
  });

  it("every excluded file exists", () => {
    const files = new Set(sourceFiles());
    expect(Object.keys(EXCLUDED).filter((f) => !files.has(f))).toEqual([]);
  });

  it(`no file over ${MAX_FILE_LINES} lines and no function over ${MAX_FUNCTION_LINES}`, () => {
    const found = sourceFiles()
      .filter((f) => !(f in EXCLUDED))
      .flatMap((f) => oversized(f, readFileSync(path.join(ROOT, f), "utf8")));
    expect(found).toEqual([]);
  });
});

describe("the size check itself", () => {
  it("lists a function one line over the limit, and not one at the limit", () => {
    const text = `${longFunction("function atLimit() {", 80)}\n${longFunction("function over() {", 81)}\n`;
    expect(oversized("src/x.ts", text)).toEqual(["src/x.ts:81 over: 81 lines (over 80)"]);
  });

  it("finds every kind of function, named as a reader would search for it", () => {
    const text = [
      longFunction("export const arrow = () => {", 81, "};"),
      longFunction("const expression = function () {", 81, "};"),
      "class Box {",
      longFunction("constructor() {", 81),
      longFunction("method() {", 81),
      longFunction("get size() {", 81),
      longFunction("set size(v: number) {", 81),
      longFunction("handler = async () => {", 81, "};"),
      "}",
      longFunction("const table = { entry(x: number) {", 81, "} };"),
      "",
    ].join("\n");
    const names = oversized("src/x.ts", text)
      .filter((line) => /^src\/x\.ts:\d+ /.test(line))
      .map((line) => line.replace(/^src\/x\.ts:\d+ |: 81 lines.*$/g, ""));
    expect(names).toEqual([
      "arrow",
      "expression",
      "Box.constructor",
      "Box.method",
      "Box.get size",
      "Box.set size",
      "Box.handler",
      "entry",
    ]);
  });

  it("counts an outer function with the inner ones it holds, in a .tsx file too", () => {
    const inner = longFunction("  const inner = () => {", 50, "  };");
    const text = [
      "export function Outer() {",
      inner,
      longFunction("  const jsx = () => {", 29, "  };"),
      "  return <p />;",
      "}",
      "",
    ];
    expect(oversized("src/x.tsx", text.join("\n"))).toEqual(["src/x.tsx:1 Outer: 82 lines (over 80)"]);
  });

  it(`lists a file over ${MAX_FILE_LINES} lines, a final line break not counted as a line`, () => {
    const lines = (n: number) => `${Array.from({ length: n }, (_, i) => `export const c${i} = ${i};`).join("\n")}\n`;
    expect(oversized("src/x.ts", lines(600))).toEqual([]);
    expect(oversized("src/x.ts", lines(601))).toEqual(["src/x.ts: 601 lines (over 600)"]);
  });
});
