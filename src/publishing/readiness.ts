// Readiness (docs/publishing.md, "Readiness"): does the persona's grant work, is it visible, may it post to the destination? It
// never submits, never changes the config, and uploads media only with verify_media_upload=true.
import { getConfigRow } from "../db/blog-sync-configs";
import type { WorkspaceDb } from "../db/client";
import { postsWithImages } from "../db/publishing";
import type { Env } from "../env";
import { isForumError } from "../forum/errors";
import { ForumClient } from "../forum/persona-client";
import { notFound } from "../lib/domain-errors";
import { inBrowserTurn, unreachableError } from "../personas/browser-operation";
import { reasonOf } from "../personas/personas";
import { checkDestination, choosePersona, visibleCheck } from "./destination";
import { type MediaResult, uploadPostImages } from "./media-upload";
import { type Check, sourceLinkCheck } from "./submission";

export interface ReadinessInput {
  max_posts?: number;
  persona_id?: number;
  verify_media_upload?: boolean;
}

export interface ReadinessResult {
  ready: boolean;
  persona: { id: number; username: string } | null;
  subreddit: string;
  checks: Check[];
  media: MediaResult[];
}

export async function checkReadiness(
  env: Env,
  w: WorkspaceDb,
  configId: number,
  input: ReadinessInput,
): Promise<ReadinessResult> {
  const config = await getConfigRow(w, configId);
  if (!config) throw notFound("sync config");
  const choice = await choosePersona(w, config, input.persona_id);
  const base = { subreddit: config.subreddit, media: [] as MediaResult[] };
  if (!choice.persona || !choice.ready) {
    return {
      ...base,
      ready: false,
      persona: choice.persona ? { id: choice.persona.id, username: choice.persona.username } : null,
      checks: [{ name: "persona", ok: false, reason: choice.reason }],
    };
  }
  const persona = choice.persona;
  const checks: Check[] = [{ name: "persona", ok: true, reason: null }];
  const media: MediaResult[] = [];
  await inBrowserTurn(env, w.workspaceId, `readiness of config ${config.id}`, async (browser) => {
    try {
      checks.push(await visibleCheck(env, browser, persona));
      const forum = new ForumClient(env, w, persona);
      const destination = await checkDestination(forum, persona, config);
      checks.push(...destination.checks);
      // Said for the blog's own address: its articles are published there.
      const sourceLine = sourceLinkCheck(config, config.blogUrl, destination.requirements);
      if (sourceLine) checks.push(sourceLine);
      if (!input.verify_media_upload || !destination.sessionOk) return;
      const posts = await postsWithImages(w, config.id, input.max_posts ?? config.maxPosts);
      for (const post of posts) media.push(...(await uploadPostImages(env, forum, post)));
      const failed = media.filter((m) => !m.ok).length;
      checks.push(
        failed === 0
          ? { name: "media_upload", ok: true, reason: null }
          : {
              name: "media_upload",
              ok: false,
              reason: `${failed} of ${media.length} images could not be uploaded (see media)`,
            },
      );
    } catch (err) {
      const outside = unreachableError(err);
      if (outside || !isForumError(err)) throw outside ?? err;
      checks.push({ name: "identity", ok: false, reason: reasonOf(err) });
    }
  });
  return {
    ...base,
    media,
    ready: checks.every((c) => c.ok),
    persona: { id: persona.id, username: persona.username },
    checks,
  };
}
