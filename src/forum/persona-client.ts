// The forum client (docs/publishing.md): who am I, subreddit about, post requirements, link flair templates, media
// upload, submit and the submitted list, each sent from the logged-in browser page. Every answer is
// validated; every failure becomes one ForumError whose message says what a person can do about it.
import type { z } from "zod";
import { BrowserError, type BrowserSession, type PageResponse } from "../browser/forum-browser";
import { ForumError, parseRatelimitDelay } from "./errors";
import {
  ErrorAnswer,
  type FlairTemplate,
  FlairTemplates,
  MeAnswer,
  MediaAssetLease,
  PostRequirements,
  SubmitAnswer,
  SubmittedListing,
  SubredditAbout,
} from "./schemas";

export interface Account {
  name: string;
  modhash: string | null;
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

const json = (res: PageResponse): unknown => {
  try {
    return JSON.parse(res.text);
  } catch {
    return undefined;
  }
};

const looksLikeLoginPage = (res: PageResponse) => /\/login\b/.test(new URL(res.url).pathname);

export class ForumClient {
  private modhash: string | null = null;

  constructor(
    private readonly session: BrowserSession,
    /** FORUM_BASE_URL without a trailing slash. */
    private readonly base: string,
  ) {}

  private async send(
    what: string,
    method: "GET" | "POST",
    path: string,
    form?: Record<string, string>,
  ): Promise<PageResponse> {
    const headers: Record<string, string> = { accept: "application/json" };
    if (method === "POST" && this.modhash) headers["x-modhash"] = this.modhash;
    try {
      const res = await this.session.request({ method, url: `${this.base}${path}`, headers, form });
      if (looksLikeLoginPage(res))
        throw new ForumError(
          "logged_out",
          `${what}: the forum sent the browser to its login page; the session expired: upload fresh cookies with PUT /actions/personas/:id/session`,
          { status: res.status },
        );
      return res;
    } catch (err) {
      if (err instanceof BrowserError) {
        if (err.kind === "network")
          throw new ForumError("uncertain", `${what}: the forum did not answer (${err.message})`);
        throw new ForumError("unreachable", `${what}: ${err.message}`);
      }
      throw err;
    }
  }

  private parse<T extends z.ZodType>(what: string, res: PageResponse, schema: T): z.infer<T> {
    const body = json(res);
    const parsed = schema.safeParse(body);
    if (!parsed.success)
      throw new ForumError(
        "invalid_answer",
        `${what}: the forum's answer (HTTP ${res.status}) is not what its protocol says: ${parsed.error.issues[0]?.message ?? "unreadable"}`,
        { status: res.status },
      );
    return parsed.data;
  }

  private refused(what: string, res: PageResponse): ForumError {
    const body = ErrorAnswer.safeParse(json(res));
    const detail = body.success ? [body.data.reason, body.data.message].filter(Boolean).join(": ") : "";
    if (res.status === 401)
      return new ForumError(
        "logged_out",
        `${what}: the forum answered 401 (not logged in); the session expired: upload fresh cookies with PUT /actions/personas/:id/session`,
        { status: 401 },
      );
    if (res.status === 429)
      return new ForumError("ratelimit", `${what}: the forum answered 429 (too many requests)`, {
        status: 429,
        retryAfterSeconds: 60,
      });
    return new ForumError("refused", `${what}: the forum answered HTTP ${res.status}${detail ? ` (${detail})` : ""}`, {
      status: res.status,
    });
  }

  /** Who is logged in; also keeps the modhash for the writes that follow. */
  async me(): Promise<Account> {
    const what = "who am I (/api/me.json)";
    const res = await this.send(what, "GET", "/api/me.json");
    if (res.status === 401 || res.status === 403) throw this.refused(what, res);
    if (res.status !== 200) throw this.refused(what, res);
    const me = this.parse(what, res, MeAnswer);
    if (!me.name)
      throw new ForumError(
        "logged_out",
        "the forum says nobody is logged in: the session expired or the cookies are not a logged-in account's; upload fresh cookies with PUT /actions/personas/:id/session",
      );
    if (me.is_suspended) throw new ForumError("refused", `the forum account u/${me.name} is suspended; it cannot post`);
    this.modhash = me.modhash ?? null;
    return { name: me.name, modhash: this.modhash };
  }

  async subreddit(sr: string): Promise<SubredditAnswer> {
    const what = `r/${sr} about`;
    const res = await this.send(what, "GET", `/r/${encodeURIComponent(sr)}/about.json`);
    const body = json(res);
    const error = ErrorAnswer.safeParse(body);
    if (res.status === 404 || res.status === 302)
      return error.success && error.data.reason === "banned"
        ? { status: "banned", reason: `r/${sr} is banned by the forum; choose another subreddit` }
        : { status: "missing", reason: `r/${sr} does not exist; check the config's subreddit` };
    if (res.status === 403) {
      const reason = error.success ? error.data.reason : undefined;
      if (reason === "quarantined")
        return { status: "quarantined", reason: `r/${sr} is quarantined; the account must opt in on the forum first` };
      if (reason === "banned")
        return { status: "banned", reason: `r/${sr} is banned by the forum; choose another subreddit` };
      return {
        status: "private",
        reason: `r/${sr} is private and this account is not an approved member; ask its moderators for access or choose another subreddit`,
      };
    }
    if (res.status !== 200) throw this.refused(what, res);
    // A name that matches nothing answers an empty search listing instead of a subreddit.
    if (body && typeof body === "object" && (body as { kind?: string }).kind === "Listing")
      return { status: "missing", reason: `r/${sr} does not exist; check the config's subreddit` };
    const about = this.parse(what, res, SubredditAbout).data;
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
    const res = await this.send(what, "GET", `/api/v1/${encodeURIComponent(sr)}/post_requirements`);
    if (res.status !== 200) throw this.refused(what, res);
    return this.parse(what, res, PostRequirements);
  }

  /** The subreddit's link flair templates; a 403 (flair not visible to this account) is an answer. */
  async linkFlairs(sr: string): Promise<FlairAnswer> {
    const what = `r/${sr} link flair templates`;
    const res = await this.send(what, "GET", `/r/${encodeURIComponent(sr)}/api/link_flair_v2`);
    if (res.status === 403)
      return {
        available: false,
        reason: `the forum does not show r/${sr}'s link flair templates to this account (403)`,
      };
    if (res.status !== 200) throw this.refused(what, res);
    return { available: true, templates: this.parse(what, res, FlairTemplates) };
  }

  /** Leases a media asset and uploads the file to the form the forum answers with. */
  async uploadMedia(file: { name: string; type: string; bytes: Uint8Array }): Promise<UploadedAsset> {
    const what = `media upload of ${file.name}`;
    const res = await this.send(what, "POST", "/api/media/asset.json", {
      api_type: "json",
      filepath: file.name,
      mimetype: file.type,
    });
    if (res.status !== 200) throw this.refused(what, res);
    const lease = this.parse(what, res, MediaAssetLease);
    const key = lease.args.fields.find((f) => f.name === "key")?.value;
    const assetId = lease.asset?.asset_id ?? key?.split("/").pop();
    if (!assetId) throw new ForumError("invalid_answer", `${what}: the forum's upload lease names no asset id`);
    const action = lease.args.action.startsWith("//")
      ? `${new URL(this.base).protocol}${lease.args.action}`
      : lease.args.action;
    let upload: PageResponse;
    try {
      upload = await this.session.request({
        method: "POST",
        url: action,
        multipart: {
          fields: lease.args.fields,
          file: { field: "file", name: file.name, type: file.type, base64: toBase64(file.bytes) },
        },
      });
    } catch (err) {
      if (err instanceof BrowserError)
        throw new ForumError("upload", `${what}: the upload form did not answer (${err.message})`);
      throw err;
    }
    if (upload.status < 200 || upload.status >= 300) {
      const code = /<Code>([^<]*)<\/Code>/.exec(upload.text)?.[1];
      const message = /<Message>([^<]*)<\/Message>/.exec(upload.text)?.[1];
      throw new ForumError(
        "upload",
        `${what}: the upload form refused the file (HTTP ${upload.status}${code ? ` ${code}` : ""}${message ? `: ${message}` : ""})`,
        { status: upload.status, code },
      );
    }
    return { assetId };
  }

  /** Submits a self post. A RATELIMIT answer is a ForumError `ratelimit` with the delay it names. */
  async submit(submission: Submission): Promise<{ id: string; url: string | null }> {
    const what = `submission to r/${submission.sr}`;
    const form: Record<string, string> = {
      api_type: "json",
      sr: submission.sr,
      kind: submission.kind,
      title: submission.title,
      sendreplies: String(submission.sendreplies),
      resubmit: "true",
    };
    if (submission.text !== undefined) form.text = submission.text;
    if (submission.richtext_json !== undefined) form.richtext_json = submission.richtext_json;
    if (submission.flair_id !== undefined) form.flair_id = submission.flair_id;
    if (this.modhash) form.uh = this.modhash;
    const res = await this.send(what, "POST", "/api/submit", form);
    // A gateway error after a submit says nothing about whether the forum stored the post.
    if (res.status >= 500)
      throw new ForumError(
        "uncertain",
        `${what}: the forum answered HTTP ${res.status}; the post may or may not exist`,
        {
          status: res.status,
        },
      );
    if (res.status !== 200) throw this.refused(what, res);
    const answer = this.parse(what, res, SubmitAnswer).json;
    const first = answer.errors[0];
    if (first) {
      const [code, message, field] = first;
      if (code === "RATELIMIT") {
        const seconds =
          answer.ratelimit !== undefined
            ? Math.max(1, Math.ceil(answer.ratelimit))
            : parseRatelimitDelay(message ?? "");
        throw new ForumError("ratelimit", `${what}: the forum's rate limit: ${message}`, {
          code,
          retryAfterSeconds: seconds,
        });
      }
      if (code === "USER_REQUIRED")
        throw new ForumError("logged_out", `${what}: the forum says nobody is logged in; upload fresh cookies`, {
          code,
        });
      throw new ForumError(
        "refused",
        `${what}: the forum refused it: ${code}${message ? `: ${message}` : ""}${field ? ` (${field})` : ""}`,
        {
          code: code ?? undefined,
        },
      );
    }
    if (!answer.data) throw new ForumError("invalid_answer", `${what}: the forum's answer names no post`);
    return { id: answer.data.id, url: answer.data.url ?? null };
  }

  /** The account's newest submissions (to find a post after an uncertain submission). */
  async submitted(username: string, limit = 25): Promise<SubmittedPost[]> {
    const what = `u/${username}'s submitted list`;
    const res = await this.send(
      what,
      "GET",
      `/user/${encodeURIComponent(username)}/submitted.json?limit=${limit}&sort=new`,
    );
    if (res.status !== 200) throw this.refused(what, res);
    return this.parse(what, res, SubmittedListing).data.children.map((child) => ({
      id: child.data.id,
      title: child.data.title,
      subreddit: child.data.subreddit,
      permalink: child.data.permalink,
      createdUtc: child.data.created_utc ?? null,
    }));
  }
}

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
