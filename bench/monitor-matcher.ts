// The monitoring benchmark's matcher timing (never deployed): the ingester's own matcher
// (src/monitor/ingest-matcher.ts) compiled in workerd from the workspaces' terms it is sent, then timed on
// the posts it is sent. npm run bench:monitor starts it through wrangler's programmatic dev server.
//
// POST /time {workspaces: [[competitor, ...keywords], ...], posts: MatchItem[], min_ms}
//   -> {terms, distinct, compile_ms, posts: [{ms, first_ms, tested, workspaces}]}
// `ms` is the mean of runs of the same post until `min_ms` passed (the runtime's clock has whole
// milliseconds); `first_ms` the post's first match (term patterns are compiled the first time they are met).
import type { WorkspaceTerms } from "../src/db/ingest";
import type { MatchItem } from "../src/monitor/decide";
import { IngestMatcher } from "../src/monitor/ingest-matcher";

interface TimeRequest {
  /** Per workspace (ids 1, 2, ... in order): its competitor's name, then its keywords. */
  workspaces: string[][];
  posts: MatchItem[];
  min_ms?: number;
}

/** The terms as the ingester reads them (src/db/ingest.ts), every term active and plain. */
function workspaceTerms(list: string[][]): WorkspaceTerms[] {
  let id = 0;
  return list.map(([competitor, ...keywords], i) => ({
    workspaceId: i + 1,
    keywords: keywords.map((keyword) => ({
      id: ++id,
      keyword,
      isAmbiguous: false,
      searchVolume: null,
      cpc: null,
      serpForumPosition: null,
      serpForumUrl: null,
      subreddits: [],
    })),
    competitors: [{ id: ++id, name: competitor ?? "", keywords: [], isAmbiguous: false, subreddits: [] }],
    exclusions: { terms: [], subreddits: [], authors: [] },
  }));
}

export default {
  async fetch(request: Request): Promise<Response> {
    if (request.method !== "POST" || new URL(request.url).pathname !== "/time")
      return new Response("not found", { status: 404 });
    const input = (await request.json()) as TimeRequest;
    const minMs = Math.max(1, input.min_ms ?? 5);
    const workspaces = workspaceTerms(input.workspaces);
    const started = performance.now();
    const matcher = new IngestMatcher(workspaces);
    const compileMs = performance.now() - started;
    const posts = input.posts.map((post) => {
      const t0 = performance.now();
      const found = matcher.match(post);
      const firstMs = performance.now() - t0;
      const tested = matcher.lastTested;
      let runs = 0;
      const t1 = performance.now();
      do {
        matcher.match(post);
        runs++;
      } while (performance.now() - t1 < minMs && runs < 100_000);
      return { ms: (performance.now() - t1) / runs, first_ms: firstMs, tested, workspaces: found.length };
    });
    return Response.json({ terms: matcher.terms, distinct: matcher.distinctTerms, compile_ms: compileMs, posts });
  },
} satisfies ExportedHandler;
