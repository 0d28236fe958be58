import type { Article } from "../types";

export function toRedditRichText(_article: Article, _assetIds: Record<string, string>): { title: string; document: unknown; truncated: boolean } {
  throw new Error("toRedditRichText: not implemented yet");
}
