// What `npm start` shows of `wrangler dev`'s output (issue 14, point 8). Pure (no Node APIs), so the
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
 * shown once; request lines of the readiness probe are hidden until `ready()` is called (when our banner
 * is printed), after which every request line shows.
 */
export function devOutputFilter() {
  let tablesSeen = 0;
  let inTable = false;
  let ready = false;
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
      if (!ready && PROBE_LINE.test(plain)) return false;
      return true;
    },
    ready() {
      ready = true;
    },
  };
}
