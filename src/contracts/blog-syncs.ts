// The body that creates or updates a blog sync config (POST /actions/blog-subreddit-syncs) and the body that
// edits a synced post (PATCH .../items/{item_id}), shared by the routes and the console's forms.
import { z } from "@hono/zod-openapi";

/** Reddit's subreddit names: 3..21 letters, digits or underscores; the `r/` (or `/r/`) prefix is optional. */
export const SUBREDDIT_INPUT = /^(?:\/?r\/)?[A-Za-z0-9_]{3,21}$/;

/** Posts one run handles: 1..50. */
export const maxPosts = z.number().int().min(1).max(50);

export const BlogSyncConfigInput = z
  .strictObject({
    id: z
      .number()
      .int()
      .min(1)
      .optional()
      .openapi({ description: "Update this config; without it, blog_url + subreddit select or create one" }),
    blog_url: z
      .string()
      .trim()
      .min(1)
      .max(2048)
      .optional()
      .openapi({ description: "Absolute http(s) URL of a blog index, feed, sitemap or landing page" }),
    subreddit: z
      .string()
      .trim()
      .regex(SUBREDDIT_INPUT, "must be 3 to 21 letters, digits or underscores, optionally prefixed by r/")
      .optional()
      .openapi({ example: "r/webdev" }),
    persona_id: z.number().int().min(1).nullable().optional(),
    include_media: z.boolean().optional().openapi({ description: "Default false" }),
    active: z.boolean().optional().openapi({ description: "Default true" }),
    publish_immediately: z.boolean().optional().openapi({ description: "Default false" }),
    max_posts: maxPosts.optional().openapi({ description: "1..50, default 5" }),
    flair_id: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .nullable()
      .optional()
      .openapi({ description: "A link flair template id of the subreddit (readiness lists them); not fingerprinted" }),
    source_link: z.boolean().optional().openapi({
      description:
        "Default true: a draft's last line links back to the article, left out where the subreddit's post requirements forbid the link; not fingerprinted",
    }),
  })
  .superRefine((body, ctx) => {
    if (body.id !== undefined) return;
    for (const field of ["blog_url", "subreddit"] as const) {
      if (body[field] === undefined)
        ctx.addIssue({ code: "custom", path: [field], message: "required when no id is given" });
    }
  })
  .openapi("BlogSyncConfigInput");

/** A person's edit of a synced post: its title, its markdown or both. */
export const SyncedPostEdit = z
  .strictObject({
    title: z.string().max(2000).optional().openapi({ description: "1..300 characters once whitespace is collapsed" }),
    body_markdown: z
      .string()
      .max(200_000)
      .optional()
      .openapi({ description: "Forum markdown, at most 40,000 characters" }),
  })
  .refine((v) => Object.keys(v).length > 0, { message: "give title, body_markdown or both" })
  .openapi("SyncedPostEdit", { minProperties: 1 });
