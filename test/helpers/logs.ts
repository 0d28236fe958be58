// What the product logs (src/lib/log.ts: one JSON line per event, on the console method of its level), kept
// for the test that expects it instead of printed, so a green run shows only what nobody expected.

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
