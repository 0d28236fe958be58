// `npm run extract` (scripts/extract.mjs) run as a person runs it: a page from disk, extracted by the Worker's
// own code in workerd, printed as one JSON line. It once printed nothing and exited 0: the script ends its
// process itself (the worker's dev server may leave handles open) and did so before the work had run.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, runScript } from "./run-script";

const extract = (args: string[]) => runScript("extract.mjs", args);

describe("npm run extract", () => {
  it("prints the article of a file as JSON, and says which input failed", async () => {
    const page = path.join(ROOT, "test", "fixtures", "extraction", "001.html");
    const missing = path.join(ROOT, "test", "fixtures", "extraction", "no-such-page.html");
    const { code, stdout, stderr } = await extract(["--json", page, missing]);
    const lines = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines, stderr).toHaveLength(2);
    expect(lines[0].file).toBe(page);
    expect(lines[0].title).toBe("Get your Frontend JavaScript Code Covered");
    expect(lines[0].markdown.length).toBeGreaterThan(500);
    expect(lines[1]).toMatchObject({ file: missing, error: { code: "not_found" } });
    expect(code).toBe(1);
  }, 120_000);
});
