// The forum's answers as the protocol defines them (shapes taken from the recorded Reddit answers in
// ../shared/corpus/reddit/: praw cassettes and go-reddit test data). Every answer is validated; fields we
// do not use are let through untouched.
import { z } from "zod";

/** GET /api/me.json: logged in, the account with its modhash; logged out, `{}`. */
export const MeAnswer = z.looseObject({
  name: z.string().optional(),
  modhash: z.string().nullable().optional(),
  is_suspended: z.boolean().optional(),
});

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

/** Reddit's refusal bodies: `{"reason": "private", "message": "Forbidden", "error": 403}`. */
export const ErrorAnswer = z.looseObject({
  reason: z.string().optional(),
  message: z.string().optional(),
  error: z.union([z.number(), z.string()]).optional(),
});

const strings = z.array(z.string()).nullable().optional();
const length = z.number().int().nullable().optional();

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

export const FlairTemplates = z.array(
  z.looseObject({ id: z.string(), text: z.string().nullable().optional(), mod_only: z.boolean().optional() }),
);
export type FlairTemplate = z.infer<typeof FlairTemplates>[number];

/** POST /api/media/asset.json: the S3 upload form and the asset id. */
export const MediaAssetLease = z.looseObject({
  args: z.object({
    action: z.string(),
    fields: z.array(z.object({ name: z.string(), value: z.string() })),
  }),
  asset: z.looseObject({ asset_id: z.string() }).optional(),
});

/** POST /api/submit with api_type=json: errors as [code, message, field] triples, HTTP 200 either way. */
export const SubmitAnswer = z.object({
  json: z.looseObject({
    errors: z.array(z.array(z.union([z.string(), z.null()]))).default([]),
    ratelimit: z.number().optional(),
    data: z.looseObject({ id: z.string(), name: z.string().optional(), url: z.string().optional() }).optional(),
  }),
});

export const SubmittedListing = z.object({
  kind: z.literal("Listing"),
  data: z.looseObject({
    children: z.array(
      z.object({
        kind: z.string(),
        data: z.looseObject({
          id: z.string(),
          title: z.string(),
          subreddit: z.string(),
          permalink: z.string(),
          created_utc: z.number().optional(),
        }),
      }),
    ),
  }),
});
