// Fetching the open web safely (docs/security.md, "Fetching the open web"): the one entry the rest of the
// service fetches through. http/https only, no credentials, no private or metadata addresses unless the
// policy allows them (address-policy.ts); at most 5 redirects, each re-checked, under one deadline and a
// descriptive User-Agent (fetch-resource.ts); size caps enforced while the body streams in
// (capped-body.ts); robots.txt honoured on every hop (robots.ts).
import type { FetchedResource, FetchResourceOptions } from "./fetch-resource";
import { fetchResource } from "./fetch-resource";
import { assertRobotsAllow } from "./robots";

export interface SafeFetchOptions extends FetchResourceOptions {
  /** Skip the robots.txt check (robots.txt itself, or a fetch the caller already checked). */
  skipRobots?: boolean;
}

/**
 * Fetches `url` under the fetch policy: redirects followed by hand (each target re-checked, robots
 * included), the body read with the size cap of `kind`, and one deadline for the whole exchange.
 * Non-2xx answers throw FetchError("http_status") unless `acceptStatus` takes them.
 */
export function safeFetch(url: string, options: SafeFetchOptions): Promise<FetchedResource> {
  const { skipRobots, ...fetchOptions } = options;
  if (skipRobots) return fetchResource(url, fetchOptions);
  return fetchResource(url, fetchOptions, (target, deadline, timeoutMs) =>
    assertRobotsAllow(target, options.policy, deadline, timeoutMs),
  );
}
