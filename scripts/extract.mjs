// npm run extract -- [--json] [--allow-private] FILE_OR_URL...
// Extracts each page with the Worker's own code (in workerd) and prints the result: one JSON line per input
// with --json, else a readable summary and the Reddit markdown.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { startExtractWorker } from "./extract-runner.mjs";

const args = process.argv.slice(2);
const json = args.includes("--json");
const allowPrivate = args.includes("--allow-private");
const inputs = args.filter((a) => !a.startsWith("--"));
if (!inputs.length) {
  console.error("usage: npm run extract -- [--json] [--allow-private] FILE_OR_URL...");
  process.exit(2);
}

const worker = await startExtractWorker({ allowPrivate });
let failures = 0;
try {
  for (const input of inputs) {
    const isUrl = /^https?:\/\//i.test(input);
    const key = isUrl ? { url: input } : { file: input };
    let result;
    if (isUrl) result = await worker.extractUrl(input);
    else if (!fs.existsSync(input)) result = { error: { code: "not_found", message: `no such file: ${input}` } };
    else result = await worker.extractBytes(fs.readFileSync(input), pathToFileURL(path.resolve(input)).href.replace(/^file:/, "http://localfile"));
    if (result.error) failures++;
    if (json) {
      const { title, byline, published_at, markdown, text, images, elapsed_ms, error } = result;
      console.log(JSON.stringify(error ? { ...key, error } : { ...key, title, byline, published_at, markdown, text, images, elapsed_ms }));
    } else if (result.error) {
      console.log(`# ${input}\nerror (${result.error.code}): ${result.error.message}\n`);
    } else {
      console.log(`# ${input}\ntitle: ${result.title}\nbyline: ${result.byline ?? "-"}\npublished: ${result.published_at ?? "-"}\n` +
        `images: ${result.images.length}  text: ${result.text.length} chars  elapsed: ${result.elapsed_ms} ms\n\n${result.markdown}\n`);
    }
  }
} finally {
  await worker.dispose();
}
process.exit(failures ? 1 : 0);
