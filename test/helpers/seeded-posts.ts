// Seeds a workspace's posts, keywords and competitors through the seeding module (scripts/seed/workspace.ts),
// and keeps a plain-JS model of every row so tests can apply the same filters and sorts themselves.
import { env } from "cloudflare:workers";
import { drizzle } from "drizzle-orm/d1";
import { createRandom } from "../../scripts/seed/random";
import { writeContent } from "../../scripts/seed/workspace";
import type { PostView } from "../../src/db/posts";
import * as schema from "../../src/db/schema";

/** A post as the API must return it (docs/api.md, "Posts"), plus the link ids the filters use. */
export type ModelPost = PostView & { keywordIds: number[]; competitorIds: number[] };

export type ApiPost = Omit<ModelPost, "keywordIds" | "competitorIds">;

export const toApiPost = ({ keywordIds: _k, competitorIds: _c, ...post }: ModelPost): ApiPost => post;

/** Small deterministic PRNG, so a failing case can be reproduced. */
export const prng = createRandom;

export const SUBREDDITS = ["SaaS", "marketing", "startups", "webdev"] as const;
const FILLER = [
  "alpha",
  "bravo",
  "charlie",
  "delta",
  "echo",
  "foxtrot",
  "golf",
  "hotel",
  "india",
  "juliet",
  "kilo",
  "lima",
  "mike",
  "oscar",
];
/** Words the search tests look for; "customer support" also appears as an adjacent phrase. */
export const SEARCH_WORDS = ["pricing", "migration", "customer", "support", "integration", "integrations", "integrate"];
export const TITLE_TOKENS = 4;
export const BODY_TOKENS = 12;

export interface SeededWorkspace {
  keywords: { id: number; keyword: string }[];
  competitors: { id: number; name: string }[];
  posts: ModelPost[];
}

/**
 * Creates `keywordNames` and `competitorNames` and `count` posts covering every subreddit, priority,
 * urgency (null included), answered/archived/skipped state and link, with many equal dates, scores and
 * comment counts so the tie-breaks matter. Every post has exactly TITLE_TOKENS + BODY_TOKENS words, so
 * FTS5's bm25 length normalisation is the same for all rows and a one-word search ranks by term frequency.
 */
export async function seedWorkspace(
  workspaceId: number,
  options: { count: number; seed: number; keywordNames?: string[]; competitorNames?: string[]; forumPrefix?: string },
  target: { DB: D1Database; DB_SHARD_1?: D1Database; WORKSPACE_SHARDS?: string } = env,
): Promise<SeededWorkspace> {
  const rand = prng(options.seed);
  const keywordNames = options.keywordNames ?? ["pricing", "Migration tool", "onboarding"];
  const competitorNames = options.competitorNames ?? ["Acme", "Globex"];

  const drafts = Array.from({ length: options.count }, (_, i) => {
    const tokens = Array.from({ length: TITLE_TOKENS + BODY_TOKENS }, () =>
      rand.chance(0.15) ? rand.pick(SEARCH_WORDS) : rand.pick(FILLER),
    );
    if (rand.chance(0.3)) {
      const at = TITLE_TOKENS + rand.int(BODY_TOKENS - 1);
      tokens[at] = "customer";
      tokens[at + 1] = "support";
    }
    const cased = tokens.map((t) => (rand.chance(0.2) ? t[0]!.toUpperCase() + t.slice(1) : t));
    const known = rand.chance(0.8);
    const createdUtc = new Date(Date.UTC(2026, 0, 1) + rand.int(40) * 3_600_000).toISOString();
    return {
      post: {
        forumId: `${options.forumPrefix ?? "t3_"}${i.toString(36)}`,
        subreddit: SUBREDDITS[i % SUBREDDITS.length]!,
        title: cased.slice(0, TITLE_TOKENS).join(" "),
        selftext: cased.slice(TITLE_TOKENS).join(" "),
        author: known ? `user${rand.int(10)}` : "[deleted]",
        url: `https://forum.test/r/x/${i}`,
        score: rand.int(15),
        numComments: rand.int(8),
        createdUtc,
        permalink: `/r/x/comments/${i}`,
        isAnswered: rand.chance(0.4),
        archived: rand.chance(0.2),
        skipped: rand.chance(0.25),
        priority: rand.pick(["high", "medium", "low", null] as const),
        urgency: rand.pick(["urgent", "not_urgent", null] as const),
        scoreReasons: [`+${i % 40} seeded reason ${i}`],
      },
      keywordIdx: keywordNames.map((_, k) => k).filter(() => rand.chance(0.35)),
      competitorIdx: competitorNames.map((_, c) => c).filter(() => rand.chance(0.3)),
    };
  });

  // Written by the seeding module, the same code `npm run seed` runs.
  const written = await writeContent(target, workspaceId, {
    keywords: keywordNames.map((keyword) => ({ keyword })),
    competitors: competitorNames.map((name) => ({ name })),
    posts: drafts.map((d) => ({
      ...d.post,
      keywords: d.keywordIdx.map((k) => keywordNames[k]!),
      competitors: d.competitorIdx.map((c) => competitorNames[c]!),
    })),
  });
  const keywords = keywordNames.map((keyword, k) => ({ id: written.keywordIds[k]!, keyword }));
  const competitors = competitorNames.map((name, c) => ({ id: written.competitorIds[c]!, name }));
  const ids = written.postIds;

  const posts: ModelPost[] = drafts.map((d, i) => ({
    id: ids[i]!,
    forum_id: d.post.forumId,
    subreddit: d.post.subreddit,
    title: d.post.title,
    selftext: d.post.selftext,
    author: d.post.author,
    url: d.post.url,
    score: d.post.score,
    num_comments: d.post.numComments,
    created_utc: d.post.createdUtc,
    permalink: d.post.permalink,
    matched_keywords: d.keywordIdx.map((k) => keywords[k]!.keyword).sort(),
    mentioned_competitors: d.competitorIdx.map((c) => competitors[c]!.name).sort(),
    is_answered: d.post.isAnswered,
    archived: d.post.archived,
    skipped: d.post.skipped,
    priority: d.post.priority,
    urgency: d.post.urgency,
    score_reasons: d.post.scoreReasons,
    // Its keywords carry no metrics, so no post has an opportunity value.
    value: null,
    keywordIds: d.keywordIdx.map((k) => keywords[k]!.id),
    competitorIds: d.competitorIdx.map((c) => competitors[c]!.id),
  }));
  return { keywords, competitors, posts };
}

/**
 * One bare post of `workspaceId` on r/SaaS (no links, no scores), written straight to D1: for the tests of what
 * triggers keep on the post row when links come and go.
 */
export async function insertBarePost(
  d1: D1Database,
  workspaceId: number,
  forumId: string,
  createdUtc = "2026-11-01T10:00:00.000Z",
): Promise<number> {
  const row = await drizzle(d1, { schema })
    .insert(schema.posts)
    .values({
      workspaceId,
      forumId,
      subreddit: "SaaS",
      title: `post ${forumId}`,
      author: "someone",
      url: `https://www.reddit.com/r/SaaS/comments/${forumId}/`,
      permalink: `/r/SaaS/comments/${forumId}/`,
      createdUtc,
    })
    .returning({ id: schema.posts.id })
    .get();
  return row.id;
}
