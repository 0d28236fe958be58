import { z } from "@hono/zod-openapi";
import { recordAudit, recordConfigSaved } from "../audit/events";
import { deleteConfig, saveConfig } from "../blog-sync/configs";
import { editSyncedPost } from "../blog-sync/edit-draft";
import { runSync } from "../blog-sync/run-sync";
import { BlogSyncConfigInput, maxPosts, SyncedPostEdit } from "../contracts/blog-syncs";
import { idParam, integerParam, listEnvelope, pageEnvelope, pathId } from "../contracts/params";
import { getConfig, getConfigRow, listConfigs } from "../db/blog-sync-configs";
import { listSyncedPosts } from "../db/blog-sync-posts";
import { getRunWithItems, listRuns } from "../db/blog-sync-runs";
import { callerDb } from "../http/context";
import { apiRoute, createRouter, jsonBody, jsonResponse, nextOffset } from "../http/openapi";
import { notFound } from "../lib/domain-errors";

const STATES = ["draft", "queued", "published", "failed"] as const;

const ImageSchema = z
  .object({ url: z.string(), alt: z.string(), caption: z.string().nullable() })
  .openapi("SyncedImage", { description: "An image of the article (kept only with include_media)" });

export const BlogSyncConfigSchema = z
  .object({
    id: z.number().int(),
    blog_url: z.string().openapi({ description: "Normalized blog index, feed, sitemap or landing page URL" }),
    subreddit: z.string().openapi({ description: "Destination subreddit, without `r/`" }),
    persona_id: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "Preferred persona; null: one is selected at publish time" }),
    include_media: z.boolean(),
    active: z.boolean(),
    publish_immediately: z.boolean(),
    max_posts: z.number().int().openapi({ description: "Posts handled per run, 1..50" }),
    flair_id: z
      .string()
      .nullable()
      .openapi({ description: "Link flair template id for published posts (not fingerprinted)" }),
    source_link: z.boolean().openapi({
      description:
        "Drafts end with a line linking back to the article (left out where links are forbidden; not fingerprinted)",
    }),
    fingerprint: z
      .string()
      .openapi({ description: 'SHA-256 hex of the fingerprinted settings (docs/blog-sync.md, "Fingerprint")' }),
    last_run_at: z.string().nullable().openapi({ format: "date-time" }),
    last_error: z.string().nullable().openapi({ description: "Null after a clean run" }),
    item_counts: z.object({
      draft: z.number().int(),
      queued: z.number().int(),
      published: z.number().int(),
      failed: z.number().int(),
    }),
    created_at: z.string().openapi({ format: "date-time" }),
    updated_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("BlogSyncConfig");

const ApproverSchema = z
  .object({
    type: z.enum(["key", "person"]).openapi({ description: "An API key (also the console's key session) or a person" }),
    id: z.number().int(),
    name: z.string().openapi({ description: "The key's or the person's name when approving" }),
  })
  .openapi("Approver");

const VISIBILITIES = ["live", "removed", "spam_filtered", "deleted"] as const;

export const SyncedPostSchema = z
  .object({
    id: z.number().int(),
    config_id: z.number().int(),
    source_url: z.string().openapi({ description: "Canonical URL of the blog post" }),
    title: z.string(),
    body_markdown: z.string(),
    // A JSON object or null. OpenAPI 3.0 wants a `type` beside `nullable` (redocly: nullable-type-sibling);
    // the library's metadata type lacks the 3.0 `nullable`, hence the cast.
    body_richtext: z
      .unknown()
      .nullable()
      .openapi({
        type: "object",
        nullable: true,
        description: "Forum rich-text document; null unless the config includes media",
      } as { type: "object"; description: string }),
    images: z.array(ImageSchema),
    state: z.enum(STATES),
    approved_at: z.string().nullable().openapi({ format: "date-time" }),
    approved_by: ApproverSchema.nullable().openapi({
      description: "Who approved it; null when not approved (or approved before approvers were recorded)",
    }),
    approved_content_hash: z.string().nullable().openapi({
      description:
        "SHA-256 hex of the content approved (title, body_markdown, body_richtext, images); null when not approved. Any change of the content clears the approval",
    }),
    forum_post_id: z.string().nullable(),
    permalink: z.string().nullable(),
    error: z.string().nullable(),
    created_at: z.string().openapi({ format: "date-time" }),
    updated_at: z.string().openapi({ format: "date-time" }),
    published_at: z.string().nullable().openapi({ format: "date-time" }),
    edited: z.boolean().openapi({ description: "A person edited the post; later runs never overwrite it" }),
    edited_at: z.string().nullable().openapi({ format: "date-time", description: "When it was last edited" }),
    visibility: z.enum(VISIBILITIES).nullable().openapi({
      description:
        "What a logged-out visitor sees of the published post: null (not checked yet), live, removed (by the subreddit's moderators), spam_filtered (visible to its author only), deleted",
    }),
    visibility_checked_at: z.string().nullable().openapi({ format: "date-time" }),
    visibility_reason: z.string().nullable().openapi({ description: "What the last visibility check found, in words" }),
  })
  .openapi("SyncedPost");

const itemParams = () => z.object({ id: pathId("id"), item_id: pathId("item_id") });

const SyncedPostList = pageEnvelope(SyncedPostSchema, "SyncedPostList");

const ItemsQuery = z.strictObject({
  state: z.enum(STATES).optional(),
  limit: integerParam(1, 500).optional().openapi({ description: "Page size, 1..500, default 100" }),
  offset: integerParam(0).optional().openapi({ description: "Rows to skip, default 0" }),
});

export const RunRequest = z
  .strictObject({
    dry_run: z.boolean().optional().openapi({ description: "Preview only: writes nothing at all. Default false" }),
    publish: z.boolean().optional().openapi({ description: "false: write drafts only. Default true" }),
    max_posts: maxPosts.optional().openapi({ description: "Posts handled in this run, 1..50; default the config's" }),
  })
  .openapi("BlogSyncRunRequest");

const RunItemSchema = z.object({
  synced_post_id: z.number().int().nullable().openapi({ description: "Null in a dry run" }),
  source_url: z.string(),
  title: z.string().nullable(),
  action: z.enum(["create", "update", "unchanged", "skip", "error"]),
  state: z
    .enum(STATES)
    .nullable()
    .openapi({ description: "State after the run (in a dry run: the state it would have)" }),
  body_markdown: z.string().nullable(),
  images: z.array(ImageSchema),
  warnings: z.array(z.string()),
  error: z.string().nullable(),
});

const RunResultSchema = z
  .object({
    run: z.object({
      id: z.number().int().nullable().openapi({ description: "Null for a dry run (nothing is recorded)" }),
      config_id: z.number().int(),
      status: z.enum(["completed", "partial", "aborted", "failed"]),
      dry_run: z.boolean(),
      publish: z.boolean(),
      max_posts: z.number().int(),
      source_kind: z.enum(["feed", "sitemap", "index", "landing"]).nullable(),
      source_url: z.string().nullable(),
      discovered: z.number().int(),
      created: z.number().int(),
      updated: z.number().int(),
      unchanged: z.number().int(),
      queued: z.number().int(),
      failed: z.number().int(),
      started_at: z.string().openapi({ format: "date-time" }),
      finished_at: z.string().openapi({ format: "date-time" }),
      error: z.string().nullable(),
    }),
    items: z.array(RunItemSchema),
  })
  .openapi("BlogSyncRunResult");

const RunRecordSchema = RunResultSchema.shape.run
  .extend({
    trigger: z.enum(["api", "schedule"]).openapi({ description: "api: POST .../run; schedule: the daily run" }),
    status: z.enum(["running", "completed", "partial", "aborted", "failed"]),
    dry_run: z.boolean().openapi({ description: "Always false: dry runs are not recorded" }),
    finished_at: z.string().nullable().openapi({ format: "date-time", description: "Null while running" }),
  })
  .openapi("BlogSyncRun");

const StoredRunItemSchema = RunItemSchema.omit({ body_markdown: true, images: true })
  .extend({
    state: z.enum(STATES).nullable().openapi({ description: "The post's state when the run ended" }),
  })
  .openapi("BlogSyncRunItem", { description: "What the run did with one post; the body is the synced post's" });

const RunsQuery = z.strictObject({
  limit: integerParam(1, 500).optional().openapi({ description: "Page size, 1..500, default 100" }),
  offset: integerParam(0).optional().openapi({ description: "Rows to skip, default 0" }),
});

const runParams = () => z.object({ id: pathId("id"), run_id: pathId("run_id") });

const TAG = "Blog sync";

export const blogSyncsRouter = createRouter()
  .openapi(
    apiRoute({
      method: "post",
      path: "/actions/blog-subreddit-syncs",
      tags: [TAG],
      summary:
        "Create or update a blog-to-subreddit sync config (with id: that config; else the one with the same blog_url + subreddit)",
      scope: "read_write",
      conflict: "Another config of the workspace already syncs that blog to that subreddit (`invalid_state`)",
      request: { body: jsonBody(BlogSyncConfigInput) },
      responses: {
        200: jsonResponse(BlogSyncConfigSchema, "The updated config"),
        201: jsonResponse(BlogSyncConfigSchema, "The created config"),
      },
    }),
    async (c) => {
      const { config, created } = await saveConfig(c.env, callerDb(c), c.req.valid("json"));
      await recordConfigSaved(callerDb(c), c.get("auth").actor, config, created);
      return created ? c.json(config, 201) : c.json(config, 200);
    },
  )
  .openapi(
    apiRoute({
      method: "get",
      path: "/actions/blog-subreddit-syncs",
      tags: [TAG],
      summary: "List the workspace's blog-to-subreddit sync configs",
      scope: "read",
      responses: {
        200: jsonResponse(listEnvelope(BlogSyncConfigSchema, "BlogSyncConfigList"), "All configs of the workspace"),
      },
    }),
    async (c) => {
      const data = await listConfigs(callerDb(c));
      return c.json({ data, count: data.length }, 200);
    },
  )
  .openapi(
    apiRoute({
      method: "get",
      path: "/actions/blog-subreddit-syncs/{id}",
      tags: [TAG],
      summary: "Get one sync config with its item counts",
      scope: "read",
      request: { params: idParam() },
      responses: { 200: jsonResponse(BlogSyncConfigSchema, "The config") },
    }),
    async (c) => {
      const config = await getConfig(callerDb(c), c.req.valid("param").id);
      if (!config) throw notFound("sync config");
      return c.json(config, 200);
    },
  )
  .openapi(
    apiRoute({
      method: "delete",
      path: "/actions/blog-subreddit-syncs/{id}",
      tags: [TAG],
      summary:
        "Delete a sync config with its drafts, synced-post records and run history (posts already on the forum stay there)",
      scope: "read_write",
      conflict: "A run of the config is active, or one of its posts is queued for publishing (`invalid_state`)",
      request: { params: idParam() },
      responses: { 204: { description: "Deleted" } },
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      await deleteConfig(c.env, callerDb(c), id);
      await recordAudit(callerDb(c), {
        actor: c.get("auth").actor,
        action: "sync_config.deleted",
        target: { type: "sync_config", id },
      });
      return c.body(null, 204);
    },
  )
  .openapi(
    apiRoute({
      method: "get",
      path: "/actions/blog-subreddit-syncs/{id}/runs",
      tags: [TAG],
      summary: "List the config's recorded runs (real runs only), newest first",
      scope: "read",
      request: { params: idParam(), query: RunsQuery },
      responses: { 200: jsonResponse(pageEnvelope(RunRecordSchema, "BlogSyncRunList"), "One page of runs") },
    }),
    async (c) => {
      const w = callerDb(c);
      const { id } = c.req.valid("param");
      const { limit = 100, offset = 0 } = c.req.valid("query");
      if (!(await getConfigRow(w, id))) throw notFound("sync config");
      const page = await listRuns(w, id, { limit, offset });
      return c.json({ ...page, next_offset: nextOffset(offset, page.data.length, page.count) }, 200);
    },
  )
  .openapi(
    apiRoute({
      method: "get",
      path: "/actions/blog-subreddit-syncs/{id}/runs/{run_id}",
      tags: [TAG],
      summary: "Get one recorded run of the config with what it did with each post",
      scope: "read",
      request: { params: runParams() },
      responses: {
        200: jsonResponse(
          z.object({ run: RunRecordSchema, items: z.array(StoredRunItemSchema) }).openapi("BlogSyncRunRecord"),
          "The run and its items, in the order it handled them",
        ),
      },
    }),
    async (c) => {
      const { id, run_id } = c.req.valid("param");
      const found = await getRunWithItems(callerDb(c), id, run_id);
      if (!found) throw notFound("sync run");
      return c.json(found, 200);
    },
  )
  .openapi(
    apiRoute({
      method: "get",
      path: "/actions/blog-subreddit-syncs/{id}/items",
      tags: [TAG],
      summary: "List the synced posts of a config, newest first, optionally by state",
      scope: "read",
      request: { params: idParam(), query: ItemsQuery },
      responses: { 200: jsonResponse(SyncedPostList, "Synced posts") },
    }),
    async (c) => {
      const w = callerDb(c);
      const { id } = c.req.valid("param");
      const { state, limit = 100, offset = 0 } = c.req.valid("query");
      if (!(await getConfigRow(w, id))) throw notFound("sync config");
      const page = await listSyncedPosts(w, id, { state, limit, offset });
      return c.json({ ...page, next_offset: nextOffset(offset, page.data.length, page.count) }, 200);
    },
  )
  .openapi(
    apiRoute({
      method: "patch",
      path: "/actions/blog-subreddit-syncs/{id}/items/{item_id}",
      tags: [TAG],
      summary:
        "Edit a draft, queued or failed synced post's title or markdown (rich text re-rendered; a queued or failed post goes back to draft, its approval and error cleared)",
      scope: "read_write",
      conflict:
        "The post is published, or queued or failed with a submission whose answer never came in (`invalid_state`): only draft, queued and failed posts can be edited",
      request: { params: itemParams(), body: jsonBody(SyncedPostEdit) },
      responses: { 200: jsonResponse(SyncedPostSchema, "The edited post") },
    }),
    async (c) => {
      const { id, item_id } = c.req.valid("param");
      return c.json(await editSyncedPost(callerDb(c), id, item_id, c.req.valid("json")), 200);
    },
  )
  .openapi(
    apiRoute({
      method: "post",
      path: "/actions/blog-subreddit-syncs/{id}/run",
      tags: [TAG],
      summary:
        "Run a sync: discovery, full-content extraction, conversion, write (dry_run=true previews and writes nothing)",
      scope: "read_write",
      conflict:
        "A run of this config is already active, or a dry run while another dry run of it is (`run_in_progress`; a dry run never conflicts with a real run)",
      request: {
        params: idParam(),
        body: { ...jsonBody(RunRequest, "All fields optional; the body may be omitted"), required: false },
      },
      responses: { 200: jsonResponse(RunResultSchema, "The run and one item per handled post") },
    }),
    async (c) => {
      const body = c.req.valid("json") ?? {};
      const result = await runSync(c.env, callerDb(c), c.req.valid("param").id, {
        dryRun: body.dry_run ?? false,
        publish: body.publish ?? true,
        maxPosts: body.max_posts,
        trigger: "api",
      });
      return c.json(result, 200);
    },
  );
