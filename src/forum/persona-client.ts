// The forum client of publishing (docs/publishing.md, "Forum API calls"): every call from the Worker to the
// OAuth host (REDDIT_API_BASE_URL) with the persona's bearer token and the deployment's User-Agent, under the
// deployment's forum quota (src/durable/forum-quota.ts). Who am I, subreddit about, post requirements, link
// flair templates, the media lease and the upload to the lease's own host, submit, the submitted list and
// /api/info. No cookie and no modhash is ever sent. Every answer is validated; every failure becomes one
// ForumError whose message says what a person can do about it.
import type { z } from "zod";
import type { WorkspaceDb } from "../db/client";
import type { Env } from "../env";
import { assertFetchableUrl, isPrivateHost } from "../outbound/address-policy";
import { personaAccessToken, requireOAuthClient } from "../personas/grants";
import { DEFAULT_API_BASE_URL } from "./app-client";
import { ForumError, parseRatelimitDelay } from "./errors";
import { headerNumber, QuotaGate } from "./quota-gate";
import {
  ErrorAnswer,
  type FlairTemplate,
  FlairTemplates,
  type InfoLink,
  InfoListing,
  MeAnswer,
  MediaAssetLease,
  PostRequirements,
  SubmitAnswer,
  SubmittedListing,
  SubmitValidationError,
  SubredditAbout,
} from "./schemas";

export interface Account {
  name: string;
  isSuspended: boolean;
}

export interface Subreddit {
  name: string;
  type: string;
  submissionType: string;
  allowImages: boolean;
  userIsBanned: boolean;
  userIsContributor: boolean;
  userIsModerator: boolean;
}

export type SubredditAnswer =
  | { status: "ok"; subreddit: Subreddit }
  | { status: "missing" | "private" | "banned" | "quarantined"; reason: string };

export type FlairAnswer = { available: true; templates: FlairTemplate[] } | { available: false; reason: string };

/** The exact form of a submission (docs/publishing.md, "Publish preflight"). */
export interface Submission {
  sr: string;
  kind: "self";
  title: string;
  text?: string;
  richtext_json?: string;
  flair_id?: string;
  sendreplies: boolean;
}

export interface SubmittedPost {
  id: string;
  title: string;
  subreddit: string;
  permalink: string;
  createdUtc: number | null;
}

export interface UploadedAsset {
  assetId: string;
}

interface Answer {
  status: number;
  text: string;
  headers: Headers;
}

const CALL_TIMEOUT_MS = 30_000;

const json = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** The address of a scheme-relative upload action (`//host/path`): https, or http for a local stand-in. */
export function uploadUrl(action: string, allowPrivate: boolean): string {
  if (!action.startsWith("//")) return action;
  const host = new URL(`https:${action}`).hostname;
  return `${allowPrivate && isPrivateHost(host) ? "http:" : "https:"}${action}`;
}

export class ForumClient {
  private readonly base: string;
  private readonly quota: QuotaGate;
  private readonly userAgent: string;

  constructor(
    private readonly env: Env,
    private readonly w: WorkspaceDb,
    private readonly persona: { id: number; username: string },
  ) {
    const client = requireOAuthClient(env);
    this.base = (env.REDDIT_API_BASE_URL?.trim() || DEFAULT_API_BASE_URL).replace(/\/+$/, "");
    this.quota = new QuotaGate(env, client.clientId);
    this.userAgent = client.userAgent;
  }

  private async once(what: string, url: string, init: RequestInit, token: string, sent: boolean): Promise<Answer> {
    const permit = await this.quota.permit(what);
    let res: Response;
    let text: string;
    try {
      res = await fetch(url, {
        ...init,
        headers: {
          ...(init.headers as Record<string, string>),
          authorization: `bearer ${token}`,
          "user-agent": this.userAgent,
        },
        signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      });
      text = await res.text();
    } catch (err) {
      const address = new URL(url).origin + new URL(url).pathname;
      throw sent
        ? new ForumError(
            "uncertain",
            `${what}: no answer from ${address} (${(err as Error).message}); the forum may or may not have acted`,
            { address },
          )
        : new ForumError(
            "unreachable",
            `${what}: the forum could not be reached at ${address} (${(err as Error).message}); check REDDIT_API_BASE_URL and the network`,
            { address },
          );
    }
    await this.quota.report(permit, res);
    return { status: res.status, text, headers: res.headers };
  }

  /**
   * One call to the OAuth host with the persona's bearer token. A 401 renews the token once and asks again
   * (nothing was done with a refused token); a 429 is the quota's `quota` error. `write`: a lost answer is
   * `uncertain`, not `unreachable`.
   */
  private async call(
    what: string,
    method: "GET" | "POST",
    path: string,
    params: Record<string, string> = {},
    write = false,
  ): Promise<Answer> {
    const query = method === "GET" ? `?${new URLSearchParams({ ...params, raw_json: "1" })}` : "?raw_json=1";
    const url = `${this.base}${path}${query}`;
    const init: RequestInit =
      method === "POST"
        ? {
            method,
            headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
            body: new URLSearchParams(params).toString(),
          }
        : { method, headers: { accept: "application/json" } };
    let token = await personaAccessToken(this.env, this.w, this.persona.id);
    let answer = await this.once(what, url, init, token, write);
    if (answer.status === 401) {
      token = await personaAccessToken(this.env, this.w, this.persona.id, { rejected: token });
      answer = await this.once(what, url, init, token, write);
      if (answer.status === 401)
        throw new ForumError(
          "grant",
          `${what}: the forum refused u/${this.persona.username}'s token (401); connect the account again`,
          { status: 401 },
        );
    }
    if (answer.status === 429) {
      const seconds = Math.ceil(
        headerNumber(answer.headers, "retry-after") ?? headerNumber(answer.headers, "x-ratelimit-reset") ?? 60,
      );
      throw new ForumError("quota", `${what}: the forum answered 429 (too many requests); try again in ${seconds} s`, {
        status: 429,
        retryAfterSeconds: seconds,
      });
    }
    return answer;
  }

  private parse<T extends z.ZodType>(what: string, answer: Answer, schema: T): z.infer<T> {
    const parsed = schema.safeParse(json(answer.text));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ForumError(
        "invalid_answer",
        `${what}: the forum's answer (HTTP ${answer.status}) is not what its protocol says (${issue ? `${issue.path.join(".") || "body"}: ${issue.message}` : "unreadable"}); check REDDIT_API_BASE_URL`,
        { status: answer.status },
      );
    }
    return parsed.data;
  }

  private refused(what: string, answer: Answer): ForumError {
    const body = ErrorAnswer.safeParse(json(answer.text));
    const detail = body.success ? [body.data.reason, body.data.message].filter(Boolean).join(": ") : "";
    if (answer.status === 403 && /insufficient_scope/.test(answer.headers.get("www-authenticate") ?? ""))
      return new ForumError(
        "grant",
        `${what}: the grant lacks a scope this needs (403 insufficient_scope); connect the account again`,
        { status: 403 },
      );
    return new ForumError(
      "refused",
      `${what}: the forum answered HTTP ${answer.status}${detail ? ` (${detail})` : ""}`,
      {
        status: answer.status,
      },
    );
  }

  /** Who the token belongs to (GET /api/v1/me, a flat account object). */
  async me(): Promise<Account> {
    const what = "who am I (/api/v1/me)";
    const answer = await this.call(what, "GET", "/api/v1/me");
    if (answer.status !== 200) throw this.refused(what, answer);
    const me = this.parse(what, answer, MeAnswer);
    return { name: me.name, isSuspended: me.is_suspended ?? false };
  }

  async subreddit(sr: string): Promise<SubredditAnswer> {
    const what = `r/${sr} about`;
    const answer = await this.call(what, "GET", `/r/${encodeURIComponent(sr)}/about`);
    const body = json(answer.text);
    const error = ErrorAnswer.safeParse(body);
    const reason = error.success ? error.data.reason : undefined;
    const missing = { status: "missing", reason: `r/${sr} does not exist; check the config's subreddit` } as const;
    const banned = { status: "banned", reason: `r/${sr} is banned by the forum; choose another subreddit` } as const;
    if (answer.status === 404 || answer.status === 302) return reason === "banned" ? banned : missing;
    if (answer.status === 403) {
      if (reason === "quarantined")
        return { status: "quarantined", reason: `r/${sr} is quarantined; the account must opt in on the forum first` };
      if (reason === "banned") return banned;
      return {
        status: "private",
        reason: `r/${sr} is private and this account is not an approved member; ask its moderators for access or choose another subreddit`,
      };
    }
    if (answer.status !== 200) throw this.refused(what, answer);
    // A name that matches nothing answers an empty search listing instead of a subreddit.
    if (body && typeof body === "object" && (body as { kind?: string }).kind === "Listing") return missing;
    const about = this.parse(what, answer, SubredditAbout).data;
    return {
      status: "ok",
      subreddit: {
        name: about.display_name,
        type: about.subreddit_type,
        submissionType: about.submission_type ?? "any",
        allowImages: about.allow_images ?? false,
        userIsBanned: about.user_is_banned ?? false,
        userIsContributor: about.user_is_contributor ?? false,
        userIsModerator: about.user_is_moderator ?? false,
      },
    };
  }

  async postRequirements(sr: string): Promise<PostRequirements> {
    const what = `r/${sr} post requirements`;
    const answer = await this.call(what, "GET", `/api/v1/${encodeURIComponent(sr)}/post_requirements`);
    if (answer.status !== 200) throw this.refused(what, answer);
    return this.parse(what, answer, PostRequirements);
  }

  /** The subreddit's link flair templates; a 403 (flair not visible to this account) is an answer. */
  async linkFlairs(sr: string): Promise<FlairAnswer> {
    const what = `r/${sr} link flair templates`;
    const answer = await this.call(what, "GET", `/r/${encodeURIComponent(sr)}/api/link_flair_v2`);
    if (answer.status === 403)
      return {
        available: false,
        reason: `the forum does not show r/${sr}'s link flair templates to this account (403)`,
      };
    if (answer.status !== 200) throw this.refused(what, answer);
    return { available: true, templates: this.parse(what, answer, FlairTemplates) };
  }

  /** Leases a media asset, then uploads the file to the lease's own form (another host, no token sent there). */
  async uploadMedia(file: { name: string; type: string; bytes: Uint8Array }): Promise<UploadedAsset> {
    const what = `media upload of ${file.name}`;
    const answer = await this.call(what, "POST", "/api/media/asset.json", {
      api_type: "json",
      filepath: file.name,
      mimetype: file.type,
    });
    if (answer.status !== 200) throw this.refused(what, answer);
    const lease = this.parse(what, answer, MediaAssetLease);
    const allowPrivate = this.env.ALLOW_PRIVATE_FETCH === "true";
    let action: URL;
    try {
      action = assertFetchableUrl(uploadUrl(lease.args.action, allowPrivate), allowPrivate);
    } catch (err) {
      throw new ForumError("upload", `${what}: the upload form's address is refused: ${(err as Error).message}`);
    }
    const form = new FormData();
    for (const field of lease.args.fields) form.append(field.name, field.value);
    form.append("file", new Blob([file.bytes], { type: file.type }), file.name);
    let res: Response;
    let text: string;
    try {
      res = await fetch(action, { method: "POST", body: form, signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
      text = await res.text();
    } catch (err) {
      throw new ForumError(
        "upload",
        `${what}: the upload form at ${action.origin} did not answer (${(err as Error).message})`,
        {
          address: action.origin,
        },
      );
    }
    if (res.status < 200 || res.status >= 300) {
      const code = /<Code>([^<]*)<\/Code>/.exec(text)?.[1];
      const message = /<Message>([^<]*)<\/Message>/.exec(text)?.[1];
      throw new ForumError(
        "upload",
        `${what}: the upload form refused the file (HTTP ${res.status}${code ? ` ${code}` : ""}${message ? `: ${message}` : ""})`,
        { status: res.status, code },
      );
    }
    return { assetId: lease.asset.asset_id };
  }

  /** Submits a self post. A RATELIMIT answer is ForumError `ratelimit` with the delay it names. */
  async submit(submission: Submission): Promise<{ id: string; url: string | null }> {
    const what = `submission to r/${submission.sr}`;
    const form: Record<string, string> = {
      api_type: "json",
      sr: submission.sr,
      kind: submission.kind,
      title: submission.title,
      sendreplies: String(submission.sendreplies),
      validate_on_submit: "true",
      resubmit: "true",
    };
    if (submission.text !== undefined) form.text = submission.text;
    if (submission.richtext_json !== undefined) form.richtext_json = submission.richtext_json;
    if (submission.flair_id !== undefined) form.flair_id = submission.flair_id;
    const answer = await this.call(what, "POST", "/api/submit", form, true);
    // A gateway error after a submit says nothing about whether the forum stored the post.
    if (answer.status >= 500)
      throw new ForumError(
        "uncertain",
        `${what}: the forum answered HTTP ${answer.status}; the post may or may not exist`,
        {
          status: answer.status,
        },
      );
    if (answer.status === 400) {
      const refusal = SubmitValidationError.safeParse(json(answer.text));
      if (refusal.success) {
        const r = refusal.data;
        throw new ForumError(
          "refused",
          `${what}: the subreddit's rules refused it: ${r.reason}${r.explanation ? `: ${r.explanation.trim()}` : ""}${r.fields?.length ? ` (${r.fields.join(", ")})` : ""}`,
          { status: 400, code: r.reason },
        );
      }
    }
    if (answer.status !== 200) throw this.refused(what, answer);
    return submitted(what, this.parse(what, answer, SubmitAnswer).json);
  }

  /** The account's newest submissions (to find a post after an uncertain submission). */
  async submitted(username: string, limit = 25): Promise<SubmittedPost[]> {
    const what = `u/${username}'s submitted list`;
    const answer = await this.call(what, "GET", `/user/${encodeURIComponent(username)}/submitted`, {
      limit: String(limit),
      sort: "new",
    });
    if (answer.status !== 200) throw this.refused(what, answer);
    return this.parse(what, answer, SubmittedListing).data.children.map((child) => ({
      id: child.data.id,
      title: child.data.title,
      subreddit: child.data.subreddit,
      permalink: child.data.permalink,
      createdUtc: child.data.created_utc ?? null,
    }));
  }

  /** The links `fullnames` (`t3_...`, at most 100) as the persona sees them; ids the forum does not know are left out. */
  async info(fullnames: string[]): Promise<InfoLink[]> {
    if (fullnames.length === 0) return [];
    if (fullnames.length > 100) throw new Error("api/info takes at most 100 ids");
    const what = "the posts' state (/api/info)";
    const answer = await this.call(what, "GET", "/api/info", { id: fullnames.join(",") });
    if (answer.status !== 200) throw this.refused(what, answer);
    return this.parse(what, answer, InfoListing)
      .data.children.filter((c) => c.kind === "t3")
      .map((c) => c.data);
  }
}

/** The post a submit answer names, or the refusal its json.errors triples say. */
function submitted(what: string, answer: z.infer<typeof SubmitAnswer>["json"]): { id: string; url: string | null } {
  const first = answer.errors[0];
  if (first) {
    const [code, message, field] = first;
    if (code === "RATELIMIT") {
      const seconds =
        answer.ratelimit !== undefined ? Math.max(1, Math.ceil(answer.ratelimit)) : parseRatelimitDelay(message ?? "");
      throw new ForumError("ratelimit", `${what}: the forum's rate limit: ${message}`, {
        code,
        retryAfterSeconds: seconds,
      });
    }
    if (code === "USER_REQUIRED")
      throw new ForumError("grant", `${what}: the forum says nobody is signed in; connect the account again`, { code });
    throw new ForumError(
      "refused",
      `${what}: the forum refused it: ${code}${message ? `: ${message}` : ""}${field ? ` (${field})` : ""}`,
      { code: code ?? undefined },
    );
  }
  if (!answer.data) throw new ForumError("invalid_answer", `${what}: the forum's answer names no post`);
  return { id: answer.data.id, url: answer.data.url ?? null };
}
