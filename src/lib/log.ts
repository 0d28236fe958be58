/** One structured log line (JSON) per event, on the console method of its level, so Workers Logs can filter. */
export type LogLevel = "info" | "warn" | "error";

const CONSOLE: Record<LogLevel, (line: string) => void> = {
  info: (line) => console.log(line),
  warn: (line) => console.warn(line),
  error: (line) => console.error(line),
};

export function log(level: LogLevel, msg: string, fields: Record<string, unknown> = {}): void {
  CONSOLE[level](JSON.stringify({ level, msg, ...fields }));
}

/** The message of anything thrown. */
export const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));
