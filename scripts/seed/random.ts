/**
 * mulberry32: a small, fast, seedable PRNG for synthetic data (demo seeding, tests) that must look varied and
 * be reproducible. Never for secrets: keys use crypto.getRandomValues (src/auth/keys.ts).
 * Pure and import-free, so Node scripts import it directly (type stripping).
 */
export function createRandom(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number) => Math.floor(next() * max);
  return {
    next,
    int,
    pick: <T>(items: readonly T[]): T => items[int(items.length)]!,
    chance: (p: number) => next() < p,
  };
}
