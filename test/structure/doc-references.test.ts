/// <reference types="vite/client" />
// The code explains itself through the project's own docs: no comment or string in src/ cites a document
// that is not in the repository (the customer's specification, an issue number), and every docs page a
// source file names exists, with the heading it quotes (`docs/publishing.md, "Gates"`).
import { describe, expect, it } from "vitest";

const raw = (glob: Record<string, unknown>) =>
  new Map(Object.entries(glob as Record<string, string>).map(([path, text]) => [path.replace(/^\//, ""), text]));
const SOURCES = raw(import.meta.glob("/src/**/*.{ts,tsx}", { query: "?raw", import: "default", eager: true }));
const DOCS = raw(import.meta.glob("/docs/**/*.md", { query: "?raw", import: "default", eager: true }));

/** `path:line: text` of each line of src/ that matches. */
function linesMatching(pattern: RegExp): string[] {
  return [...SOURCES].flatMap(([file, text]) =>
    text.split("\n").flatMap((line, i) => (pattern.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
  );
}

/** The headings of a markdown page, as written after the #s. */
const headingsOf = (markdown: string) =>
  new Set([...markdown.matchAll(/^#{1,6}\s+(.+?)\s*$/gm)].map((m) => m[1]!.replace(/`/g, "")));

/** Every `docs/page.md` a source line names, with the heading it quotes right after it, if any. */
function docReferences(): { at: string; page: string; heading?: string }[] {
  return [...SOURCES].flatMap(([file, text]) =>
    text.split("\n").flatMap((line, i) =>
      [...line.matchAll(/\b(docs\/[\w./-]+\.md)(?:[,:]?\s*(?:section\s+)?"([^"]+)")?/g)].map((m) => ({
        at: `${file}:${i + 1}`,
        page: m[1]!,
        heading: m[2],
      })),
    ),
  );
}

describe("the code cites the project's own docs", () => {
  it("reads src/ and docs/ (the globs work)", () => {
    expect(SOURCES.has("src/index.ts")).toBe(true);
    expect(DOCS.has("docs/architecture.md")).toBe(true);
  });

  it("cites no outside document: no SPEC section, interface-spec section or issue number", () => {
    expect(linesMatching(/\bSPEC\s+\d|interface-spec|\bissue\s+#?\d/i)).toEqual([]);
  });

  it("names only docs pages that exist, and headings those pages have", () => {
    const broken = docReferences().flatMap(({ at, page, heading }) => {
      const doc = DOCS.get(page);
      if (doc === undefined) return [`${at}: ${page} does not exist`];
      if (heading !== undefined && ![...headingsOf(doc)].some((h) => h === heading || h.startsWith(`${heading} `)))
        return [`${at}: ${page} has no heading "${heading}"`];
      return [];
    });
    expect(broken).toEqual([]);
  });

  it("would see a reference that breaks the rules (the patterns match)", () => {
    expect(/\bSPEC\s+\d|interface-spec|\bissue\s+#?\d/i.test("// as SPEC 6 says")).toBe(true);
    expect(headingsOf("# Title\n\n## Gates (interface)\n").has("Gates (interface)")).toBe(true);
    expect(docReferences().length).toBeGreaterThan(10);
  });
});
