import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import worker from "../../src";
import { insertSyncedPost, type SyncedPostRow } from "../../src/db/blog-sync-posts";
import { workspaceDb } from "../../src/db/client";
import { callJson, createTestWorkspace, type TestWorkspace } from "./api";
import { newBlog } from "./blogs";
import { newPersona, newSubreddit } from "./forum";

export const SYNCS = "/api/v1/actions/blog-subreddit-syncs";

export interface Scene {
  ws: TestWorkspace;
  persona: Awaited<ReturnType<typeof newPersona>>;
  sr: string;
  config: { id: number; fingerprint: string; [k: string]: unknown };
}

/** A workspace with a checked (and by default approved) persona, a subreddit on the forum and a config. */
export async function scene(
  options: {
    subreddit?: Record<string, unknown>;
    config?: Record<string, unknown>;
    persona?: { account?: Record<string, unknown>; check?: boolean; approve?: boolean };
  } = {},
): Promise<Scene> {
  const ws = await createTestWorkspace("publishing");
  const persona = await newPersona(ws, { check: true, approve: true, ...options.persona });
  const sr = await newSubreddit(options.subreddit);
  const res = await callJson(SYNCS, {
    key: ws.writeKey,
    method: "POST",
    body: { blog_url: newBlog().feedUrl, subreddit: sr, publish_immediately: true, ...options.config },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { ws, persona, sr, config: res.body };
}

let urls = 0;
export async function addPost(
  s: Scene,
  fields: Partial<Pick<SyncedPostRow, "title" | "bodyMarkdown" | "bodyRichtext" | "images" | "approvedAt">> = {},
  state: SyncedPostRow["state"] = "queued",
): Promise<SyncedPostRow> {
  const w = workspaceDb(env, s.ws.id);
  const row = await insertSyncedPost(
    w,
    s.config.id,
    {
      sourceUrl: `https://blog.example/posts/${++urls}`,
      title: fields.title ?? `A guide to queues ${urls}`,
      bodyMarkdown: fields.bodyMarkdown ?? "Queues decouple producers from consumers.",
      bodyRichtext: fields.bodyRichtext ?? null,
      images: fields.images ?? [],
      contentHash: "0".repeat(64),
    },
    state,
  );
  if (fields.approvedAt) {
    await env.DB.prepare("UPDATE synced_posts SET approved_at = ? WHERE id = ?").bind(fields.approvedAt, row.id).run();
  }
  return row;
}

let counter = 0;
/** Delivers publish tasks through the Worker's own queue handler. */
export async function deliver(bodies: unknown[]) {
  const batch = createMessageBatch(
    "threadwatch-publish",
    bodies.map((body) => ({ id: `pub-${++counter}`, timestamp: new Date(), attempts: 1, body })),
  );
  const ctx = createExecutionContext();
  await (worker.queue as ExportedHandlerQueueHandler<typeof env>)(batch, env, ctx);
  return { result: await getQueueResult(batch, ctx), ids: batch.messages.map((m) => m.id) };
}

export const task = (s: Scene, postId: number, fingerprint = s.config.fingerprint) => ({
  type: "publish.post",
  workspace_id: s.ws.id,
  config_id: s.config.id,
  synced_post_id: postId,
  fingerprint,
});

export const item = async (s: Scene, id: number) => {
  const res = await callJson(`${SYNCS}/${s.config.id}/items`, { key: s.ws.readKey });
  return (res.body.data as any[]).find((p) => p.id === id);
};
