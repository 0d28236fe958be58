// The bodies that create and change tracked terms (keywords, competitors), shared by the routes and the
// console's tracking page.
import { z } from "@hono/zod-openapi";
import { plainName } from "../lib/plain-text";

/** A subreddit's name as the forum allows it (letters, digits, `_`; 2-21 characters), `r/` in front allowed. */
export const subredditName = z
  .string()
  .regex(/^(\/?r\/)?[A-Za-z0-9][A-Za-z0-9_]{1,20}$/, "a subreddit name: letters, digits and _, 2-21 characters")
  .openapi({ example: "emailmarketing" });

/** The subreddits a term is limited to (docs/monitoring.md, "Targeting"). */
export const termSubreddits = z.array(subredditName).max(50).openapi({
  description:
    "Only matches in these subreddits count for this term (case-insensitive, `r/` optional); empty (the default): everywhere",
});

const keywordText = plainName(200);
export const KeywordCreate = z
  .strictObject({
    keyword: keywordText,
    active: z.boolean().optional(),
    is_ambiguous: z.boolean().optional(),
    subreddits: termSubreddits.optional(),
  })
  .openapi("KeywordCreate");
export const KeywordPatch = z
  .strictObject({
    keyword: keywordText.optional(),
    active: z.boolean().optional(),
    is_ambiguous: z.boolean().optional(),
    subreddits: termSubreddits.optional(),
  })
  .refine((v) => Object.keys(v).length > 0, { message: "give at least one field to change" })
  .openapi("KeywordPatch", { minProperties: 1 });

const name = plainName(200);
const websiteUrl = z
  .url({ protocol: /^https?$/ })
  .max(2000)
  .nullable();
const aliases = z.array(plainName(200)).max(50);

export const CompetitorCreate = z
  .strictObject({
    name,
    website_url: websiteUrl.optional(),
    keywords: aliases.optional(),
    active: z.boolean().optional(),
    is_ambiguous: z.boolean().optional(),
    subreddits: termSubreddits.optional(),
  })
  .openapi("CompetitorCreate");
export const CompetitorPatch = z
  .strictObject({
    name: name.optional(),
    website_url: websiteUrl.optional(),
    keywords: aliases.optional(),
    active: z.boolean().optional(),
    is_ambiguous: z.boolean().optional(),
    subreddits: termSubreddits.optional(),
  })
  .refine((v) => Object.keys(v).length > 0, { message: "give at least one field to change" })
  .openapi("CompetitorPatch", { minProperties: 1 });

/** A username as the forum allows it (letters, digits, `_` and `-`; 1-20 characters), `u/` in front allowed. */
const authorName = z
  .string()
  .regex(/^(\/?u\/)?[A-Za-z0-9_-]{1,20}$/, "a username: letters, digits, _ and -, 1-20 characters")
  .openapi({ example: "spam_account" });

/** GET/PUT /actions/monitoring/exclusions (docs/monitoring.md, "Exclusions"). */
export const ExclusionsBody = z
  .strictObject({
    terms: z.array(plainName(200)).max(200).openapi({
      description:
        "An item containing one of these (whole words and phrases, the matching rules of keywords) is not stored",
    }),
    subreddits: z
      .array(subredditName)
      .max(200)
      .openapi({ description: "Items posted in these subreddits are not stored" }),
    authors: z.array(authorName).max(200).openapi({ description: "Items by these accounts are not stored" }),
  })
  .openapi("MonitoringExclusions");
