// Percentiles for the benchmarks, one method for all of them.

/**
 * The p-th percentile (0 < p <= 100) of `sorted` (ascending) by nearest rank: the value at rank
 * ceil(p/100 × n), i.e. the smallest sample with at least p % of the samples at or below it.
 * Undefined for an empty list.
 */
export function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** A sorted (ascending) copy of numeric samples. */
export const ascending = (values) => [...values].sort((a, b) => a - b);
