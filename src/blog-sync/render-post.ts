// The extraction and rendering step of a run: one source post fetched in full, rendered to the forum's
// markdown (and rich text when the config includes media), and hashed, so a run can tell "changed".
import { type FetchPolicy, fetchArticle, fitBody, imagesKept, toRedditMarkdown, toRedditRichText } from "../articles";
import type { SyncConfigRow } from "../db/blog-sync-configs";
import type { SyncedPostRow } from "../db/blog-sync-posts";
import { sha256Hex } from "../lib/crypto";

/** What one source post renders to, and the hash that decides "changed". */
export interface Rendered {
  title: string;
  bodyMarkdown: string;
  bodyRichtext: unknown;
  images: SyncedPostRow["images"];
  contentHash: string;
  warnings: string[];
}

export async function renderPost(url: string, config: SyncConfigRow, policy: FetchPolicy): Promise<Rendered> {
  const article = await fetchArticle(url, { policy });
  // Cut once: both forms keep the same blocks.
  const fitted = fitBody(article);
  const markdown = toRedditMarkdown(article, { fitted });
  // Media asset ids come from the forum at publish time; a draft keeps the images it would upload.
  const richtext = config.includeMedia ? toRedditRichText(article, {}, { fitted }).document : null;
  const images = config.includeMedia ? imagesKept(article, fitted) : [];
  const warnings = [...article.warnings];
  if (markdown.truncated) warnings.push("body was shortened to fit the forum's 40,000 character limit");
  const contentHash = await sha256Hex(JSON.stringify([markdown.title, markdown.markdown, richtext, images]));
  return {
    title: markdown.title,
    bodyMarkdown: markdown.markdown,
    bodyRichtext: richtext,
    images,
    contentHash,
    warnings,
  };
}
