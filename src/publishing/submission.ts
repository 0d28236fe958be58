// What a submission of one synced post would be and whether the destination's rules allow it (docs/publishing.md
// publish preflight): the forum's own limits (title 1..300, body <= 40,000), every kind of post requirement
// a subreddit can set, and flair. Pure functions: no browser, no database.

import { charLength, MAX_BODY, MAX_TITLE, sourceLineMarkdown, withoutSourceLine } from "../articles";
import type { SyncConfigRow } from "../db/blog-sync-configs";
import type { SyncedPostRow } from "../db/blog-sync-posts";
import type { FlairAnswer, Submission } from "../forum/persona-client";
import type { PostRequirements } from "../forum/schemas";

export interface Check {
  name: string;
  ok: boolean;
  reason: string | null;
}

const pass = (name: string): Check => ({ name, ok: true, reason: null });
const fail = (name: string, reason: string): Check => ({ name, ok: false, reason });

/** `https://user:pass@host/...` → `https://host/...`: credentials in a URL are never sent anywhere. */
export const stripUrlCredentials = (text: string) => text.replace(/\b(https?:\/\/)[^\s/?#@]+@/gi, "$1");

export const hasCredentials = (url: string): boolean => {
  try {
    const u = new URL(url);
    return u.username !== "" || u.password !== "";
  } catch {
    return false;
  }
};

type Node = Record<string, unknown>;

/** Walks a rich-text document, stripping URL credentials and putting uploaded media in place of links. */
function rewriteRichtext(
  doc: unknown,
  images: SyncedPostRow["images"],
  assetIds: Record<string, string>,
): { document: Node[] } {
  const scrub = (value: unknown): unknown => {
    if (typeof value === "string") return stripUrlCredentials(value);
    if (Array.isArray(value)) return value.map(scrub);
    if (value && typeof value === "object")
      return Object.fromEntries(Object.entries(value as Node).map(([k, v]) => [k, scrub(v)]));
    return value;
  };
  const blocks = ((doc as { document?: Node[] })?.document ?? []) as Node[];
  const out: Node[] = [];
  for (const block of blocks) {
    // The renderer writes an image that was not uploaded as a paragraph holding one link to it.
    const children = block.c as Node[] | undefined;
    const only = block.e === "par" && Array.isArray(children) && children.length === 1 ? children[0] : undefined;
    const url = only?.e === "link" ? (only.u as string) : undefined;
    const id = url ? assetIds[url] : undefined;
    if (url && id) {
      const caption = images.find((i) => i.url === url)?.caption;
      out.push({ e: /\.gif($|\?)/i.test(url) ? "gif" : "img", id, ...(caption ? { c: caption } : {}) });
      continue;
    }
    out.push(scrub(block) as Node);
  }
  return { document: out };
}

/**
 * Why the destination's post requirements forbid the source line's link to `sourceUrl` (docs/blog-sync.md,
 * "The config"), or null when they allow it: no body at all, the article's domain banned or not among the
 * allowed ones, or a banned word in the line.
 */
export function sourceLinkForbidden(requirements: PostRequirements, sourceUrl: string): string | null {
  let host: string;
  try {
    host = new URL(sourceUrl).hostname.toLowerCase();
  } catch {
    return null;
  }
  const r = requirements;
  if ((r.body_restriction_policy ?? "none") === "notAllowed") return "the subreddit allows no body text";
  if ((r.domain_blacklist ?? []).some((d) => hostMatches(host, d))) return `the subreddit bans links to ${host}`;
  const whitelist = r.domain_whitelist ?? [];
  if (whitelist.length > 0 && !whitelist.some((d) => hostMatches(host, d)))
    return `the subreddit allows links only to ${whitelist.join(", ")}`;
  const line = lower(sourceLineMarkdown(sourceUrl));
  const banned = (r.body_blacklisted_strings ?? []).find((word) => word && line.includes(lower(word)));
  if (banned) return `the subreddit bans ${JSON.stringify(banned)} in posts`;
  return null;
}

/**
 * The check that says a draft's source line is left out, or undefined when there is nothing to say. It is
 * not a refusal (ok): the post is submitted without the line.
 */
export function sourceLinkCheck(
  config: Pick<SyncConfigRow, "sourceLink">,
  sourceUrl: string,
  requirements: PostRequirements | undefined,
): Check | undefined {
  if (!config.sourceLink || !requirements) return undefined;
  const why = sourceLinkForbidden(requirements, sourceUrl);
  return why ? { name: "source_link", ok: true, reason: `the source line is left out: ${why}` } : undefined;
}

/**
 * The exact form a submission of `post` to the config's subreddit sends. Given the destination's post
 * requirements, a source line they forbid is left out.
 */
export function buildSubmission(
  config: Pick<SyncConfigRow, "subreddit" | "includeMedia" | "flairId">,
  drafted: Pick<SyncedPostRow, "title" | "bodyMarkdown" | "bodyRichtext" | "images" | "sourceUrl">,
  assetIds: Record<string, string> = {},
  requirements?: PostRequirements,
): Submission {
  const post = requirements && sourceLinkForbidden(requirements, drafted.sourceUrl) ? withoutSource(drafted) : drafted;
  const base: Submission = {
    sr: config.subreddit,
    kind: "self",
    title: stripUrlCredentials(post.title),
    sendreplies: true,
    ...(config.flairId ? { flair_id: config.flairId } : {}),
  };
  if (config.includeMedia && post.bodyRichtext)
    return { ...base, richtext_json: JSON.stringify(rewriteRichtext(post.bodyRichtext, post.images, assetIds)) };
  return { ...base, text: stripUrlCredentials(post.bodyMarkdown) };
}

function withoutSource<T extends Pick<SyncedPostRow, "bodyMarkdown" | "bodyRichtext" | "sourceUrl">>(post: T): T {
  const body = withoutSourceLine({ markdown: post.bodyMarkdown, richtext: post.bodyRichtext }, post.sourceUrl);
  return { ...post, bodyMarkdown: body.markdown, bodyRichtext: body.richtext };
}

/** Images the submission would upload (credentialed URLs never are). */
export const uploadableImages = (post: Pick<SyncedPostRow, "images">) =>
  post.images.filter((i) => !hasCredentials(i.url));

const lower = (s: string) => s.toLowerCase();

function regexCheck(name: string, what: string, text: string, patterns: string[]): Check {
  if (patterns.length === 0) return pass(name);
  for (const pattern of patterns) {
    try {
      if (new RegExp(pattern, "i").test(text)) return pass(name);
    } catch {
      return fail(
        name,
        `r/ rule ${JSON.stringify(pattern)} is not a regular expression this service can evaluate; check it by hand`,
      );
    }
  }
  return fail(
    name,
    `the ${what} must match one of the subreddit's patterns: ${patterns.map((p) => JSON.stringify(p)).join(", ")}`,
  );
}

function lengthCheck(name: string, what: string, length: number, min?: number | null, max?: number | null): Check {
  if (min != null && length < min)
    return fail(name, `the ${what} has ${length} characters; the subreddit wants at least ${min}`);
  if (max != null && length > max)
    return fail(name, `the ${what} has ${length} characters; the subreddit allows at most ${max}`);
  return pass(name);
}

/** Hosts of the links in a text (markdown or rich text). */
function linkedHosts(text: string): string[] {
  const hosts = new Set<string>();
  for (const match of text.matchAll(/https?:\/\/[^\s)"'<>\]]+/gi)) {
    try {
      hosts.add(new URL(match[0]).hostname.toLowerCase());
    } catch {
      // not a URL after all
    }
  }
  return [...hosts];
}

const hostMatches = (host: string, domain: string) => {
  const d = lower(domain).replace(/^\*?\./, "");
  return host === d || host.endsWith(`.${d}`);
};

/** Every requirement kind of `/api/v1/{sr}/post_requirements`, one check each. */
export function requirementChecks(submission: Submission, requirements: PostRequirements): Check[] {
  const title = submission.title;
  const body = submission.text ?? submission.richtext_json ?? "";
  const bodyText = submission.text ?? plainText(submission.richtext_json);
  const r = requirements;
  const checks: Check[] = [];
  checks.push(regexCheck("title_regexes", "title", title, r.title_regexes ?? []));
  checks.push(regexCheck("body_regexes", "body", bodyText, r.body_regexes ?? []));

  const missing: string[] = [];
  const titleRequired = r.title_required_strings ?? [];
  if (titleRequired.length > 0 && !titleRequired.some((s) => lower(title).includes(lower(s))))
    missing.push(`the title must contain one of ${titleRequired.map((s) => JSON.stringify(s)).join(", ")}`);
  const bodyRequired = r.body_required_strings ?? [];
  if (bodyRequired.length > 0 && !bodyRequired.some((s) => lower(bodyText).includes(lower(s))))
    missing.push(`the body must contain one of ${bodyRequired.map((s) => JSON.stringify(s)).join(", ")}`);
  checks.push(missing.length ? fail("required_strings", missing.join("; ")) : pass("required_strings"));

  const banned: string[] = [];
  for (const s of r.title_blacklisted_strings ?? [])
    if (s && lower(title).includes(lower(s))) banned.push(`the title contains ${JSON.stringify(s)}`);
  for (const s of r.body_blacklisted_strings ?? [])
    if (s && lower(bodyText).includes(lower(s))) banned.push(`the body contains ${JSON.stringify(s)}`);
  checks.push(
    banned.length
      ? fail("banned_strings", `the subreddit bans these words: ${banned.join("; ")}`)
      : pass("banned_strings"),
  );

  checks.push(
    lengthCheck("title_length", "title", charLength(title), r.title_text_min_length, r.title_text_max_length),
  );
  checks.push(lengthCheck("body_length", "body", charLength(bodyText), r.body_text_min_length, r.body_text_max_length));

  const policy = r.body_restriction_policy ?? "none";
  if (policy === "notAllowed" && bodyText.trim() !== "")
    checks.push(fail("body_policy", "the subreddit allows no body text in posts"));
  else if (policy === "required" && bodyText.trim() === "")
    checks.push(fail("body_policy", "the subreddit requires body text"));
  else checks.push(pass("body_policy"));

  const hosts = linkedHosts(body);
  const blocked = hosts.filter((h) => (r.domain_blacklist ?? []).some((d) => hostMatches(h, d)));
  const whitelist = r.domain_whitelist ?? [];
  const unlisted = whitelist.length ? hosts.filter((h) => !whitelist.some((d) => hostMatches(h, d))) : [];
  if (blocked.length || unlisted.length) {
    const parts = [
      ...(blocked.length ? [`links to banned domains: ${blocked.join(", ")}`] : []),
      ...(unlisted.length
        ? [`links to domains outside the subreddit's allowed list (${whitelist.join(", ")}): ${unlisted.join(", ")}`]
        : []),
    ];
    checks.push(fail("domains", `the body ${parts.join("; ")}`));
  } else checks.push(pass("domains"));
  return checks;
}

/** Flair (docs/publishing.md, "Readiness"): required → a chosen template; a chosen id must be a template. */
export function flairCheck(flairId: string | null | undefined, required: boolean, flairs: FlairAnswer): Check {
  const list = flairs.available
    ? flairs.templates.map((t) => `${t.id} (${JSON.stringify(t.text ?? "")})`).join(", ") || "none"
    : `unknown: ${flairs.reason}`;
  if (flairId) {
    if (flairs.available && !flairs.templates.some((t) => t.id === flairId))
      return fail("flair", `flair_id ${flairId} is not a link flair template of the subreddit; its templates: ${list}`);
    return pass("flair");
  }
  if (required)
    return fail("flair", `the subreddit requires flair; set the config's flair_id to one of its templates: ${list}`);
  return pass("flair");
}

/** The forum's own limits on any self post, in characters as the forum counts them (code points, as a run's cut and an edit count). */
export function forumLimitChecks(submission: Submission): Check[] {
  const titleLength = charLength(submission.title);
  const bodyLength = charLength(submission.text ?? plainText(submission.richtext_json));
  return [
    submission.title.trim().length === 0
      ? fail("title", "the title is empty")
      : titleLength > MAX_TITLE
        ? fail("title", `the title has ${titleLength} characters; the forum allows at most ${MAX_TITLE}`)
        : pass("title"),
    bodyLength > MAX_BODY
      ? fail("body", `the body has ${bodyLength} characters; the forum allows at most ${MAX_BODY}`)
      : pass("body"),
  ];
}

/** The visible text of a rich-text document (for length and word rules). */
function plainText(richtext: string | undefined): string {
  if (!richtext) return "";
  const parts: string[] = [];
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === "object") {
      const n = node as Node;
      if (typeof n.t === "string") parts.push(n.t);
      if (typeof n.u === "string") parts.push(n.u);
      if (n.c !== undefined) walk(n.c);
      if (n.document !== undefined) walk(n.document);
    }
  };
  walk(JSON.parse(richtext));
  return parts.join("\n");
}
