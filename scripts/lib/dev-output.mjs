// What `npm start` shows of `wrangler dev`'s output (docs/commands.md, "npm start"). Pure (no Node APIs), so the
// workers tests run it as it is. wrangler prints its bindings table when it starts and again when its
// local server is up; the readiness probe of scripts/lib/dev-server.mjs shows as request lines. Everything
// else wrangler prints passes through unchanged.

const TABLE_HEADER = "Your Worker has access to the following bindings:";
/** wrangler's request log line for the readiness probe (GET / while the service starts). */
const PROBE_LINE = /^\[wrangler:info\] GET \/ \d{3}\b/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: wrangler colours its lines (ESC [ ... m)
const ANSI = /\u001b\[[0-9;]*m/g;

/**
 * A line filter over wrangler dev's output: `keep(line)` says whether to show it. The bindings table is
 * shown once. The readiness probe's request lines are hidden: every `GET /` line until `ready(answered)` is
 * called (when our banner is printed) with the number of probe requests the server answered, and after it
 * only as many more as are still due, since wrangler may print the last probe's line after the probe has
 * its answer. Every other `GET /` (a person's) shows.
 */
export function devOutputFilter() {
  let tablesSeen = 0;
  let inTable = false;
  let probesDue = Number.POSITIVE_INFINITY;
  let probesHidden = 0;
  return {
    keep(line) {
      const plain = line.replace(ANSI, "").trimEnd();
      if (plain === TABLE_HEADER) {
        tablesSeen++;
        inTable = true;
        return tablesSeen === 1;
      }
      if (inTable) {
        if (plain === "") inTable = false;
        return tablesSeen === 1;
      }
      if (probesHidden < probesDue && PROBE_LINE.test(plain)) {
        probesHidden++;
        return false;
      }
      return true;
    },
    ready(answered) {
      probesDue = answered;
    },
  };
}
