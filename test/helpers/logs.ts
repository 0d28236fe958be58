// What the product logs (src/lib/log.ts: one JSON line per event, on the console method of its level), kept
// for the test that expects it instead of printed, so a green run shows only what nobody expected.
import { isRuntimeNoise } from "../runtime-noise";

/** One line logged by src/lib/log.ts. */
export interface LogLine {
  level: "info" | "warn" | "error";
  msg: string;
  [field: string]: unknown;
}

const METHODS = ["log", "info", "warn", "error", "debug"] as const;

function parsed(line: string): LogLine | undefined {
  try {
    const value = JSON.parse(line);
    return value && typeof value === "object" && typeof value.level === "string" && typeof value.msg === "string"
      ? value
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Runs `work` with every console line kept, not printed: `lines` is all of them (to assert that nothing
 * secret was logged), `logs` the product's log lines among them (to assert on what was logged).
 */
export async function captureLogs<T>(work: () => Promise<T>): Promise<{ result: T; lines: string; logs: LogLine[] }> {
  const kept: string[] = [];
  const originals = METHODS.map((method) => [method, console[method]] as const);
  for (const method of METHODS)
    console[method] = (...args: unknown[]) => {
      kept.push(args.map(String).join(" "));
    };
  try {
    const result = await work();
    return { result, lines: kept.join("\n"), logs: kept.flatMap((line) => parsed(line) ?? []) };
  } finally {
    for (const [method, original] of originals) console[method] = original;
  }
}

interface Expected {
  level: LogLine["level"];
  msg: string;
  seen: LogLine[];
  /** A line that may come or not (allowLogged): kept, never missed. */
  optional?: true;
}

// Kept on the global object: with the runtime shared by the files, this module may be loaded again for each
// file while the console keeps the journal installed by the first.
const EXPECTED = Symbol.for("threadwatch.test.expectedLogs");
const shared = globalThis as { [EXPECTED]?: Expected[] };
shared[EXPECTED] ??= [];
const expected: Expected[] = shared[EXPECTED];
const INSTALLED = Symbol.for("threadwatch.test.logJournal");

/**
 * Declares that the running test makes the product log `msg` at `level` (a refused queue message, an
 * unexpected error it provokes on purpose): those lines are kept for the test, not printed, and the test
 * fails at its end if none came. The array fills with the lines as they are logged, to assert on.
 */
export function expectLogged(level: LogLine["level"], msg: string): LogLine[] {
  const expectation: Expected = { level, msg, seen: [] };
  expected.push(expectation);
  return expectation.seen;
}

/**
 * Declares that the running test may make the product log `msg` at `level` without owning it: a file that
 * breaks D1 on purpose sees queue messages earlier files left fail against it. Those lines are kept for the
 * test, not printed, and their absence is no failure.
 */
export function allowLogged(level: LogLine["level"], msg: string): LogLine[] {
  const expectation: Expected = { level, msg, seen: [], optional: true };
  expected.push(expectation);
  return expectation.seen;
}

/**
 * Installed once per runtime by test/fresh-storage.ts, in front of the console: a product log line a test
 * declared (expectLogged) is kept for it; an info line is the service's ordinary journal (every queue
 * message handled, every cron step), which the tests assert on through state, so it is kept too; any other
 * line prints as before (a warning or an error nobody expected, anything not from src/lib/log.ts), unless it
 * is a library's known noise (test/runtime-noise.ts).
 * Returns the check run after each test: every declared line came.
 */
export function installLogJournal(): () => string[] {
  // Once per runtime: the files share one (vitest.config.ts, isolate: false), and each file asks again.
  for (const method of ["log", "info", "warn", "error"] as const) {
    const original = console[method] as typeof console.log & { [INSTALLED]?: true };
    if (original[INSTALLED]) continue;
    const journal = (...args: unknown[]) => {
      const line = args.length === 1 && typeof args[0] === "string" ? parsed(args[0]) : undefined;
      const expectation = line && expected.find((e) => e.level === line.level && e.msg === line.msg);
      if (expectation) expectation.seen.push(line);
      else if (line?.level !== "info" && !isRuntimeNoise(args.map(String).join(" "))) original.apply(console, args);
    };
    console[method] = Object.assign(journal, { [INSTALLED]: true as const });
  }
  return () => {
    const missing = expected.filter((e) => !e.optional && e.seen.length === 0).map((e) => `${e.level}: ${e.msg}`);
    expected.length = 0;
    return missing;
  };
}
