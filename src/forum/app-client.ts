// The forum's data API (docs/monitoring.md), the one module that speaks its protocol: app-only OAuth
// (client_credentials, HTTP Basic), a descriptive User-Agent, /search and /api/info, every answer validated
// with zod, every request under the deployment-wide quota (src/durable/forum-quota.ts).
import { z } from "zod";
import type { ForumQuota, Permit, QuotaReport } from "../durable/forum-quota";
import type { Env } from "../env";
import { log } from "../lib/log";
import { headerNumber } from "./quota-gate";

export const DEFAULT_AUTH_URL = "https://www.reddit.com/api/v1/access_token";
export const DEFAULT_API_BASE_URL = "https://oauth.reddit.com";
export const DEFAULT_USER_AGENT = "cloudflare-workers:threadwatch:1.0.0 (forum monitoring)";

export interface ForumApiConfig {
  clientId: string;
  clientSecret: string;
  userAgent: string;
  authUrl: string;
  apiBaseUrl: string;
}

/** The configuration from the Worker's settings, or null when no client id is set (monitoring is off). */
export function forumApiConfig(env: Env): ForumApiConfig | null {
  const clientId = env.REDDIT_CLIENT_ID?.trim();
  if (!clientId) return null;
  return {
    clientId,
    clientSecret: env.REDDIT_CLIENT_SECRET ?? "",
    userAgent: env.REDDIT_USER_AGENT?.trim() || DEFAULT_USER_AGENT,
    authUrl: env.REDDIT_AUTH_URL?.trim() || DEFAULT_AUTH_URL,
    apiBaseUrl: (env.REDDIT_API_BASE_URL?.trim() || DEFAULT_API_BASE_URL).replace(/\/+$/, ""),
  };
}

/** The quota has no permit left before the pass's deadline, or the deadline passed: the pass stops as `partial`. */
export class QuotaExhausted extends Error {
  constructor(message: string) {
    super(message);
    this.name = "QuotaExhausted";
  }
}

/** The forum answered something we cannot use (an error status, a body that is not what it documents). */
export class ForumApiError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ForumApiError";
  }
}

const TokenAnswer = z.object({
  access_token: z.string().min(1),
  token_type: z.string(),
  expires_in: z.number().positive(),
});

/** A link (`t3`) as /search and /api/info give it: the fields we store, the rest ignored. */
const LinkData = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  subreddit: z.string(),
  title: z.string(),
  selftext: z.string().nullish(),
  author: z.string().nullish(),
  url: z.string().nullish(),
  permalink: z.string(),
  score: z.number(),
  num_comments: z.number(),
  created_utc: z.number(),
});
export type ForumLink = z.infer<typeof LinkData>;

/** A comment (`t1`) as /api/info and /r/all/comments give it: the fields we store, the rest ignored. */
const CommentData = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  link_id: z.string().min(1),
  subreddit: z.string(),
  body: z.string(),
  author: z.string().nullish(),
  permalink: z.string(),
  score: z.number(),
  created_utc: z.number(),
  link_title: z.string().nullish(),
});
export type ForumComment = z.infer<typeof CommentData>;

const Listing = z.object({
  kind: z.literal("Listing"),
  data: z.object({
    after: z.string().nullish(),
    children: z.array(z.object({ kind: z.string(), data: z.unknown() })),
  }),
});

export interface ListingPage {
  links: ForumLink[];
  after: string | null;
}

export interface ListingItems extends ListingPage {
  comments: ForumComment[];
}

/** Listing caps of the forum: 100 items a page, 100 ids an /api/info request. */
export const PAGE_LIMIT = 100;
export const INFO_IDS = 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface ForumApiOptions {
  /** Epoch ms by which the caller must be done: waits for the quota past it end in QuotaExhausted. */
  deadline: number;
  /** Called for every request to the data API (429s included, token requests not). */
  onRequest?: () => void;
  /** Where the time is read (epoch ms) for the deadline, the quota and the token's expiry; tests move it by hand. */
  now?: () => number;
}

export class ForumApi {
  private readonly quota: DurableObjectStub<ForumQuota>;

  constructor(
    env: Env,
    private readonly config: ForumApiConfig,
    private readonly options: ForumApiOptions,
  ) {
    this.quota = env.FORUM_QUOTA.get(env.FORUM_QUOTA.idFromName(config.clientId));
  }

  private now(): number {
    return this.options.now ? this.options.now() : Date.now();
  }

  /**
   * A request to the forum and its answer's text, given up at the pass's deadline: a forum that holds a
   * request does not hold the pass past its time budget (it ends `partial`, as when the quota runs out).
   */
  private async fetchText(url: string, init: RequestInit): Promise<{ res: Response; text: string }> {
    const signal = AbortSignal.timeout(Math.max(1, this.options.deadline - this.now()));
    try {
      const res = await fetch(url, { ...init, signal });
      return { res, text: await res.text() };
    } catch (err) {
      if (signal.aborted) throw new QuotaExhausted("the pass's time budget ran out waiting for the forum's answer");
      throw new ForumApiError(`the forum could not be reached: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** The cached token, or a new one from the token endpoint (app-only: client_credentials, HTTP Basic). */
  private async token(): Promise<string> {
    const cached = await this.quota.cachedToken(this.now());
    if (cached) return cached;
    const basic = btoa(`${this.config.clientId}:${this.config.clientSecret}`);
    const { res, text } = await this.fetchText(this.config.authUrl, {
      method: "POST",
      headers: {
        authorization: `Basic ${basic}`,
        "content-type": "application/x-www-form-urlencoded",
        "user-agent": this.config.userAgent,
      },
      body: "grant_type=client_credentials",
    });
    if (!res.ok) throw new ForumApiError(`the token endpoint answered ${res.status}: ${text.slice(0, 200)}`);
    const parsed = TokenAnswer.safeParse(safeJson(text));
    if (!parsed.success) throw new ForumApiError("the token endpoint's answer has no access_token/expires_in");
    await this.quota.storeToken(parsed.data.access_token, parsed.data.expires_in, this.now());
    return parsed.data.access_token;
  }

  /** Waits for a permit while the deadline allows; past it, QuotaExhausted. */
  private async permit(): Promise<number> {
    for (;;) {
      if (this.now() >= this.options.deadline) throw new QuotaExhausted("the pass's time budget ran out");
      const p: Permit = await this.quota.acquire(this.now());
      if (p.ok) return p.permit;
      if (this.now() + p.waitMs > this.options.deadline)
        throw new QuotaExhausted(`the forum API quota has no request left for ${Math.ceil(p.waitMs / 1000)} s`);
      await sleep(Math.max(50, p.waitMs));
    }
  }

  /** One GET of the data API under the quota: a 429 waits for the reset and tries again; a 401 renews the token once. */
  private async get(path: string, params: Record<string, string>): Promise<unknown> {
    const url = `${this.config.apiBaseUrl}${path}?${new URLSearchParams(params)}`;
    let renewed = false;
    for (;;) {
      const token = await this.token();
      const permit = await this.permit();
      this.options.onRequest?.();
      const { res, text } = await this.fetchText(url, {
        headers: { authorization: `bearer ${token}`, "user-agent": this.config.userAgent },
      });
      const report: QuotaReport = {
        permit,
        remaining: headerNumber(res.headers, "x-ratelimit-remaining"),
        resetSeconds: headerNumber(res.headers, "x-ratelimit-reset"),
        status: res.status,
      };
      await this.quota.report(report, this.now());
      if (res.status === 429) continue; // the quota now blocks until the reset; permit() waits or gives up
      if (res.status === 401 && !renewed) {
        renewed = true;
        await this.quota.dropToken(token);
        continue;
      }
      if (!res.ok) throw new ForumApiError(`GET ${path} answered ${res.status}: ${text.slice(0, 200)}`);
      const body = safeJson(text);
      if (body === undefined) throw new ForumApiError(`GET ${path} answered something that is not JSON`);
      return body;
    }
  }

  private static listing(body: unknown, what: string): ListingPage {
    const { links, after } = ForumApi.items(body, what);
    return { links, after };
  }

  /** The links and comments of a listing (/api/info answers both kinds, and subreddits, mixed). */
  private static items(body: unknown, what: string): ListingItems {
    const parsed = Listing.safeParse(body);
    if (!parsed.success) throw new ForumApiError(`${what}: the answer is not a listing`);
    const links: ForumLink[] = [];
    const comments: ForumComment[] = [];
    for (const child of parsed.data.data.children) {
      if (child.kind !== "t3" && child.kind !== "t1") continue;
      const item = (child.kind === "t3" ? LinkData : CommentData).safeParse(child.data);
      // One odd item must not stop every pass while it stays in the answers: it is left out, and said so.
      if (item.success) {
        if (child.kind === "t3") links.push(item.data as ForumLink);
        else comments.push(item.data as ForumComment);
      } else {
        const issue = item.error.issues[0];
        log("warn", "forum link skipped", {
          answer: what,
          link: fullnameOf(child.data),
          field: issue?.path.join(".") ?? null,
          problem: issue?.message ?? null,
        });
      }
    }
    return { links, comments, after: parsed.data.data.after ?? null };
  }

  /** One page of `/search` for new links, newest first; `week` limits the first pass to seven days. */
  async search(q: string, after: string | null, week: boolean): Promise<ListingPage> {
    const params: Record<string, string> = { q, sort: "new", type: "link", limit: String(PAGE_LIMIT), raw_json: "1" };
    if (week) params.t = "week";
    if (after) params.after = after;
    return ForumApi.listing(await this.get("/search", params), "search");
  }

  /** Current score, comments, title and body of up to 100 links by full name (`t3_...`). */
  async info(fullnames: string[]): Promise<ForumLink[]> {
    return (await this.infoItems(fullnames)).links;
  }

  /** Up to 100 items by full name, links (`t3_`) and comments (`t1_`) mixed; the ones not visible are absent. */
  async infoItems(fullnames: string[]): Promise<ListingItems> {
    if (fullnames.length === 0) return { links: [], comments: [], after: null };
    if (fullnames.length > INFO_IDS) throw new Error(`api/info takes at most ${INFO_IDS} ids`);
    return ForumApi.items(await this.get("/api/info", { id: fullnames.join(","), raw_json: "1" }), "api/info");
  }

  /** The newest items of the whole forum: `/r/all/new` (links) or `/r/all/comments` (comments), 100 of them. */
  async newest(kind: "t3" | "t1"): Promise<ListingItems> {
    const path = kind === "t3" ? "/r/all/new" : "/r/all/comments";
    return ForumApi.items(await this.get(path, { limit: String(PAGE_LIMIT), raw_json: "1" }), path);
  }
}

/** The full name (`t3_...`) of a link that failed its schema, when it has one. */
function fullnameOf(data: unknown): string | null {
  const name = (data as { name?: unknown } | null)?.name;
  return typeof name === "string" ? name : null;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** What the quota object says for monitoring's status (null before the forum's first answer). */
export async function quotaStatus(env: Env, config: ForumApiConfig) {
  return env.FORUM_QUOTA.get(env.FORUM_QUOTA.idFromName(config.clientId)).status();
}
