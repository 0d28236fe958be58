// Failed password sign-ins of the last window, counted per email (by digest) and per client address.
import { and, count, eq, gt, lt, min } from "drizzle-orm";
import type { Database } from "./client";
import { signInFailures } from "./schema-people";

/** How many failures the bucket had since `since`, and when the oldest of them was. */
export async function failuresSince(db: Database, bucket: string, since: string) {
  const row = await db
    .select({ n: count(), oldest: min(signInFailures.at) })
    .from(signInFailures)
    .where(and(eq(signInFailures.bucket, bucket), gt(signInFailures.at, since)))
    .get();
  return { n: row?.n ?? 0, oldest: row?.oldest ?? null };
}

/** One failure in each bucket, and failures older than `forgetBefore` gone (they no longer count). */
export async function addFailure(db: Database, buckets: string[], at: string, forgetBefore: string): Promise<void> {
  await db.batch([
    db.insert(signInFailures).values(buckets.map((bucket) => ({ bucket, at }))),
    db.delete(signInFailures).where(lt(signInFailures.at, forgetBefore)),
  ]);
}
