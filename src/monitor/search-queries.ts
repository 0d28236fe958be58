// OR-batched search queries (docs/monitoring.md, "Backfill"): every tracked term once, quoted, packed into as few queries
// as fit the forum's query length. Pure.

/** The forum's search query length limit, in characters. */
export const MAX_QUERY_LENGTH = 512;

/** `"term"`: the forum's phrase syntax. A double quote inside a term cannot be written, so it becomes a space. */
export const quoteTerm = (term: string) => `"${term.replace(/"/g, " ").replace(/\s+/g, " ").trim()}"`;

/**
 * Packs the terms (deduplicated case-insensitively, in a stable order so a query keeps its text, and so its
 * saved cursor, from pass to pass) greedily into `"a" OR "b" OR ...` queries of at most `maxLength`
 * characters. A term too long for a query of its own is cut to fit (terms are at most 200 characters).
 */
export function batchQueries(terms: string[], maxLength = MAX_QUERY_LENGTH): string[] {
  const seen = new Set<string>();
  const quoted: string[] = [];
  for (const term of terms) {
    const q = quoteTerm(term);
    const key = q.toLowerCase();
    if (q === '""' || seen.has(key)) continue;
    seen.add(key);
    quoted.push(q.length > maxLength ? `${q.slice(0, maxLength - 1)}"` : q);
  }
  quoted.sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0));
  const queries: string[] = [];
  let current = "";
  for (const q of quoted) {
    const joined = current === "" ? q : `${current} OR ${q}`;
    if (joined.length <= maxLength) current = joined;
    else {
      queries.push(current);
      current = q;
    }
  }
  if (current !== "") queries.push(current);
  return queries;
}
