import type { Article, FetchPolicy } from "../types";

export async function extractArticle(_html: string, _url: string): Promise<Article> {
  throw new Error("extractArticle: not implemented yet");
}

export async function fetchArticle(_url: string, _options: { policy: FetchPolicy }): Promise<Article> {
  throw new Error("fetchArticle: not implemented yet");
}
