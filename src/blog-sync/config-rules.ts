// The rules of a sync config that do not need the database: how blog URLs and subreddits are normalized,
// which blog URLs may be fetched, and the fingerprint of the settings a run depends on (docs/blog-sync.md, "Fingerprint").

import { canonicalizeUrl, FetchError, type FetchPolicy } from "../articles";
import { sha256Hex } from "../lib/crypto";
import { invalidInput } from "../lib/domain-errors";
import { assertFetchableUrl } from "../outbound/address-policy";

export function normalizeSubreddit(input: string): string {
  return input.trim().replace(/^\/?r\//i, "");
}

const invalidField = (path: string, message: string) => invalidInput([{ path, message }]);

/**
 * Checks a blog URL before it is stored: absolute http(s), no credentials, and no loopback, private, link-local or
 * local-style host unless private fetches are allowed (docs/security.md, "Fetching the open web"). Returns the
 * canonical URL.
 */
export function checkBlogUrl(input: string, allowPrivate: boolean): string {
  try {
    assertFetchableUrl(input.trim(), allowPrivate);
    return canonicalizeUrl(input);
  } catch (err) {
    if (err instanceof FetchError || err instanceof TypeError) {
      const message =
        err instanceof FetchError && err.code === "blocked_address"
          ? "must be a public address: loopback, private, link-local and local-network hosts are refused"
          : "must be an absolute http(s) URL without credentials";
      throw invalidField("body.blog_url", message);
    }
    throw err;
  }
}

export const allowPrivateFetch = (env: { ALLOW_PRIVATE_FETCH?: string }) => env.ALLOW_PRIVATE_FETCH === "true";

export const fetchPolicy = (env: { ALLOW_PRIVATE_FETCH?: string }): FetchPolicy => ({
  allowPrivate: allowPrivateFetch(env),
});

/** The settings a run depends on; a change to any of them aborts an active run. */
export interface FingerprintedSettings {
  blogUrl: string;
  subreddit: string;
  personaId: number | null;
  active: boolean;
  includeMedia: boolean;
  publishImmediately: boolean;
  maxPosts: number;
}

/**
 * SHA-256 hex of the canonical JSON (keys sorted, no whitespace) of the fingerprinted settings. The
 * subreddit is compared case-insensitively, as Reddit does.
 */
export function configFingerprint(s: FingerprintedSettings): Promise<string> {
  const canonical = {
    active: s.active,
    blog_url: s.blogUrl,
    include_media: s.includeMedia,
    max_posts: s.maxPosts,
    persona_id: s.personaId,
    publish_immediately: s.publishImmediately,
    subreddit: s.subreddit.toLowerCase(),
  };
  return sha256Hex(JSON.stringify(canonical));
}
