// Pipe tables as the forum reads them (snudown's parse_table_header and parse_table_row; see
// test/fixtures/SOURCES.md): a header line with at least one pipe, then a separator with a cell for every
// header column, each cell `:?-*:?` holding at least one hyphen or colon; rows go on while a line has a pipe.
// Cells are split at every pipe (a backslash does not protect one), missing cells are empty and extra ones
// are dropped.
import type { Child } from "hono/jsx";
import { renderInline } from "./markdown-inline";

type Align = "left" | "right" | "center" | undefined;

/** The line's cells: one leading pipe is not a cell boundary, nor is a trailing one. */
function cellsOf(line: string): string[] {
  let text = line.trim();
  if (text.startsWith("|")) text = text.slice(1);
  if (text.endsWith("|")) text = text.slice(0, -1);
  return text.split("|").map((cell) => cell.trim());
}

/** The columns' alignments, or undefined when `line` is not a separator for `columns` columns. */
function alignments(line: string, columns: number): Align[] | undefined {
  const cells = cellsOf(line);
  if (cells.length < columns) return undefined;
  const aligns: Align[] = [];
  for (const cell of cells.slice(0, columns)) {
    const m = /^(:?)(-*)(:?)$/.exec(cell);
    if (!m || cell.length === 0) return undefined;
    aligns.push(m[1] && m[3] ? "center" : m[1] ? "left" : m[3] ? "right" : undefined);
  }
  return aligns;
}

/** One row; a row with fewer cells than columns ends in one empty cell spanning the rest, as on the forum. */
function Row({ cells, aligns, header }: { cells: string[]; aligns: Align[]; header: boolean }) {
  const given = Math.min(cells.length, aligns.length);
  const shown = aligns.slice(0, given).map((align, n) => {
    const content = renderInline(cells[n]!);
    const cls = align ? `align-${align}` : undefined;
    return header ? <th class={cls}>{content}</th> : <td class={cls}>{content}</td>;
  });
  const rest = aligns.length - given;
  if (rest > 0) {
    const span = rest > 1 ? rest : undefined;
    shown.push(header ? <th colspan={span} /> : <td colspan={span} />);
  }
  return <tr>{shown}</tr>;
}

/** The table starting at line `i`, or null when the forum would not read one there. */
export function table(lines: string[], i: number): { node: Child; next: number } | null {
  const head = lines[i]!;
  if (!head.includes("|") || i + 1 >= lines.length) return null;
  const columns = cellsOf(head).length;
  const aligns = alignments(lines[i + 1]!, columns);
  if (!aligns) return null;
  let next = i + 2;
  const rows: string[][] = [];
  while (next < lines.length && lines[next]!.includes("|")) rows.push(cellsOf(lines[next++]!));
  const node = (
    <table>
      <thead>
        <Row cells={cellsOf(head)} aligns={aligns} header />
      </thead>
      <tbody>
        {rows.map((cells) => (
          <Row cells={cells} aligns={aligns} header={false} />
        ))}
      </tbody>
    </table>
  );
  return { node, next };
}
