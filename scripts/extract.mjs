// npm run extract -- [--json] [--allow-private] FILE_OR_URL...
// Extracts each page with the Worker's own code (in workerd) and prints the result: one JSON line per input
// with --json, else a readable summary and the Reddit markdown.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { startExtractWorker } from "./extract-runner.mjs";
import { EXIT_FAILED, parseCommandLine, runMain, UsageError } from "./lib/cli.mjs";
import { extractErrorMessage } from "./lib/cli-settings.mjs";

const USAGE = `usage: npm run extract -- [options] FILE_OR_URL...

  --json            one JSON line per input instead of a readable summary and the markdown
  --allow-private   let URLs reach private and local addresses (a local test server)
  -h, --help        this help

exit codes: 0 every input extracted, 1 an input failed (its error is printed), 2 wrong command line.`;

runMain(
  async () => {
    const { values, positionals: inputs } = parseCommandLine(
      process.argv.slice(2),
      {
        json: { type: "boolean", default: false },
        "allow-private": { type: "boolean", default: false },
      },
      { allowPositionals: true },
    );
    if (!inputs.length) throw new UsageError("no FILE_OR_URL given");
    const json = values.json;

    const worker = await startExtractWorker({ allowPrivate: values["allow-private"] });
    let failures = 0;
    try {
      for (const input of inputs) {
        const isUrl = /^https?:\/\//i.test(input);
        const key = isUrl ? { url: input } : { file: input };
        let result;
        if (isUrl) result = await worker.extractUrl(input);
        else if (!fs.existsSync(input)) result = { error: { code: "not_found", message: `no such file: ${input}` } };
        else
          result = await worker.extractBytes(
            fs.readFileSync(input),
            pathToFileURL(path.resolve(input)).href.replace(/^file:/, "http://localfile"),
          );
        if (result.error) failures++;
        if (json) {
          const { title, byline, published_at, markdown, text, images, elapsed_ms, error } = result;
          console.log(
            JSON.stringify(
              error
                ? { ...key, error: { ...error, message: extractErrorMessage(error, values["allow-private"]) } }
                : { ...key, title, byline, published_at, markdown, text, images, elapsed_ms },
            ),
          );
        } else if (result.error) {
          console.log(
            `# ${input}\nerror (${result.error.code}): ${extractErrorMessage(result.error, values["allow-private"])}\n`,
          );
        } else {
          console.log(
            `# ${input}\ntitle: ${result.title}\nbyline: ${result.byline ?? "-"}\npublished: ${result.published_at ?? "-"}\n` +
              `images: ${result.images.length}  text: ${result.text.length} chars  elapsed: ${result.elapsed_ms} ms\n\n${result.markdown}\n`,
          );
        }
      }
    } finally {
      await worker.dispose();
    }
    return failures ? EXIT_FAILED : 0;
  },
  USAGE,
  { exit: true },
); // the worker's dev server may leave handles open
