// `npm run extract` (scripts/extract.mjs) run as a person runs it: a page from disk, extracted by the Worker's
// own code in workerd, printed as one JSON line. It once printed nothing and exited 0: the script ends its
// process itself (the worker's dev server may leave handles open) and did so before the work had run.
import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

function extract(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [path.join(ROOT, "scripts", "extract.mjs"), ...args], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, stdout, stderr })));
}

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
