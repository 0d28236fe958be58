// Tables of data (not of layout): kept whole by cleaning, and rendered as tables.

import { type ElementNode, findAll, isElement } from "../html-tree";

const dataTables = new WeakSet<ElementNode>();

export function markDataTables(content: ElementNode): void {
  for (const table of findAll(content, "table")) {
    const role = table.attrs.role;
    if (role === "presentation") continue;
    if (table.attrs.datatable === "0") continue;
    if (
      table.attrs.summary ||
      findAll(table, "caption").length ||
      findAll(table, new Set(["col", "colgroup", "tfoot", "thead", "th"])).length
    ) {
      dataTables.add(table);
      continue;
    }
    if (findAll(table, "table").length) continue;
    const rows = findAll(table, "tr");
    const columns = Math.max(
      0,
      ...rows.map((r) => r.children.filter((c) => isElement(c) && (c.tag === "td" || c.tag === "th")).length),
    );
    if (rows.length >= 10 || columns > 4 || rows.length * columns > 10) dataTables.add(table);
  }
}

export function isDataTable(table: ElementNode): boolean {
  return dataTables.has(table);
}

export function hasAncestorTable(el: ElementNode): boolean {
  let current = el.parent;
  while (current) {
    if (current.tag === "table" && isDataTable(current)) return true;
    current = current.parent;
  }
  return false;
}
