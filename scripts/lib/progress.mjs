// Progress of a long command on a terminal: one line on stderr, redrawn in place,
// "label  done/total (pct%)  elapsed" (or "label  elapsed" when the total is not known), then cleared.
// Nothing at all when stderr is not a terminal or the command prints JSON, so piped and --json output stay
// exactly what they were. Pure apart from the defaults (process.stderr, performance.now), so tests pass
// their own stream and clock.

const REDRAW_EVERY_MS = 100;

/**
 * A progress line for `total` steps (undefined: unknown, the line shows the elapsed time only).
 * Options: `json` (the command prints JSON: show nothing), `stream` (default process.stderr; shown only
 * when `stream.isTTY`), `now` (a clock in ms). Returns `{tick(n), set(done), end()}`; `end` clears the line.
 */
export function progress(label, total, { json = false, stream, now = () => performance.now() } = {}) {
  const out = stream ?? process.stderr;
  const shown = !json && Boolean(out.isTTY);
  const started = now();
  let done = 0;
  let drawnAt = Number.NEGATIVE_INFINITY;
  let width = 0;
  let ended = false;
  let timer;

  const line = () => {
    const seconds = `${((now() - started) / 1000).toFixed(1)} s`;
    if (total === undefined) return `${label}  ${seconds}`;
    const pct = total > 0 ? Math.floor((100 * Math.min(done, total)) / total) : 100;
    return `${label}  ${done}/${total} (${pct}%)  ${seconds}`;
  };
  const draw = (force = false) => {
    if (!shown || ended) return;
    const at = now();
    if (!force && at - drawnAt < REDRAW_EVERY_MS) return;
    drawnAt = at;
    const text = line();
    out.write(`\r${text}${" ".repeat(Math.max(0, width - text.length))}`);
    width = text.length;
  };

  draw(true);
  // With no known total nothing ticks: the elapsed time is redrawn on a timer instead.
  if (shown && total === undefined) {
    timer = setInterval(() => draw(true), 1000);
    timer.unref?.();
  }
  return {
    tick(n = 1) {
      done += n;
      draw(done >= total);
    },
    set(value) {
      done = value;
      draw(done >= total);
    },
    end() {
      if (timer) clearInterval(timer);
      if (shown && !ended) out.write(`\r${" ".repeat(width)}\r`);
      ended = true;
    },
  };
}
