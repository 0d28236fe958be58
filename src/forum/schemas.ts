// The forum's answers as it really sends them (test/fixtures/SOURCES.md names the file and line, or recorded
// session, each shape follows; test/forum/recorded-parsers.test.ts replays the recordings through these).
// Every answer is validated; fields we do not use are let through untouched.
import { z } from "zod";

/** POST /api/v1/access_token: a grant (`refresh_token` for a permanent one, and on every refresh). */
export const TokenAnswer = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.string(),
  expires_in: z.number().positive(),
  refresh_token: z.string().min(1).optional(),
  scope: z.string().optional(),
});

/** The token endpoint's refusals: `{"error": "invalid_grant"}` (HTTP 200 or 400), `{"error": 400}`. */
export const TokenRefusal = z.looseObject({ error: z.union([z.string(), z.number()]) });

/** GET /api/v1/me on the OAuth host: a flat account object (no kind/data wrapper, no modhash). */
export const MeAnswer = z.looseObject({
  name: z.string().min(1),
  id: z.string().optional(),
  is_suspended: z.boolean().nullable().optional(),
});

/** GET /r/{sr}/about: the subreddit wrapped as `{kind: "t5", data}`. */
export const SubredditAbout = z.looseObject({
  kind: z.literal("t5"),
  data: z.looseObject({
    display_name: z.string(),
    subreddit_type: z.string(),
    submission_type: z.string().nullable().optional(),
    allow_images: z.boolean().nullable().optional(),
    user_is_banned: z.boolean().nullable().optional(),
    user_is_contributor: z.boolean().nullable().optional(),
    user_is_moderator: z.boolean().nullable().optional(),
    quarantine: z.boolean().nullable().optional(),
  }),
});

/** The forum's error bodies: `{"error": 403}`, `{"message": "Forbidden", "error": 403}`, `{"reason": "private", ...}`. */
export const ErrorAnswer = z.looseObject({
  reason: z.string().optional(),
  message: z.string().optional(),
  error: z.union([z.number(), z.string()]).optional(),
});

const strings = z.array(z.string()).nullable().optional();
const length = z.number().int().nullable().optional();

/** GET /api/v1/{sr}/post_requirements: flat; lengths may be null. */
export const PostRequirements = z.looseObject({
  title_regexes: strings,
  body_regexes: strings,
  title_required_strings: strings,
  body_required_strings: strings,
  title_blacklisted_strings: strings,
  body_blacklisted_strings: strings,
  title_text_min_length: length,
  title_text_max_length: length,
  body_text_min_length: length,
  body_text_max_length: length,
  body_restriction_policy: z.string().nullable().optional(),
  domain_blacklist: strings,
  domain_whitelist: strings,
  is_flair_required: z.boolean().nullable().optional(),
  guidelines_text: z.string().nullable().optional(),
});
export type PostRequirements = z.infer<typeof PostRequirements>;

/** GET /r/{sr}/api/link_flair_v2: a bare array of templates. */
export const FlairTemplates = z.array(
  z.looseObject({ id: z.string(), text: z.string().nullable().optional(), mod_only: z.boolean().optional() }),
);
export type FlairTemplate = z.infer<typeof FlairTemplates>[number];

/** POST /api/media/asset.json: the upload form (its `action` is scheme-relative, on another host) and the asset id. */
export const MediaAssetLease = z.looseObject({
  args: z.looseObject({
    action: z.string().min(1),
    fields: z.array(z.object({ name: z.string(), value: z.string() })),
  }),
  asset: z.looseObject({ asset_id: z.string().min(1) }),
});

/** POST /api/submit with api_type=json: refusals as [code, message, field] triples, HTTP 200 either way. */
export const SubmitAnswer = z.object({
  json: z.looseObject({
    errors: z.array(z.array(z.union([z.string(), z.null()]))).default([]),
    ratelimit: z.number().optional(),
    data: z.looseObject({ id: z.string(), name: z.string().optional(), url: z.string().optional() }).optional(),
  }),
});

/** POST /api/submit with validate_on_submit=true: a rule of the subreddit refused it, HTTP 400. */
export const SubmitValidationError = z.looseObject({
  reason: z.string().startsWith("SUBMIT_VALIDATION"),
  explanation: z.string().optional(),
  fields: z.array(z.string()).optional(),
  error_type: z.string().optional(),
  message: z.string().optional(),
});

const LinkListing = <T extends z.ZodType>(data: T) =>
  z.looseObject({
    kind: z.literal("Listing"),
    data: z.looseObject({
      after: z.string().nullable().optional(),
      children: z.array(z.looseObject({ kind: z.string(), data })),
    }),
  });

/** GET /user/{name}/submitted: the account's links, newest first with sort=new. */
export const SubmittedListing = LinkListing(
  z.looseObject({
    id: z.string(),
    title: z.string(),
    subreddit: z.string(),
    permalink: z.string(),
    created_utc: z.number().optional(),
  }),
);

/** GET /api/info?id=t3_...: a listing of the links found (missing ids are left out). */
export const InfoListing = LinkListing(
  z.looseObject({
    id: z.string(),
    name: z.string(),
    permalink: z.string().optional(),
    author: z.string().nullable().optional(),
    selftext: z.string().nullable().optional(),
    removed_by_category: z.string().nullable().optional(),
    removed: z.boolean().nullable().optional(),
    banned_by: z.union([z.string(), z.boolean()]).nullable().optional(),
    is_robot_indexable: z.boolean().nullable().optional(),
  }),
);
export type InfoLink = z.infer<typeof InfoListing>["data"]["children"][number]["data"];

/** GET FORUM_BASE_URL/user/{name}/about.json as a visitor: the account wrapped as `{kind: "t2", data}`. */
export const VisitorAbout = z.looseObject({
  kind: z.literal("t2"),
  data: z.looseObject({ name: z.string(), is_suspended: z.boolean().nullable().optional() }),
});
