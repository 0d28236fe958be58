import type { Article } from "../types";

export function toRedditMarkdown(_article: Article, _options?: { maxLength?: number }): { title: string; markdown: string; truncated: boolean } {
  throw new Error("toRedditMarkdown: not implemented yet");
}
