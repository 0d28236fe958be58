// Discovery when the blog's robots.txt answers an error (RFC 9309, docs/blog-sync.md "Fetch errors"): a 5xx
// means "try again later" (nothing of the site is fetched, the error names the address asked for and says
// so, and the answer is remembered a minute); a 4xx means no rules.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { discoverPosts, FetchError } from "../../src/articles";

const blog = () => `${env.FIXTURE_ORIGIN}/blog`;

async function counts(ua: string): Promise<{ robots: number; other: number }> {
  const res = await fetch(`${env.FIXTURE_ORIGIN}/__robots-status/counts?ua=${encodeURIComponent(ua)}`);
  return res.json();
}

async function failure(promise: Promise<unknown>): Promise<FetchError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(FetchError);
  return err as FetchError;
}

describe("robots.txt answering an error", () => {
  it("5xx: discovery fetches nothing, names the blog address and says to try later; remembered a minute", async () => {
    const ua = `threadwatch-test robots-503-${crypto.randomUUID()}`;
    const policy = { allowPrivate: true, userAgent: ua };
    const host = new URL(env.FIXTURE_ORIGIN).host;

    const err = await failure(discoverPosts(`${blog()}/`, { policy }));
    expect(err.code).toBe("robots_disallowed");
    expect(err.url).toBe(`${blog()}/`);
    expect(err.message).toBe(
      `could not fetch ${blog()}/: ${host} answered its robots.txt with an error (${env.FIXTURE_ORIGIN}/robots.txt answered HTTP 503), which means "try again later"; nothing was fetched, and a later run retries`,
    );
    expect(await counts(ua)).toEqual({ robots: 1, other: 0 });

    // Within the minute the answer is reused: no second robots.txt request, still nothing fetched.
    const again = await failure(discoverPosts(`${blog()}/feed.xml`, { policy }));
    expect(again.code).toBe("robots_disallowed");
    expect(again.message).toContain(`could not fetch ${blog()}/feed.xml: `);
    expect(await counts(ua)).toEqual({ robots: 1, other: 0 });
  });

  it("4xx: no rules, discovery goes on", async () => {
    const ua = `threadwatch-test robots-404-${crypto.randomUUID()}`;
    const found = await discoverPosts(`${blog()}/`, { policy: { allowPrivate: true, userAgent: ua } });
    expect(found.sourceKind).toBe("feed");
    expect(found.posts.length).toBeGreaterThan(0);
    const seen = await counts(ua);
    expect(seen.robots).toBe(1);
    expect(seen.other).toBeGreaterThan(0);
  });
});
