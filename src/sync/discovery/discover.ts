import type { Discovery, FetchPolicy } from "../types";

export async function discoverPosts(
  _blogUrl: string,
  _options: { policy: FetchPolicy; maxPosts?: number; pageBudget?: number; urlBudget?: number },
): Promise<Discovery> {
  throw new Error("discoverPosts: not implemented yet");
}
