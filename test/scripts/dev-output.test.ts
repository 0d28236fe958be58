// What `npm start` shows of wrangler dev's output (scripts/lib/dev-output.mjs): the bindings
// table once, no readiness-probe request lines before the banner, everything else unchanged.
import { describe, expect, it } from "vitest";
import { devOutputFilter } from "../../scripts/lib/dev-output.mjs";

const TABLE = [
  "Your Worker has access to the following bindings:",
  "Binding                         Resource            Mode",
  "env.DB (threadwatch)            D1 Database         local",
  "",
];

describe("npm start's view of wrangler dev", () => {
  it("shows the bindings table once and hides the readiness probe's lines, also one printed after the banner", () => {
    const filter = devOutputFilter();
    const shown = (lines: string[]) => lines.filter((line) => filter.keep(line));
    expect(shown(["Using secrets defined in .dev.vars", ...TABLE, "⎔ Starting local server..."])).toEqual([
      "Using secrets defined in .dev.vars",
      ...TABLE,
      "⎔ Starting local server...",
    ]);
    // The second table (wrangler prints it again once its server is up) is dropped whole, coloured or not.
    expect(
      shown([
        "\u001b[1mYour Worker has access to the following bindings:\u001b[0m",
        ...TABLE.slice(1),
        "[wrangler:info] Ready on http://localhost:8851",
        "[wrangler:info] GET / 200 OK (14334ms)",
        "▲ [WARNING] Scheduled Workers are not automatically triggered during local development.",
      ]),
    ).toEqual([
      "[wrangler:info] Ready on http://localhost:8851",
      "▲ [WARNING] Scheduled Workers are not automatically triggered during local development.",
    ]);
    // The server answered two probes; wrangler printed one line of them so far. The other comes after the
    // banner (wrangler logs a request after answering it) and stays hidden; every later request shows,
    // GET / included.
    filter.ready(2);
    expect(
      shown([
        "[wrangler:info] GET / 200 OK (2ms)",
        "[wrangler:info] GET / 200 OK (3ms)",
        "[wrangler:info] GET /api/v1/posts 200 OK (9ms)",
      ]),
    ).toEqual(["[wrangler:info] GET / 200 OK (3ms)", "[wrangler:info] GET /api/v1/posts 200 OK (9ms)"]);
  });
});
