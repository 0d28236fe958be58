// The progress line of long commands (scripts/lib/progress.mjs): drawn in place on a
// terminal, nothing when the output is not a terminal or the command prints JSON.
import { describe, expect, it } from "vitest";
import { progress } from "../../scripts/lib/progress.mjs";

function terminal(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, stream: { isTTY, write: (text: string) => writes.push(text) } };
}

describe("progress", () => {
  it("on a terminal: a counted line redrawn in place (at most every 100 ms), the last step always, then cleared", () => {
    const { writes, stream } = terminal(true);
    let clock = 0;
    const bar = progress("seeding posts", 200, { stream, now: () => clock });
    expect(writes).toEqual(["\rseeding posts  0/200 (0%)  0.0 s"]);
    clock = 50;
    bar.tick(10); // within 100 ms of the last drawing: not redrawn
    expect(writes).toHaveLength(1);
    clock = 150;
    bar.tick(40);
    expect(writes.at(-1)).toBe("\rseeding posts  50/200 (25%)  0.1 s");
    clock = 160;
    bar.set(200); // the last step is drawn even within 100 ms
    expect(writes.at(-1)).toBe("\rseeding posts  200/200 (100%)  0.2 s");
    bar.end();
    expect(writes.at(-1)).toBe(`\r${" ".repeat("seeding posts  200/200 (100%)  0.2 s".length)}\r`);
    bar.tick();
    expect(writes).toHaveLength(4);
  });

  it("a shorter line blanks what the longer one left; an unknown total shows the elapsed time", () => {
    const { writes, stream } = terminal(true);
    let clock = 0;
    const bar = progress("x", 1000, { stream, now: () => clock });
    clock = 200;
    bar.set(999);
    clock = 12_300;
    bar.set(1000);
    expect(writes[1]).toBe("\rx  999/1000 (99%)  0.2 s");
    expect(writes[2]).toBe("\rx  1000/1000 (100%)  12.3 s");
    bar.end();
    const open = progress("writing in workerd", undefined, { stream, now: () => clock });
    expect(writes.at(-1)).toBe("\rwriting in workerd  0.0 s");
    open.end();
  });

  it("prints nothing when the output is not a terminal, or with --json", () => {
    for (const [isTTY, json] of [
      [false, false],
      [true, true],
      [false, true],
    ] as const) {
      const { writes, stream } = terminal(isTTY);
      const bar = progress("seeding posts", 10, { stream, json, now: () => 0 });
      bar.tick(5);
      bar.set(10);
      bar.end();
      const open = progress("writing", undefined, { stream, json });
      open.end();
      expect(writes).toEqual([]);
    }
  });
});
