// Uploading a synced post's images to the forum (readiness with verify_media_upload, publishing with
// include_media). Images are fetched under the open-web policy (docs/security.md, "Fetching the open web"); a
// URL that carries credentials is never fetched, uploaded or sent.

import { fetchImage } from "../articles/images";
import { fetchPolicy } from "../blog-sync/config-rules";
import type { SyncedPostRow } from "../db/blog-sync-posts";
import type { Env } from "../env";
import { isForumError } from "../forum/errors";
import type { ForumClient } from "../forum/persona-client";
import { FetchError } from "../outbound/fetch-error";
import { hasCredentials, stripUrlCredentials } from "./submission";

export interface MediaResult {
  synced_post_id: number;
  url: string;
  ok: boolean;
  asset_id?: string;
  reason?: string;
}

function fileName(url: string, type: string): string {
  const last = new URL(url).pathname.split("/").pop() || "image";
  return /\.[a-z0-9]{2,5}$/i.test(last) ? last : `${last}.${type.split("/")[1] ?? "img"}`;
}

/** Uploads each image of `post`; one result per image, failures with their reason (never thrown). */
export async function uploadPostImages(env: Env, forum: ForumClient, post: SyncedPostRow): Promise<MediaResult[]> {
  const results: MediaResult[] = [];
  for (const image of post.images) {
    const shown = stripUrlCredentials(image.url);
    if (hasCredentials(image.url)) {
      results.push({
        synced_post_id: post.id,
        url: shown,
        ok: false,
        reason: "the image URL carries credentials; it is never fetched, uploaded or sent",
      });
      continue;
    }
    try {
      const fetched = await fetchImage(image.url, { policy: fetchPolicy(env) });
      const asset = await forum.uploadMedia({
        name: fileName(fetched.url, fetched.contentType),
        type: fetched.contentType,
        bytes: fetched.bytes,
      });
      results.push({ synced_post_id: post.id, url: shown, ok: true, asset_id: asset.assetId });
    } catch (err) {
      if (!(err instanceof FetchError) && !isForumError(err)) throw err;
      results.push({ synced_post_id: post.id, url: shown, ok: false, reason: err.message });
    }
  }
  return results;
}
