// Small helpers shared by the command-line scripts: argument parsing with clear usage errors, exits.
import { parseArgs } from "node:util";

/** Exit codes: 0 ok, 1 the operation failed, 2 the command line was wrong. */
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/** A wrong command line; `usage` (optional) replaces the script's full usage text in the message. */
export class UsageError extends Error {
  constructor(message, usage) {
    super(message);
    this.usage = usage;
  }
}

/** `-h`/`--help` was given: runMain prints the usage and exits 0. */
class HelpRequested extends Error {}

/**
 * parseArgs in strict mode, with `-h`/`--help` added to every command; unknown options and stray values
 * become a UsageError.
 */
export function parseCommandLine(argv, options, { allowPositionals = false } = {}) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { ...options, help: { type: "boolean", short: "h" } },
      allowPositionals,
      strict: true,
    });
  } catch (err) {
    throw new UsageError(err.message);
  }
  if (parsed.values.help) throw new HelpRequested();
  delete parsed.values.help;
  return parsed;
}

/** A whole number in [min, max] from an option value, or a UsageError naming the option. */
export function integerOption(name, value, { min, max }) {
  if (!/^\d+$/.test(String(value)) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max} (got ${JSON.stringify(value)})`);
  }
  return Number(value);
}

/**
 * Runs a script's main function: `--help` prints the usage; usage errors print it too, other errors their
 * message, each with its exit code. Returns nothing: every outcome, a failure included, ends as the
 * process's exit code, so there is no promise for the caller to handle.
 */
export function runMain(main, usage, { exit = false } = {}) {
  // `exit`: end the process once the outcome is set, for a script whose helpers may leave handles open
  // (scripts/extract.mjs: the worker's dev server).
  const finish = () => {
    if (exit) process.exit(process.exitCode ?? 0);
  };
  Promise.resolve()
    .then(main)
    .then(
      (code) => {
        process.exitCode = code ?? 0;
        finish();
      },
      (err) => {
        reportFailure(err, usage);
        finish();
      },
    );
}

function reportFailure(err, usage) {
  if (err instanceof HelpRequested) {
    console.log(usage);
    process.exitCode = 0;
  } else if (err instanceof UsageError) {
    console.error(`error: ${err.message}\n\n${err.usage ?? usage}`);
    process.exitCode = EXIT_USAGE;
  } else {
    console.error(`error: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = err.exitCode ?? EXIT_FAILED;
  }
}
