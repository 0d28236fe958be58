// The sync engine's public face: discovery, extraction, rendering and safe fetching, as plain functions over
// `fetch` (no database). The blog-sync service (src/blog-sync), the extract command and the benchmark use only this.

export { FetchError } from "../outbound/fetch-error";
export { canonicalizeUrl } from "./canonical-url";
export { discoverPosts } from "./discover/discover";
export { extractArticle, fetchArticle } from "./extract/article";
export { type FetchedImage, fetchImage } from "./images";
export { checkEdit, type EditedDraft, renderEditedDraft } from "./render/edited";
export { charLength, MAX_BODY, MAX_TITLE } from "./render/limits";
export { fitBody, imagesKept, toRedditMarkdown } from "./render/markdown";
export { fromRedditMarkdown } from "./render/markdown-blocks";
export { toRedditRichText } from "./render/richtext";
export {
  type DraftBody,
  sourceLineMarkdown,
  withoutSourceLine,
  withSourceLine,
} from "./render/source-line";
export type {
  Article,
  ArticleErrorCode,
  ArticleImage,
  Block,
  DiscoveredPost,
  Discovery,
  FetchPolicy,
  Inline,
  SourceKind,
  TableRow,
} from "./types";
