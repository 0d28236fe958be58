// Readiness, publish preflight and approval of a blog sync (docs/publishing.md). Approval is never a tool.
import { z } from "@hono/zod-openapi";
import { pathId } from "../contracts/params";
import { callerDb } from "../http/context";
import { apiRoute, createRouter, jsonBody, jsonResponse, noFieldsBody } from "../http/openapi";
import { approverOf, approveSyncedPost } from "../publishing/approval";
import { publishPreflight } from "../publishing/preflight";
import { checkReadiness } from "../publishing/readiness";
import { SyncedPostSchema } from "./blog-syncs";
import { CheckSchema } from "./personas";

const TAG = "Blog sync";
const BUSY =
  "The persona is not ready (`persona_not_ready`), or another browser operation of the workspace held the browser for 30 s (`browser_busy`, see `retry-after`)";

const ReadinessRequest = z
  .strictObject({
    max_posts: z
      .number()
      .int()
      .min(1)
      .max(50)
      .optional()
      .openapi({ description: "Drafts whose images are uploaded with verify_media_upload; default the config's" }),
    persona_id: z.number().int().min(1).optional().openapi({
      description:
        "Check this persona (must be active, auth-completed and browser-ready; no fallback); the config is not changed",
    }),
    verify_media_upload: z
      .boolean()
      .optional()
      .openapi({ description: "Upload the drafts' images to the forum as a test. Default false: nothing is uploaded" }),
  })
  .openapi("ReadinessRequest");

const ReadinessResult = z
  .object({
    ready: z.boolean(),
    persona: z.object({ id: z.number().int(), username: z.string() }).nullable(),
    subreddit: z.string(),
    checks: z.array(CheckSchema),
    media: z.array(
      z.object({
        synced_post_id: z.number().int(),
        url: z.string(),
        ok: z.boolean(),
        asset_id: z.string().optional(),
        reason: z.string().optional(),
      }),
    ),
  })
  .openapi("ReadinessResult");

const PreflightRequest = z.strictObject({ synced_post_id: z.number().int().min(1) }).openapi("PublishPreflightRequest");

const PreflightResult = z
  .object({
    ok: z.boolean(),
    checks: z.array(CheckSchema),
    submission: z
      .object({
        sr: z.string(),
        kind: z.literal("self"),
        title: z.string(),
        text: z.string().optional(),
        richtext_json: z
          .string()
          .optional()
          .openapi({ description: "With include_media; images stay links until they are uploaded at publishing" }),
        flair_id: z.string().optional(),
        sendreplies: z.boolean(),
      })
      .openapi({ description: "The exact form the submission would send to /api/submit" }),
  })
  .openapi("PublishPreflightResult");

const ApprovalResultSchema = SyncedPostSchema.extend({
  next: z.string().openapi({
    description: "What happens now, in words: `queued for publishing`, or which gate keeps the post from publishing",
    example: "queued for publishing",
  }),
}).openapi("SyncedPostApproval");

const configParam = z.object({ id: pathId("id") });
const itemParams = z.object({ id: pathId("id"), item_id: pathId("item_id") });

export const publishingRouter = createRouter()
  .openapi(
    apiRoute({
      method: "post",
      path: "/actions/blog-subreddit-syncs/{id}/readiness",
      tags: [TAG],
      summary:
        "Check forum readiness of the persona and the destination subreddit, without posting (and without uploading unless verify_media_upload)",
      scope: "read_write",
      conflict: BUSY,
      outside: "browser",
      request: {
        params: configParam,
        body: { ...jsonBody(ReadinessRequest, "All fields optional; the body may be omitted"), required: false },
      },
      responses: { 200: jsonResponse(ReadinessResult, "Each check with its reason; ready when all pass") },
    }),
    async (c) =>
      c.json(await checkReadiness(c.env, callerDb(c), c.req.valid("param").id, c.req.valid("json") ?? {}), 200),
  )
  .openapi(
    apiRoute({
      method: "post",
      path: "/actions/blog-subreddit-syncs/{id}/publish-preflight",
      tags: [TAG],
      summary:
        "Check everything a submission of one synced post would check and show the exact form, without submitting or uploading",
      scope: "read_write",
      conflict: BUSY,
      outside: "browser",
      request: { params: configParam, body: jsonBody(PreflightRequest) },
      responses: { 200: jsonResponse(PreflightResult, "The checks and the submission") },
    }),
    async (c) =>
      c.json(
        await publishPreflight(c.env, callerDb(c), c.req.valid("param").id, c.req.valid("json").synced_post_id),
        200,
      ),
  )
  .openapi(
    apiRoute({
      method: "post",
      path: "/actions/blog-subreddit-syncs/{id}/items/{item_id}/approve",
      tags: [TAG],
      summary: "Approve one synced post for publishing (a person's explicit approval; never a tool)",
      scope: "read_write",
      tool: false,
      conflict: "The post is published or failed (`invalid_state`)",
      request: { params: itemParams, body: noFieldsBody("ApproveRequest") },
      responses: {
        200: jsonResponse(
          ApprovalResultSchema,
          "The approved synced post and what happens next (approving an approved post again changes nothing)",
        ),
      },
    }),
    async (c) => {
      const { id, item_id } = c.req.valid("param");
      const approver = await approverOf(c.env, c.get("auth"));
      return c.json(await approveSyncedPost(c.env, callerDb(c), id, item_id, approver), 200);
    },
  );
