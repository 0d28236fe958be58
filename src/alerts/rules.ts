// The rules of a webhook that need no database: which URLs may receive deliveries (docs/alerts.md, and
// docs/security.md, "Fetching the open web") and what its sealed signing secret is bound to.
import type { Env } from "../env";
import { invalidInput } from "../lib/domain-errors";
import { messageOf } from "../lib/log";
import { assertFetchableUrl, assertPublicHost } from "../outbound/address-policy";
import { FetchError } from "../outbound/fetch-error";

export const allowPrivateWebhooks = (env: Pick<Env, "ALLOW_PRIVATE_FETCH">) => env.ALLOW_PRIVATE_FETCH === "true";

/** The additional data the sealed secret is bound to: a ciphertext copied to another workspace does not open. */
export const secretOwner = (workspaceId: number) => `workspace:${workspaceId}:webhook-signing-secret`;

/** Why a URL may not receive deliveries, in the API's words, or null when it may (literal addresses and names only). */
export function webhookUrlProblem(url: string, allowPrivate: boolean): string | null {
  let parsed: URL;
  try {
    parsed = assertFetchableUrl(url, allowPrivate);
  } catch (err) {
    if (!(err instanceof FetchError)) throw err;
    return err.code === "blocked_address"
      ? "must be a public address: loopback, private, link-local, metadata and local-network hosts are refused"
      : "must be an absolute https URL without credentials";
  }
  if (!allowPrivate && parsed.protocol !== "https:") return "must be an https URL";
  return null;
}

/**
 * Checks a webhook URL as docs/security.md ("Fetching the open web") says, DNS included (what the host name resolves
 * to); throws validation_failed.
 */
export async function checkWebhookUrl(env: Env, url: string): Promise<void> {
  const allowPrivate = allowPrivateWebhooks(env);
  const problem = webhookUrlProblem(url, allowPrivate);
  if (problem) throw invalidInput([{ path: "body.url", message: problem }]);
  try {
    await assertPublicHost(new URL(url), { allowPrivate }, AbortSignal.timeout(5_000));
  } catch (err) {
    if (err instanceof FetchError && err.code === "blocked_address")
      throw invalidInput([{ path: "body.url", message: `must be a public address: ${err.message}` }]);
    throw invalidInput([
      { path: "body.url", message: `the host name could not be checked (${messageOf(err)}); try again` },
    ]);
  }
}
