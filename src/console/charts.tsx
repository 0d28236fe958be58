// Charts drawn on the server as SVG (no script, no front-end build): lines over time and horizontal bars.
// Each has a name for assistive technology and sits beside a table holding the same numbers, so the
// picture is never the only way to read them. The SVG scales to its container (viewBox), from 360 px up.

/** Line and bar colours, each at least 4.5:1 against white, told apart by the legend's names too. */
export const PALETTE = ["#0b57d0", "#b3261e", "#176b3a", "#8a5300", "#6b3fa0", "#00696f", "#a1467e", "#4d5761"];
export const colorOf = (i: number) => PALETTE[i % PALETTE.length]!;

const W = 640;
const H = 240;
const PAD = { left: 48, right: 12, top: 12, bottom: 28 };

/** A round upper bound for an axis: 1, 2 or 5 times a power of ten, at least `max`. */
export function niceMax(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}

export interface LineSeries {
  name: string;
  /** One value per label; null leaves a gap (no data in that bucket). */
  values: (number | null)[];
}

/** Pieces of consecutive non-null points, each as an SVG polyline's points. */
function segments(xs: number[], ys: (number | null)[]): string[] {
  const out: string[] = [];
  let current: string[] = [];
  ys.forEach((y, i) => {
    if (y === null) {
      if (current.length) out.push(current.join(" "));
      current = [];
    } else current.push(`${xs[i]!.toFixed(1)},${y.toFixed(1)}`);
  });
  if (current.length) out.push(current.join(" "));
  return out;
}

/** Lines over time: one per series, y from 0 to `max` (or a round bound of the data), four grid lines. */
export function LineChart(props: {
  id: string;
  title: string;
  labels: string[];
  series: LineSeries[];
  max?: number;
  tick: (v: number) => string;
}) {
  const n = props.labels.length;
  const top = props.max ?? niceMax(Math.max(0, ...props.series.flatMap((s) => s.values.map((v) => v ?? 0))));
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const xs = props.labels.map((_, i) => PAD.left + (n <= 1 ? plotW / 2 : (plotW * i) / (n - 1)));
  const yOf = (v: number) => PAD.top + plotH * (1 - v / top);
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => f * top);
  const shownLabels = n <= 1 ? [0] : [0, Math.floor((n - 1) / 2), n - 1];
  return (
    <svg
      class="chart"
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-labelledby={`${props.id}-title`}
      preserveAspectRatio="xMidYMid meet"
    >
      <title id={`${props.id}-title`}>{props.title}</title>
      {ticks.map((v) => (
        <g>
          <line x1={PAD.left} x2={W - PAD.right} y1={yOf(v)} y2={yOf(v)} class="grid" />
          <text x={PAD.left - 6} y={yOf(v) + 4} text-anchor="end" class="tick">
            {props.tick(v)}
          </text>
        </g>
      ))}
      {shownLabels.map((i) => (
        <text x={xs[i]} y={H - 8} text-anchor={i === 0 ? "start" : i === n - 1 ? "end" : "middle"} class="tick">
          {props.labels[i]}
        </text>
      ))}
      {props.series.map((s, k) =>
        segments(
          xs,
          s.values.map((v) => (v === null ? null : yOf(v))),
        ).map((points) =>
          points.includes(" ") ? (
            <polyline points={points} fill="none" stroke={colorOf(k)} stroke-width="2.5" />
          ) : (
            <circle cx={points.split(",")[0]} cy={points.split(",")[1]} r="3" fill={colorOf(k)} />
          ),
        ),
      )}
    </svg>
  );
}

/** Horizontal bars, one per item, longest first as given, each with its name and number written beside it. */
export function BarChart(props: { id: string; title: string; items: { name: string; value: number }[] }) {
  const row = 28;
  const labelW = 170;
  const height = Math.max(1, props.items.length) * row + 8;
  const top = niceMax(Math.max(0, ...props.items.map((i) => i.value)));
  const plotW = W - labelW - 60;
  return (
    <svg class="chart" viewBox={`0 0 ${W} ${height}`} role="img" aria-labelledby={`${props.id}-title`}>
      <title id={`${props.id}-title`}>{props.title}</title>
      {props.items.map((item, i) => (
        <g>
          <text x={labelW - 8} y={i * row + 22} text-anchor="end" class="label">
            {item.name.length > 22 ? `${item.name.slice(0, 21)}…` : item.name}
          </text>
          <rect x={labelW} y={i * row + 8} width={(plotW * item.value) / top} height={row - 10} fill={colorOf(0)} />
          <text x={labelW + (plotW * item.value) / top + 6} y={i * row + 22} class="label">
            {String(item.value)}
          </text>
        </g>
      ))}
    </svg>
  );
}

/** The names of a chart's lines with their colours. */
export const Legend = ({ names }: { names: string[] }) => (
  <ul class="legend">
    {names.map((name, i) => (
      <li>
        <span class={`swatch c${i % PALETTE.length}`} aria-hidden="true" />
        {name}
      </li>
    ))}
  </ul>
);
