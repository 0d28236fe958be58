// The forum's item ids (docs/monitoring.md, "The walk"): base 36, allocated in order, so the ids between two
// known ones are exactly the items made between them. Pure.

/** The forum's id kinds the walk reads: posts (links) and comments. */
export type ItemKind = "t3" | "t1";

const BASE36 = /^[0-9a-z]{1,10}$/;

/** The number of a base-36 id (`1k2z3` → 2,360,375,...); null for text that is not one (ids fit 10 digits). */
export function idNumber(id: string): number | null {
  const plain = id.startsWith("t3_") || id.startsWith("t1_") ? id.slice(3) : id;
  if (!BASE36.test(plain)) return null;
  return Number.parseInt(plain, 36);
}

/** The base-36 id of a number. */
export const idText = (n: number): string => n.toString(36);

/** The full name (`t3_1k2z3`) of an id number. */
export const fullName = (kind: ItemKind, n: number): string => `${kind}_${idText(n)}`;

/** The id numbers after `from` up to `to` (both ends' numbers; `from` excluded), at most `max` of them, oldest first. */
export function idsAfter(from: number, to: number, max: number): number[] {
  const out: number[] = [];
  for (let n = from + 1; n <= to && out.length < max; n++) out.push(n);
  return out;
}

/** The highest id among full names or plain ids (others ignored); null when there is none. */
export function newestId(ids: string[]): number | null {
  let best: number | null = null;
  for (const id of ids) {
    const n = idNumber(id);
    if (n !== null && (best === null || n > best)) best = n;
  }
  return best;
}
