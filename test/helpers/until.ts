// Waiting for something the test cannot await directly (a queue delivery, a consumer in line for the
// browser): a bounded poll. The bound only matters when the test is failing; the caller asserts on the result.

/** Polls `probe` until `ok` accepts its value or `timeoutMs` passed; the last value either way. */
export async function until<T>(
  probe: () => Promise<T>,
  ok: (value: T) => boolean,
  timeoutMs = 5000,
  intervalMs = 20,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (ok(value) || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
